package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Isolate hides a developer's environment: HOME and the XDG directories
// move to a new private home, the variables that point git and gh
// elsewhere are gone, and the go command's caches stay where they were.
func TestIsolate(t *testing.T) {
	odd := t.TempDir()
	for k, v := range map[string]string{
		"HOME": odd, "XDG_CONFIG_HOME": filepath.Join(odd, "cfg"), "XDG_STATE_HOME": filepath.Join(odd, "st"),
		"XDG_RUNTIME_DIR": filepath.Join(odd, "run"), "XDG_CACHE_HOME": filepath.Join(odd, "cache"), "XDG_DATA_HOME": filepath.Join(odd, "data"),
		"GH_TOKEN": "ghp_developer", "GIT_DIR": odd, "GIT_CONFIG_KEY_0": "commit.gpgsign", "GIT_CONFIG_VALUE_0": "true",
		"GIT_CONFIG_COUNT": "1", "NO_COLOR": "1", "GOCACHE": "", "GOPATH": "", "GOMODCACHE": "", "GOENV": "",
	} {
		t.Setenv(k, v) // restored after the test, whatever Isolate does
	}
	cacheDir, _ := os.UserCacheDir()
	cleanup := Isolate()
	home := os.Getenv("HOME")
	if home == odd || !strings.HasPrefix(os.Getenv("XDG_CONFIG_HOME"), home+"/") || !strings.HasPrefix(os.Getenv("XDG_STATE_HOME"), home+"/") ||
		!strings.HasPrefix(os.Getenv("XDG_CACHE_HOME"), home+"/") || !strings.HasPrefix(os.Getenv("XDG_DATA_HOME"), home+"/") {
		t.Errorf("HOME %s, XDG_CONFIG_HOME %s, XDG_STATE_HOME %s", home, os.Getenv("XDG_CONFIG_HOME"), os.Getenv("XDG_STATE_HOME"))
	}
	if st, err := os.Stat(os.Getenv("XDG_RUNTIME_DIR")); err != nil || st.Mode().Perm() != 0o700 || !strings.HasPrefix(os.Getenv("XDG_RUNTIME_DIR"), home+"/") {
		t.Errorf("XDG_RUNTIME_DIR %s: %v", os.Getenv("XDG_RUNTIME_DIR"), err)
	}
	for _, k := range []string{"GH_TOKEN", "GIT_DIR", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_CONFIG_COUNT", "NO_COLOR"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s still set: %q", k, v)
		}
	}
	if got := os.Getenv("GOCACHE"); got != filepath.Join(cacheDir, "go-build") {
		t.Errorf("GOCACHE %q, want the one from before, under %s", got, cacheDir)
	}
	if os.Getenv("GOPATH") == "" || os.Getenv("GOMODCACHE") == "" {
		t.Error("GOPATH or GOMODCACHE not pinned")
	}
	cleanup()
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the isolated home is left: %v", err)
	}
}

// scripts/preflight says loudly what will be skipped and how to get it;
// under CI=true it stops the run, but not when asked --again after the
// tests.
func TestPreflight(t *testing.T) {
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "preflight"))
	bash := Need(t, "bash")
	bin := t.TempDir()
	// Everything the tests use that this machine has, but gh-current.
	for _, p := range []string{"gh", "git", "zsh", "fish", "bash", "tmux", "ssh", "setsid", "flock", "prlimit", "unshare", "goreleaser"} {
		if path, err := exec.LookPath(p); err == nil {
			os.Symlink(path, filepath.Join(bin, p))
		}
	}
	run := func(ci string, args ...string) (string, int) {
		c := exec.Command(bash, append([]string{script}, args...)...)
		c.Env = []string{"PATH=" + bin, "CI=" + ci}
		out, err := c.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := run("")
	if code != 0 || !strings.Contains(out, "gh-current is not built") || !strings.Contains(out, "SKIPPED") || !strings.Contains(out, "scripts/gh-current") {
		t.Errorf("without gh-current: exit %d\n%s", code, out)
	}
	if _, code := run("true"); code != 1 {
		t.Errorf("without gh-current under CI=true: exit %d, want 1", code)
	}
	if out, code := run("true", "--again"); code != 0 || !strings.Contains(out, "gh-current is not built") {
		t.Errorf("--again under CI=true: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(bin, "gh-current"), []byte("#!/bin/sh\n"), 0o755)
	if out, _ := run(""); strings.Contains(out, "gh-current") {
		t.Errorf("gh-current is there, and still named:\n%s", out)
	}
}
