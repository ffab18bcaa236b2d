package testenv

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notInherited are variables of the developer's environment that point
// git, gh or prchip at their own settings, repository or token; a test
// that needs one sets it.
var notInherited = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
	"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
	"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
	"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
	"GH_HOST", "GH_REPO", "GH_CONFIG_DIR", "GH_DEBUG", "GH_FORCE_TTY", "GH_PAGER",
	"NO_COLOR", "CLICOLOR_FORCE", "STARSHIP_SHELL", "SUDO_UID",
	"PRCHIP", "PRCHIP_HOOK_EXE", "PRCHIP_LOCK_FD",
	"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy",
}

// Main runs a package's tests in a home of their own (Isolate) and exits.
func Main(m *testing.M) {
	cleanup := Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// Isolate gives the test binary a home of its own before any test runs:
// HOME and every XDG directory under a new temporary directory, and none
// of the variables that point git, gh or prchip elsewhere (notInherited).
// So a developer whose environment sets XDG_CONFIG_HOME (git then reads
// $XDG_CONFIG_HOME/git/config, not ~/.config/git/config), signs every
// commit, or exports GH_TOKEN, runs the same tests CI runs, and no test
// reads or changes that developer's files. The go command keeps its
// caches and settings: GOPATH, GOCACHE, GOMODCACHE and GOENV are pinned
// to what they were. It returns the cleanup, for TestMain.
func Isolate() (cleanup func()) {
	pin := map[string]string{"GOPATH": build.Default.GOPATH}
	if d, err := os.UserCacheDir(); err == nil {
		pin["GOCACHE"] = filepath.Join(d, "go-build")
	}
	if d, err := os.UserConfigDir(); err == nil {
		pin["GOENV"] = filepath.Join(d, "go", "env")
	}
	if gp := filepath.SplitList(build.Default.GOPATH); len(gp) > 0 {
		pin["GOMODCACHE"] = filepath.Join(gp[0], "pkg", "mod")
	}
	for k, v := range pin {
		if os.Getenv(k) == "" && v != "" {
			os.Setenv(k, v)
		}
	}
	home, err := os.MkdirTemp("", "prchip-test-home-")
	if err != nil {
		panic(err)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			os.Unsetenv(k)
		}
	}
	for _, k := range notInherited {
		os.Unsetenv(k)
	}
	runtime := filepath.Join(home, ".run")
	os.Mkdir(runtime, 0o700)
	for k, v := range map[string]string{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":  filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":   filepath.Join(home, ".local", "share"),
		"XDG_RUNTIME_DIR": runtime,
	} {
		os.Setenv(k, v)
	}
	return func() { os.RemoveAll(home) }
}
