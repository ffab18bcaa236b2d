package worker

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/testenv"
	"github.com/prchip/prchip/shellhooks"
)

// rig is a worker served in this process over two pipes, as the zsh hook
// talks to one over FIFOs, answering for a repository whose PR the real
// gh fetched from the fake GitHub.
type rig struct {
	t      *testing.T
	w      *Worker
	home   string
	repo   string
	config string
	exe    string // the worker's "binary"
	vars   map[string]string
	req    *os.File
	resp   *bufio.Reader
	served chan error // Serve's return
	exited chan struct{}
	id     int
}

func newRig(t *testing.T, configText string) *rig {
	t.Helper()
	git, gh := testenv.Need(t, "git"), testenv.Need(t, "gh")
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	for name, p := range map[string]string{"git": git, "gh": gh, "sh": "/bin/sh"} {
		if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := fakegithub.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "answer"})
	r := &rig{t: t, home: home, repo: filepath.Join(home, "src", "demo"), exe: filepath.Join(home, "prchip"),
		config: filepath.Join(home, "config", "prchip", "config.toml"), exited: make(chan struct{}), served: make(chan error, 1),
		vars: map[string]string{"HOME": home, "PATH": bin, "XDG_STATE_HOME": filepath.Join(home, "state"),
			"XDG_CONFIG_HOME": filepath.Join(home, "config"), "GIT_CONFIG_NOSYSTEM": "1"}}
	for _, kv := range srv.GhEnv(filepath.Join(home, "ghconfig")) {
		k, v, _ := strings.Cut(kv, "=")
		r.vars[k] = v
	}
	os.MkdirAll(filepath.Dir(r.config), 0o700)
	r.writeConfig(configText)
	testenv.DemoRepo(t, git, r.repo, fakegithub.Host, r.env().Environ())
	// The PR is known: a refresh with the real gh, in process, so that no
	// answer below starts one (an answer given while a refresh runs is
	// not kept in memory).
	q := testRequest(r.env())
	q.Dir = r.repo
	eng := render.Engine(q)
	if _, err := eng.Refresh(context.Background(), eng.Gather(), chip.RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(r.exe, []byte("prchip 1"), 0o755)

	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reqW.Close(); respR.Close() })
	r.req, r.resp = reqW, bufio.NewReader(respR)
	r.w = New(Options{Shell: sanitize.Zsh, ShellPID: os.Getpid(), Env: r.env(), Request: testRequest}, respW, r.exe)
	r.w.Exit = func() { close(r.exited) }
	bin2 := bufio.NewReader(reqR)
	go func() {
		r.served <- r.w.Serve(func() (shellhooks.Request, error) { return shellhooks.ReadRequest(bin2) })
	}()
	return r
}

// env is the shell's environment: what the requests carry, and no more.
func (r *rig) env() env.Env { return env.Of(r.vars) }

// writeConfig replaces the configuration file, as an editor does.
func (r *rig) writeConfig(text string) {
	r.t.Helper()
	tmp := r.config + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Rename(tmp, r.config); err != nil {
		r.t.Fatal(err)
	}
}

// ask sends a request for the repository and returns the answer.
func (r *rig) ask() string { r.t.Helper(); return r.askWith(r.vars) }

// askWith is ask with the shell's exported variables vars.
func (r *rig) askWith(vars map[string]string) string {
	r.t.Helper()
	r.id++
	req := shellhooks.Request{ID: strconv.Itoa(r.id), Dir: r.repo, Env: vars}
	if _, err := r.req.Write(req.Encode()); err != nil {
		r.t.Fatal(err)
	}
	for {
		l := r.line()
		if chip, ok := strings.CutPrefix(l, req.ID+" "); ok {
			return chip
		}
		if !strings.HasPrefix(l, "push ") {
			r.t.Fatalf("worker said %q", l)
		}
	}
}

func (r *rig) line() string {
	r.t.Helper()
	ch := make(chan string, 1)
	go func() { s, _ := r.resp.ReadString('\n'); ch <- s }()
	select {
	case s := <-ch:
		return strings.TrimSuffix(s, "\n")
	case <-time.After(time.Minute):
		r.t.Fatal("no line from the worker")
		return ""
	}
}

// oneShot is what `prchip prompt --shell zsh` in the shell prints.
func (r *rig) oneShot() string { return r.oneShotWith(r.vars) }

func (r *rig) oneShotWith(vars map[string]string) string {
	q := testRequest(env.Of(vars))
	q.Dir, q.Shell, q.NoRefresh = r.repo, sanitize.Zsh, true
	return render.Render(q).Text
}

// The worker answers a request over its channel with what the one-shot
// render prints there: the PR the refresh found.
func TestWorkerAnswers(t *testing.T) {
	r := newRig(t, "")
	got := r.ask()
	if want := r.oneShot(); got != want || !strings.Contains(got, "#42") {
		t.Fatalf("answer %q, the one-shot render prints %q", got, want)
	}
	if r.w.renders != 1 {
		t.Fatalf("%d renders for one answer", r.w.renders)
	}
}

// The same request again is answered from memory (no render); a change to
// a file the render read (the configuration) ends the memory at the next
// prompt, which shows the change.
func TestWorkerAnswersFromMemoryUntilAChange(t *testing.T) {
	r := newRig(t, "")
	if r.w.cache == nil {
		t.Skip("no inotify here: every answer is rendered")
	}
	first := r.ask()
	if again := r.ask(); again != first || r.w.renders != 1 {
		t.Fatalf("the same request again: %q after %d renders, want %q from memory", again, r.w.renders, first)
	}
	r.writeConfig("format = \"PR {number}\"\n")
	changed := r.ask()
	if changed == first || !strings.Contains(changed, "PR 42") || r.w.renders != 2 {
		t.Fatalf("after the config changed: %q after %d renders", changed, r.w.renders)
	}
	if want := r.oneShot(); changed != want {
		t.Fatalf("answer %q, the one-shot render prints %q", changed, want)
	}
}

// The worker ends right after answering once its binary was replaced (an
// upgrade takes effect at the next prompt), and not before.
func TestWorkerEndsWhenItsBinaryIsReplaced(t *testing.T) {
	r := newRig(t, "")
	r.ask()
	r.ask()
	select {
	case err := <-r.served:
		t.Fatalf("the worker ended with its binary in place: %v", err)
	default:
	}
	tmp := r.exe + ".new"
	os.WriteFile(tmp, []byte("prchip 2"), 0o755)
	if err := os.Rename(tmp, r.exe); err != nil {
		t.Fatal(err)
	}
	if got := r.ask(); !strings.Contains(got, "#42") {
		t.Fatalf("the last answer %q", got)
	}
	select {
	case err := <-r.served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the worker went on after its binary was replaced")
	}
}

// The worker ends after worker_idle without a request, and removes its
// record then.
func TestWorkerEndsWhenIdle(t *testing.T) {
	r := newRig(t, "worker_idle = \"1s\"\n")
	r.w.record = filepath.Join(r.home, "record")
	os.WriteFile(r.w.record, []byte(`{"pid":`+strconv.Itoa(os.Getpid())+`}`), 0o600)
	r.ask()
	select {
	case <-r.exited:
	case <-time.After(time.Minute):
		t.Fatal("the worker did not end after its idle time")
	}
	if _, err := os.Stat(r.w.record); !os.IsNotExist(err) {
		t.Fatalf("the idle worker left its record: %v", err)
	}
}

// Each answer is rendered in its own request's environment, over the
// worker's own: a variable exported in the shell counts at the next
// prompt, and one unset again no longer does (the worker never changes
// its own environment, so nothing of one request stays for the next).
func TestWorkerAnswersInEachRequestsEnvironment(t *testing.T) {
	r := newRig(t, "[styles]\nnumber = \"bold blue\"\n")
	noColor := map[string]string{"NO_COLOR": "1"}
	for k, v := range r.vars {
		noColor[k] = v
	}
	for i, vars := range []map[string]string{r.vars, noColor, r.vars, noColor} {
		got, want := r.askWith(vars), r.oneShotWith(vars)
		if got != want {
			t.Fatalf("request %d (NO_COLOR %q): %q, the one-shot render prints %q", i, vars["NO_COLOR"], got, want)
		}
		if colored := strings.Contains(got, "\x1b["); colored == (vars["NO_COLOR"] != "") {
			t.Fatalf("request %d (NO_COLOR %q): %q", i, vars["NO_COLOR"], got)
		}
	}
	if _, set := os.LookupEnv("NO_COLOR"); set {
		t.Fatal("the worker set NO_COLOR in its own environment")
	}
}
