// Package e2e runs the prchip binary against the real gh, a fake GitHub API
// on 127.0.0.1, real git repositories and real shells.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	// The binary under test is built from these packages in TestMain; the
	// import ties go test's cache to them.
	_ "github.com/prchip/prchip/cmd"
	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/testenv"
)

var prchipBin string

func TestMain(m *testing.M) {
	// Every run below gets the world's environment; what runs with the
	// test's own (gh --version, git in a test) sees a home of its own.
	cleanup := testenv.Isolate()
	dir, err := os.MkdirTemp("", "prchip-e2e-")
	if err != nil {
		panic(err)
	}
	prchipBin = filepath.Join(dir, "prchip")
	build := exec.Command("go", "build", "-o", prchipBin, "github.com/prchip/prchip")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build prchip: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	cleanup()
	os.Exit(code)
}

// need finds a program or skips; under CI a missing program fails.
func need(t testing.TB, name string) string {
	t.Helper()
	return testenv.Need(t, name)
}

// world is one isolated user: home, XDG dirs, gh config, a fake GitHub, a
// repository, and a PATH holding only what prchip and gh need.
type world struct {
	t      testing.TB
	home   string
	bin    string // PATH dir with git, sh and (unless removed) gh
	repo   string
	srv    *fakegithub.Server
	extra  map[string]string
	ghPath string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldGh(t, need(t, "gh"))
}

// eachGh runs test once with Debian's gh (2.23) and once with a current
// release (gh-current, built by scripts/gh-current), each as the world's
// gh: the main path must hold with both.
func eachGh(t *testing.T, test func(t *testing.T, w *world)) {
	for _, name := range []string{"gh", "gh-current"} {
		t.Run(name, func(t *testing.T) { test(t, newWorldGh(t, need(t, name))) })
	}
}

// newWorldGh is newWorld with the gh program at gh.
func newWorldGh(t testing.TB, gh string) *world {
	t.Helper()
	git := need(t, "git")
	w := &world{t: t, home: t.TempDir(), extra: map[string]string{}, ghPath: gh}
	w.bin = filepath.Join(w.home, "bin")
	os.MkdirAll(w.bin, 0o755)
	os.Mkdir(filepath.Join(w.home, "run"), 0o700)
	for name, p := range map[string]string{"git": git, "sh": "/bin/sh", "gh": gh} {
		if err := os.Symlink(p, filepath.Join(w.bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := fakegithub.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	w.srv = srv
	w.repo = w.newRepo("demo", "feature", "https://"+fakegithub.Host+"/octo/demo.git")
	// Before the temp dirs go: let background refreshes this test started end.
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for w.refreshRunning() && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	})
	return w
}

// newRepo makes a git repository with one commit on branch and a remote.
func (w *world) newRepo(name, branch, remote string) string {
	w.t.Helper()
	dir := filepath.Join(w.home, "src", name)
	os.MkdirAll(dir, 0o755)
	w.git(dir, "init", "-q", "-b", branch)
	w.git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init")
	if remote != "" {
		w.git(dir, "remote", "add", "origin", remote)
		// Pushed with -u, as a branch with a PR is: its upstream is the
		// head prchip asks GitHub about (SPEC 3).
		w.git(dir, "config", "branch."+branch+".remote", "origin")
		w.git(dir, "config", "branch."+branch+".merge", "refs/heads/"+branch)
	}
	return dir
}

func (w *world) git(dir string, args ...string) string {
	w.t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = w.env()
	out, err := c.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (w *world) env() []string {
	env := []string{
		"HOME=" + w.home,
		"PATH=" + w.bin,
		"XDG_STATE_HOME=" + filepath.Join(w.home, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, "cache"),
		// The world's own: what prchip keeps there stays in the test.
		"XDG_RUNTIME_DIR=" + filepath.Join(w.home, "run"),
		"LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
	}
	env = append(env, w.srv.GhEnv(filepath.Join(w.home, "ghconfig"))...)
	for k, v := range w.extra {
		replaced := false
		for i, kv := range env {
			if strings.HasPrefix(kv, k+"=") {
				env[i] = k + "=" + v
				replaced = true
			}
		}
		if !replaced {
			env = append(env, k+"="+v)
		}
	}
	// An extra value of "\x00" unsets the variable.
	out := env[:0]
	for _, kv := range env {
		if !strings.HasSuffix(kv, "=\x00") {
			out = append(out, kv)
		}
	}
	return out
}

type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

func (w *world) run(dir string, args ...string) result {
	w.t.Helper()
	c := exec.Command(prchipBin, args...)
	c.Dir = dir
	c.Env = w.env()
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	start := time.Now()
	err := c.Run()
	r := result{stdout: o.String(), stderr: e.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("run prchip %v: %v", args, err)
	}
	return r
}

// refresh runs `prchip refresh` and checks its exit code.
func (w *world) refresh(dir string, want int, args ...string) result {
	w.t.Helper()
	r := w.run(dir, append([]string{"refresh"}, args...)...)
	if r.code != want {
		w.t.Fatalf("prchip refresh %v: exit %d, want %d\nstdout: %s\nstderr: %s", args, r.code, want, r.stdout, r.stderr)
	}
	return r
}

// status is `prchip status --json` decoded.
type status struct {
	Dir  string `json:"dir"`
	Repo *struct {
		Root, Branch string
		RemoteURL    string `json:"remote_url"`
		Host         string
	} `json:"repo"`
	Gh struct {
		Found bool
		Path  string
	} `json:"gh"`
	Mode          string `json:"mode"`
	Validation    string `json:"validation"`
	Fingerprint   string `json:"fingerprint"`
	FailureCached bool   `json:"failure_cached"`
	Chip          string `json:"chip"`
	PR            *struct {
		Number int
		URL    string
		State  string
		Draft  bool
		Title  string
	} `json:"pr"`
	LastOutcome *struct {
		Class      string
		Category   string
		ExitCode   *int `json:"exit_code"`
		TimedOut   bool `json:"timed_out"`
		Detail     string
		At         time.Time
		DurationMS int64 `json:"duration_ms"`
	} `json:"last_outcome"`
	NextAttemptAt     *time.Time `json:"next_attempt_at"`
	InvalidationCount int        `json:"invalidation_count"`
	ProbeRequests     int        `json:"probe_requests"`
	RecoveryActions   []string   `json:"recovery_actions"`
	StateFile         string     `json:"state_file"`
	ConfigFile        string     `json:"config_file"`
	Problems          []string   `json:"problems"`
	Raw               map[string]any
}

func (w *world) status(dir string) status {
	w.t.Helper()
	r := w.run(dir, "status", "--json")
	if r.code != 0 {
		w.t.Fatalf("status: exit %d: %s", r.code, r.stderr)
	}
	var s status
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		w.t.Fatalf("status JSON: %v\n%s", err, r.stdout)
	}
	json.Unmarshal([]byte(r.stdout), &s.Raw)
	return s
}

// refreshes is what the hooks asked for after git, gh and gt: full
// refreshes (invalidations, after gh and gt) and probes at once (after
// git, where a probe stands in for the result).
func (s status) refreshes() int { return s.InvalidationCount + s.ProbeRequests }

func (s status) class() string {
	if s.LastOutcome == nil {
		return "<none>"
	}
	return s.LastOutcome.Class
}

func (s status) category() string {
	if s.LastOutcome == nil {
		return "<none>"
	}
	return s.LastOutcome.Category
}

// proc is a live (not zombie) process as /proc shows it.
type proc struct {
	pid          int
	cmdline, env []byte
	cwd          string
}

// liveProcesses lists the live processes for which match is true.
func liveProcesses(match func(p proc) bool) []proc {
	var out []proc
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		p := proc{pid: pid}
		p.cmdline, _ = os.ReadFile(filepath.Join(dir, "cmdline"))
		p.env, _ = os.ReadFile(filepath.Join(dir, "environ"))
		p.cwd, _ = os.Readlink(filepath.Join(dir, "cwd"))
		if !match(p) {
			continue
		}
		if stat, _ := os.ReadFile(filepath.Join(dir, "stat")); bytes.Contains(stat, []byte(") Z ")) {
			continue // a zombie is already dead
		}
		out = append(out, p)
	}
	return out
}

// ghProcesses lists live gh processes whose working directory is dir.
func ghProcesses(dir string) []int {
	var pids []int
	for _, p := range liveProcesses(func(p proc) bool {
		return p.cwd == dir && bytes.Contains(p.cmdline, []byte("pr\x00view"))
	}) {
		pids = append(pids, p.pid)
	}
	return pids
}

// prRequests counts the server's requests but the lookup's question
// whether the base repository is a fork, which a repository asks once and
// keeps (SPEC 3): what the tests count is refreshes' PR lookups.
func (w *world) prRequests() int64 {
	return w.srv.Requests() - int64(w.srv.Count(fakegithub.KindRepoParent))
}

// head is the commit checked out in dir: a PR whose head it is passes
// the lookup's history check whatever its state.
func (w *world) head(dir string) string { return w.git(dir, "rev-parse", "HEAD") }
