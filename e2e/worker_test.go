package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/testenv"
	"github.com/prchip/prchip/shellhooks"
)

// workerConn is a worker started the way the hooks start one, with this
// test in the shell's place.
type workerConn struct {
	t        *testing.T
	w        *world
	cmd      *exec.Cmd
	req      *os.File
	resp     *bufio.Reader
	pid      int
	id       int
	lastPush string
	dir      string // the FIFO directory
	bash     bool   // the worker frames its messages (shellhooks.BashFrame)
}

// startWorker starts `prchip worker` on FIFOs as the hooks do: both opened
// read-write by the "shell", and the response FIFO read-only too, before
// the worker starts; the read-write response end is closed once the worker
// said hello. shellPID is the process the worker follows.
func startWorker(t *testing.T, w *world, shell string, shellPID int) *workerConn {
	t.Helper()
	return startWorkerOf(t, w, prchipBin, shell, shellPID)
}

// startWorkerOf is startWorker with another prchip binary.
func startWorkerOf(t *testing.T, w *world, bin, shell string, shellPID int) *workerConn {
	t.Helper()
	dir, err := os.MkdirTemp(w.home, "fifos")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"req", "resp"} {
		if err := syscall.Mkfifo(filepath.Join(dir, n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	req, err := os.OpenFile(filepath.Join(dir, "req"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := os.OpenFile(filepath.Join(dir, "resp"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := os.OpenFile(filepath.Join(dir, "resp"), os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, "worker", "--shell", shell, "--pid", strconv.Itoa(shellPID), "--fifos", dir)
	c.Env = w.env()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	wc := &workerConn{t: t, w: w, cmd: c, req: req, resp: bufio.NewReader(resp), dir: dir, bash: shell == "bash"}
	t.Cleanup(func() {
		req.Close()
		resp.Close()
		rw.Close()
		c.Process.Kill()
		c.Wait()
	})
	line := wc.line(5 * time.Second)
	if !strings.HasPrefix(line, "hello ") {
		t.Fatalf("worker said %q, want hello", line)
	}
	wc.pid, _ = strconv.Atoi(strings.TrimPrefix(line, "hello "))
	if wc.pid != c.Process.Pid {
		t.Fatalf("hello names pid %d, the worker is %d", wc.pid, c.Process.Pid)
	}
	rw.Close()
	// zsh's worker unlinks the FIFOs once it holds them (their directory
	// stays for the memo); bash opens them by name for each prompt, so
	// they stay until its worker ends.
	if _, err := os.Stat(filepath.Join(dir, "req")); shell == "zsh" && !os.IsNotExist(err) {
		t.Errorf("the request FIFO is still there after hello: %v", err)
	} else if shell == "bash" && err != nil {
		t.Errorf("bash's FIFO directory is gone after hello: %v", err)
	}
	return wc
}

// fifosGone fails unless the worker removed its FIFO directory.
func (wc *workerConn) fifosGone() {
	wc.t.Helper()
	if _, err := os.Stat(wc.dir); !os.IsNotExist(err) {
		wc.t.Errorf("the ended worker left its FIFO directory: %v", err)
	}
}

// line reads one line within d ("" on timeout or end of file).
func (wc *workerConn) line(d time.Duration) string {
	wc.t.Helper()
	ch := make(chan string, 1)
	go func() {
		if wc.bash {
			// As the line protocol has it: "hello PID" or "ID chip".
			id, body, err := testenv.ReadBashFrame(wc.resp)
			if err != nil {
				ch <- ""
			} else if id == "0" {
				ch <- "hello " + body
			} else {
				ch <- id + " " + body
			}
			return
		}
		s, _ := wc.resp.ReadString('\n')
		ch <- s
	}()
	select {
	case s := <-ch:
		return strings.TrimSuffix(s, "\n")
	case <-time.After(d):
		wc.t.Fatalf("no line from the worker within %v", d)
		return ""
	}
}

// ask sends a request for dir with env (the world's environment, changed
// by extra; "\x00" unsets) and returns the answer.
func (wc *workerConn) ask(dir string, invalidate bool, extra map[string]string) string {
	wc.t.Helper()
	wc.id++
	r := shellhooks.Request{ID: strconv.Itoa(wc.id), Dir: dir, Invalidate: invalidate, Env: requestEnv(wc.w, extra)}
	if _, err := wc.req.Write(r.Encode()); err != nil {
		wc.t.Fatal(err)
	}
	for {
		l := wc.line(5 * time.Second)
		if chip, ok := strings.CutPrefix(l, r.ID+" "); ok {
			return chip
		}
		if p, ok := strings.CutPrefix(l, "push "); ok {
			wc.lastPush = p
			continue
		}
		wc.t.Fatalf("unexpected line %q while waiting for answer %s", l, r.ID)
	}
}

// requestEnv is what a hook sends: the world's exported env.Names.
func requestEnv(w *world, extra map[string]string) map[string]string {
	vars := map[string]string{}
	for _, kv := range w.env() {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	for k, v := range extra {
		if v == "\x00" {
			delete(vars, k)
		} else {
			vars[k] = v
		}
	}
	out := map[string]string{}
	for _, n := range env.Names {
		if v, ok := vars[n]; ok {
			out[n] = v
		}
	}
	return out
}

// The worker's answer is exactly what `prchip prompt --shell S` prints in
// the same directory with the same environment, for every state of a
// table, in zsh's and bash's escaping, and with variables the worker did
// not start with.
func TestWorkerAnswersAsPrompt(t *testing.T) {
	hostile := "t $(touch pwned) `id` %F{red}red \\[x\\] ${HOME} !! \x1b]0;owned\x07 \u202e"
	type state struct {
		name  string
		setup func(w *world) string // returns the directory to ask in
		extra map[string]string     // the request's variables, changed
		// workerEnv is what the worker started with, beyond the world's.
		workerEnv map[string]string
	}
	states := []state{
		{"open", func(w *world) string {
			w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "answer"})
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, nil},
		{"draft with colour", func(w *world) string {
			w.config(`format = "#{number} {state} {title}"` + "\n[styles]\nnumber = \"bold green\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "wip", Draft: true})
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, nil},
		{"NO_COLOR only in the request", func(w *world) string {
			w.config(`format = "#{number} {title}"` + "\n[styles]\nnumber = \"bold green\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "wip"})
			w.refresh(w.repo, 0)
			return w.repo
		}, map[string]string{"NO_COLOR": "1"}, nil},
		{"NO_COLOR unset since the worker started", func(w *world) string {
			w.config(`format = "#{number} {title}"` + "\n[styles]\nnumber = \"bold green\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "wip"})
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, map[string]string{"NO_COLOR": "1"}},
		{"merged", func(w *world) string {
			w.srv.SetPR("feature", fakegithub.PR{Number: 3, State: "MERGED", HeadOid: w.head(w.repo)})
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, nil},
		{"no PR", func(w *world) string { w.refresh(w.repo, 0); return w.repo }, nil, nil},
		{"hostile title and branch", func(w *world) string {
			b := "x$(touch${IFS}pwned)`id`%F{red}!!"
			w.git(w.repo, "checkout", "-q", "-b", b)
			w.srv.SetPR(b, fakegithub.PR{Number: 5, Title: hostile})
			w.config(`format = "#{number} {title} {branch}"` + "\n")
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, nil},
		{"suppressed", func(w *world) string {
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			w.srv.SetMode(fakegithub.BadCreds)
			w.refresh(w.repo, 4, "--force")
			return w.repo
		}, nil, nil},
		{"server down, last value kept", func(w *world) string {
			w.config("on_retryable = \"keep\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			w.srv.Stop()
			w.refresh(w.repo, 1, "--force")
			return w.repo
		}, nil, nil},
		{"shell chip", func(w *world) string {
			w.config("[chips.hello]\ncommand = \"echo 'hi $(x) %F'\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 1})
			w.refresh(w.repo, 0)
			return w.repo
		}, nil, nil},
		{"not a repository", func(w *world) string { return w.home }, nil, nil},
		{"detached", func(w *world) string {
			w.git(w.repo, "checkout", "-q", "--detach")
			return w.repo
		}, nil, nil},
		{"no GitHub remote", func(w *world) string {
			return w.newRepo("elsewhere", "main", "https://gitlab.example/o/r.git")
		}, nil, nil},
		{"gh gone from PATH", func(w *world) string {
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			os.Remove(filepath.Join(w.bin, "gh"))
			w.refresh(w.repo, 4)
			return w.repo
		}, nil, nil},
		{"another token in the request", func(w *world) string {
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			return w.repo
		}, map[string]string{"GH_TOKEN": "another"}, nil},
	}
	// Each setup leaves a steady state: nothing a render could start
	// changes what the next render shows.
	for _, sh := range []string{"zsh", "bash"} {
		for _, st := range states {
			t.Run(sh+"/"+st.name, func(t *testing.T) {
				w := newWorld(t)
				dir := st.setup(w)
				w.settle()
				for k, v := range st.workerEnv {
					w.extra[k] = v
				}
				wc := startWorker(t, w, sh, os.Getpid())
				for k := range st.workerEnv {
					delete(w.extra, k)
				}
				got := wc.ask(dir, false, st.extra)
				for k, v := range st.extra {
					w.extra[k] = v
				}
				want := w.run(dir, "prompt", "--shell", sh).stdout
				if got != want {
					t.Fatalf("worker answered %q, prchip prompt printed %q", got, want)
				}
				if again := wc.ask(dir, false, st.extra); again != want {
					t.Fatalf("second answer %q, want %q", again, want)
				}
				if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
					t.Fatal("text ran as code")
				}
			})
		}
	}
}

// An invalidating request bumps the repository's invalidation count in the
// worker; a zsh worker pushes the new chip when the refresh it started
// ends; the worker ends with the process it follows, after its idle time,
// and on end of file.
func TestWorkerLifecycle(t *testing.T) {
	t.Run("invalidate and push", func(t *testing.T) {
		w := newWorld(t)
		w.srv.SetPR("feature", fakegithub.PR{Number: 1})
		w.refresh(w.repo, 0)
		wc := startWorker(t, w, "zsh", os.Getpid())
		if got := wc.ask(w.repo, false, nil); got != "#1" {
			t.Fatalf("chip %q", got)
		}
		w.srv.SetPR("feature", fakegithub.PR{Number: 2})
		if got := wc.ask(w.repo, true, nil); got != "#1" {
			t.Fatalf("chip while refreshing %q", got)
		}
		if n := w.status(w.repo).InvalidationCount; n != 1 {
			t.Fatalf("invalidation count %d, want 1", n)
		}
		if l := wc.line(10 * time.Second); l != "push #2" {
			t.Fatalf("after the refresh the worker wrote %q, want push #2", l)
		}
	})
	t.Run("ends with its shell", func(t *testing.T) {
		w := newWorld(t)
		shell := exec.Command("sleep", "600")
		if err := shell.Start(); err != nil {
			t.Fatal(err)
		}
		wc := startWorker(t, w, "bash", shell.Process.Pid)
		wc.ask(w.home, false, nil)
		shell.Process.Kill()
		shell.Wait()
		waitExit(t, wc.cmd, 5*time.Second, "after its shell ended")
		wc.fifosGone()
	})
	t.Run("idle time", func(t *testing.T) {
		w := newWorld(t)
		w.config("worker_idle = \"1s\"\n")
		wc := startWorker(t, w, "bash", os.Getpid())
		wc.ask(w.repo, false, nil)
		start := time.Now()
		waitExit(t, wc.cmd, 10*time.Second, "after 1 s idle")
		if time.Since(start) < 900*time.Millisecond {
			t.Fatalf("the worker ended after %v, before its idle time", time.Since(start))
		}
		wc.fifosGone()
	})
	t.Run("end of file", func(t *testing.T) {
		w := newWorld(t)
		wc := startWorker(t, w, "zsh", os.Getpid())
		wc.req.Close()
		waitExit(t, wc.cmd, 5*time.Second, "after the request FIFO closed")
	})
	t.Run("binary replaced", func(t *testing.T) {
		w := newWorld(t)
		bin := filepath.Join(w.home, "prchip-copy")
		copyFile(t, prchipBin, bin)
		wc := startWorkerOf(t, w, bin, "zsh", os.Getpid())
		wc.ask(w.home, false, nil)
		copyFile(t, prchipBin, bin+".new")
		if err := os.Rename(bin+".new", bin); err != nil {
			t.Fatal(err)
		}
		wc.ask(w.home, false, nil) // answered, then it gives way
		waitExit(t, wc.cmd, 5*time.Second, "after its binary was replaced")
	})
}

func waitExit(t *testing.T, c *exec.Cmd, d time.Duration, when string) {
	t.Helper()
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("the worker still runs %s", when)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(fmt.Errorf("copy %s: %w", from, err))
	}
}

// The worker answers a repeated prompt from memory, and never after
// something it depends on changed: each change below is made by another
// process between two requests, and the second answer must be what
// `prchip prompt` prints then.
func TestWorkerNeverServesStale(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "answer"})
	w.srv.SetPR("other", fakegithub.PR{Number: 7})
	w.git(w.repo, "branch", "other")
	w.git(w.repo, "config", "branch.other.remote", "origin")
	w.git(w.repo, "config", "branch.other.merge", "refs/heads/other")
	cfgHome := filepath.Join(w.home, "config")
	os.RemoveAll(cfgHome) // the config directory appears later
	w.refresh(w.repo, 0)
	wc := startWorker(t, w, "zsh", os.Getpid())
	check := func(step string) {
		t.Helper()
		w.settle()
		want := w.run(w.repo, "prompt", "--shell", "zsh", "--no-refresh").stdout
		// Twice: the first may render, the second may come from memory.
		for i := range 2 {
			if got := wc.ask(w.repo, false, nil); got != want {
				t.Fatalf("%s: answer %d is %q, prchip prompt prints %q", step, i+1, got, want)
			}
		}
	}
	check("start")
	w.srv.SetPR("feature", fakegithub.PR{Number: 43})
	w.refresh(w.repo, 0, "--force")
	check("state written by another refresh")
	w.config(`format = "#{number} {title}"` + "\n")
	check("config file created with its directory")
	w.config(`format = "[{number}]"` + "\n")
	check("config file changed")
	w.git(w.repo, "checkout", "-q", "other")
	w.refresh(w.repo, 0)
	check("branch switched by git")
	w.git(w.repo, "remote", "set-url", "origin", "https://gitlab.example/o/r.git")
	check("remote changed in .git/config")
	w.git(w.repo, "remote", "set-url", "origin", "https://"+fakegithub.Host+"/octo/demo.git")
	check("remote changed back")
	os.Remove(filepath.Join(w.bin, "gh"))
	w.refresh(w.repo, 4)
	check("gh removed")
	os.Symlink(w.ghPath, filepath.Join(w.bin, "gh"))
	check("gh back")
	// gh behind a link, upgraded in place: its identity changes, so the
	// fingerprint does, and the next prompt refreshes.
	real := filepath.Join(w.home, "ghreal", "gh")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("#!/bin/sh\nexec "+w.ghPath+" \"$@\"\n"), 0o755)
	os.Remove(filepath.Join(w.bin, "gh"))
	os.Symlink(real, filepath.Join(w.bin, "gh"))
	w.refresh(w.repo, 0)
	check("gh behind a link")
	requests := w.prRequests()
	later := time.Now().Add(time.Hour)
	os.Chtimes(real, later, later)
	wc.ask(w.repo, false, nil)
	w.settle()
	if w.prRequests() == requests {
		t.Fatal("gh changed behind its link, and the next prompt did not refresh")
	}
	w.config("refresh_interval = \"1s\"\n")
	w.refresh(w.repo, 0)
	check("short freshness")
	// A refresh or, where one stands in for the result, a conditional
	// probe (a REST request).
	asked := func() int64 { return w.prRequests() + int64(w.srv.REST().Requests) }
	before := asked()
	time.Sleep(1200 * time.Millisecond)
	wc.ask(w.repo, false, nil) // freshness ran out: a refresh is due
	w.settle()
	if asked() == before {
		t.Fatal("no refresh once the answer's freshness ran out")
	}
}

// A worker whose shell let go of the FIFOs before it opened them (the
// shell exited, or gave up on it) ends at once and leaves no directory.
func TestWorkerOfAShellThatLeft(t *testing.T) {
	w := newWorld(t)
	dir, _ := os.MkdirTemp(w.home, "fifos")
	for _, n := range []string{"req", "resp"} {
		syscall.Mkfifo(filepath.Join(dir, n), 0o600)
	}
	c := exec.Command(prchipBin, "worker", "--shell", "zsh", "--pid", strconv.Itoa(os.Getpid()), "--fifos", dir)
	c.Env = w.env()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitExit(t, c, 5*time.Second, "with nobody holding its FIFOs")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the FIFO directory is left: %v", err)
	}
}

// A path that comes to name another directory (a link retargeted) sends no
// event to the watches on the old one: the answer still follows.
func TestWorkerFollowsARetargetedLink(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	other := w.newRepo("other", "other", "https://"+fakegithub.Host+"/octo/demo.git")
	// Where no render looks: only the link's target is watched.
	// Under the world's home, which goes only after the background
	// refreshes end (a t.TempDir made here would go first, while the
	// refresh the retargeted link started may still write there).
	link := filepath.Join(w.home, "linkdir", "link")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(w.repo, link); err != nil {
		t.Fatal(err)
	}
	w.extra["PWD"] = link // the refresh runs where a shell in link/ would say it is
	w.refresh(link, 0)
	delete(w.extra, "PWD")
	wc := startWorker(t, w, "zsh", os.Getpid())
	for range 2 {
		if got := wc.ask(link, false, nil); got != "#42" {
			t.Fatalf("through the link: %q, want #42", got)
		}
	}
	tmp := link + ".new"
	os.Symlink(other, tmp)
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	if got := wc.ask(link, false, nil); got != "" {
		t.Fatalf("the link now names a repository on another branch, and the worker answered %q", got)
	}
}
