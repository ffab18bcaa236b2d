package worker

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/testenv"
	"github.com/prchip/prchip/shellhooks"
)

// procWorker is a real worker process (TestMain's `worker SHELL FIFOS`:
// Run, serveShell and all) answering r's requests over the FIFOs in dir,
// as the hook talks to one. Its binary is a copy of this test binary at
// exe, which a test may replace.
type procWorker struct {
	t     *testing.T
	r     *rig
	shell sanitize.Shell
	dir   string
	exe   string
	req   *os.File
	resp  *bufio.Reader
	id    int
	start string // the worker's start time, as its memo names it
}

// startWorker starts a worker for shell with its FIFOs in a new private
// directory (0700, FIFOs 0600, as the hook makes them). The directory
// also holds a file of the test's, so it stays when a zsh worker removes
// its FIFOs at once. The worker is ended (SIGTERM) with the test.
func startWorker(t *testing.T, r *rig, shell sanitize.Shell) *procWorker {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &procWorker{t: t, r: r, shell: shell, dir: filepath.Join(t.TempDir(), "prchip.x"), exe: filepath.Join(r.home, "exe", "prchip")}
	os.MkdirAll(filepath.Dir(p.exe), 0o755)
	if err := copyFile(self, p.exe); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(p.dir, "keep"), nil, 0o600)
	// Read-write: no open blocks, and the zsh worker's write-only open
	// finds a reader.
	req, resp := testenv.FIFOPair(t, p.dir)
	p.req, p.resp = req, bufio.NewReader(resp)
	cmd := exec.Command(p.exe, "worker", string(shell), p.dir)
	cmd.Env = r.env().Environ()
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	hello := "0" // bash's frame; zsh's line is shellhooks.Hello
	if shell != sanitize.Bash {
		hello = "hello"
	}
	if id, body := p.next(); id != hello || body != strconv.Itoa(cmd.Process.Pid) {
		t.Fatalf("the worker's hello: %q %q", id, body)
	}
	if st, ok := proc.ReadStat(cmd.Process.Pid); ok {
		p.start = st.Start
	}
	return p
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

// next is the worker's next message: a bash frame's id and body (escaped,
// as on the wire), or a zsh line's first word and the rest.
func (p *procWorker) next() (id, body string) {
	p.t.Helper()
	type msg struct {
		id, body string
		err      error
	}
	ch := make(chan msg, 1)
	go func() {
		if p.shell != sanitize.Bash {
			l, err := p.resp.ReadString('\n')
			id, body, _ := strings.Cut(strings.TrimSuffix(l, "\n"), " ")
			ch <- msg{id, body, err}
			return
		}
		var head [16]byte
		if _, err := io.ReadFull(p.resp, head[:]); err != nil {
			ch <- msg{err: err}
			return
		}
		n, _ := strconv.Atoi(string(head[:10]))
		size, _ := strconv.Atoi(string(head[10:]))
		b := make([]byte, size)
		_, err := io.ReadFull(p.resp, b)
		ch <- msg{strconv.Itoa(n), string(b), err}
	}()
	select {
	case m := <-ch:
		if m.err != nil {
			p.t.Fatal(m.err)
		}
		return m.id, m.body
	case <-time.After(time.Minute):
		p.t.Fatal("no answer from the worker")
		return "", ""
	}
}

// ask sends a request for dir with the rig's variables and returns the
// answer's body.
func (p *procWorker) ask(dir string) string {
	p.t.Helper()
	p.id++
	req := shellhooks.Request{ID: strconv.Itoa(p.id), Dir: dir, Env: p.r.vars}
	if _, err := p.req.Write(req.Encode()); err != nil {
		p.t.Fatal(err)
	}
	for {
		if id, body := p.next(); id == req.ID {
			return body
		}
	}
}

// memo is the memo file's content; "" when there is none.
func (p *procWorker) memo() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, shellhooks.MemoFile))
	return string(b)
}

// checkMemo fails unless memo is p's line of body (as framed) standing
// until a time to come: shellhooks.Memo's ten digits, a space, the
// worker's start time, a space, the chip escaped as in a frame.
func (p *procWorker) checkMemo(memo, body string) {
	t := p.t
	t.Helper()
	until, err := strconv.ParseInt(memo[:min(10, len(memo))], 10, 64)
	if err != nil || len(memo) < 10 || p.start == "" || memo != fmt.Sprintf("%010d %s %s\n", until, p.start, body) {
		t.Fatalf("memo %q, want ten digits, a space, the start time %q, a space and %q", memo, p.start, body)
	}
	if !time.Unix(until, 0).After(time.Now()) {
		t.Fatalf("memo %q stands until %v, already past", memo, time.Unix(until, 0))
	}
	if want := strings.TrimSuffix(string(shellhooks.Memo(true, time.Unix(until, 0), p.start, "")), "\n"); !strings.HasPrefix(memo, want) {
		t.Fatalf("memo %q, Memo makes %q for no chip", memo, want)
	}
}

// awaitMemo asks for dir until the worker keeps its answer (a second
// request is read only after the first's fill), and returns the memo.
func (p *procWorker) awaitMemo(dir string) (memo, body string) {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		body = p.ask(dir)
		p.ask(dir)
		if memo = p.memo(); memo != "" || time.Now().After(deadline) {
			return memo, body
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// awaitNoMemo waits, without any request, for the memo to go.
func (p *procWorker) awaitNoMemo(what string) {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); p.memo() != ""; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: the memo stayed without a request: %q", what, p.memo())
		}
	}
}

// replace puts a new file at path, as an editor, git or an upgrade does.
func replace(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path+".new", []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// A bash worker keeps its standing answer in the memo (Memo's line,
// the chip escaped as in its frame), and removes it as soon as a file the
// answer depends on changes, without waiting for a request (watchMemo):
// the configuration, the repository's HEAD, the worker's own binary. After
// each change a request is answered and kept again.
func TestBashWorkerMemoGoesWithAChange(t *testing.T) {
	r := newRig(t, "")
	if r.w.cache == nil {
		t.Skip("no inotify here: no memo")
	}
	p := startWorker(t, r, sanitize.Bash)
	head := filepath.Join(r.repo, ".git", "HEAD")
	for _, c := range []struct {
		what   string
		before string // in the answer kept before the change
		change func()
	}{
		{"the configuration replaced", "#42", func() { r.writeConfig("format = \"PR {number}\"\n") }},
		{"HEAD to another branch", "PR 42", func() { replace(t, head, "ref: refs/heads/other\n", 0o644) }},
		{"HEAD back", "", func() { replace(t, head, "ref: refs/heads/feature\n", 0o644) }},
		// Last: the worker ends after its next answer.
		{"the worker's binary replaced", "PR 42", func() { replace(t, p.exe, "prchip 2", 0o755) }},
	} {
		memo, body := p.awaitMemo(r.repo)
		if !strings.Contains(body, c.before) {
			t.Fatalf("before %s: answer %q", c.what, body)
		}
		p.checkMemo(memo, body)
		c.change()
		p.awaitNoMemo(c.what)
	}
}

// A request with another key (another directory) ends the memo before
// its answer is written: once the shell has that answer, the memo is
// gone or already the new answer's, never the old one's, which the hook
// would show in the wrong directory.
func TestBashWorkerMemoGoesBeforeAnotherAnswer(t *testing.T) {
	r := newRig(t, "")
	if r.w.cache == nil {
		t.Skip("no inotify here: no memo")
	}
	p := startWorker(t, r, sanitize.Bash)
	elsewhere := t.TempDir()
	for i := range 3 {
		memo, body := p.awaitMemo(r.repo)
		p.checkMemo(memo, body)
		other := p.ask(elsewhere)
		if other == body {
			t.Fatalf("the same answer %q in %s", other, elsewhere)
		}
		if now := p.memo(); now != "" {
			if now == memo {
				t.Fatalf("round %d: after the answer for another directory, the memo is still the old one's: %q", i, now)
			}
			p.checkMemo(now, other)
		}
	}
}

// A zsh worker keeps a memo too, its chip as zsh's answers carry it (not
// escaped as bash's). And the cache keeps a memo only in a directory that
// is the user's alone, not through a link (keepMemo); elsewhere set writes
// none.
func TestMemoOnlyInAPrivateDirectory(t *testing.T) {
	t.Run("zsh worker", func(t *testing.T) {
		r := newRig(t, "")
		p := startWorker(t, r, sanitize.Zsh)
		memo, body := p.awaitMemo(r.repo)
		p.checkMemo(memo, body)
	})
	for _, c := range []struct {
		name   string
		mode   os.FileMode
		owner  int // -1: the test's user
		linked bool
		ok     bool
	}{
		{"private", 0o700, -1, false, true},
		{"others may enter", 0o755, -1, false, false},
		{"the group may write", 0o770, -1, false, false},
		{"another user's", 0o700, 65534, false, false},
		{"through a symlink", 0o700, -1, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := newAnswerCache()
			if cache == nil {
				t.Skip("no inotify")
			}
			base := t.TempDir()
			dir := filepath.Join(base, "prchip.x")
			os.Mkdir(dir, 0o700)
			os.Chmod(dir, c.mode)
			if c.owner >= 0 {
				if err := os.Chown(dir, c.owner, c.owner); err != nil {
					t.Skipf("cannot give the directory away: %v", err)
				}
			}
			at := dir
			if c.linked {
				at = filepath.Join(base, "link")
				os.Symlink(dir, at)
			}
			if ok := cache.keepMemo(at, func(u time.Time, c string) []byte { return shellhooks.Memo(true, u, "1", c) }); ok != c.ok {
				t.Fatalf("keepMemo: %v, want %v", ok, c.ok)
			}
			until := time.Now().Add(time.Hour)
			cache.set("k", "\x1b[1m#1\\", until)
			b, err := os.ReadFile(filepath.Join(dir, shellhooks.MemoFile))
			if c.ok && string(b) != string(shellhooks.Memo(true, until, "1", "\x1b[1m#1\\")) {
				t.Fatalf("memo %q (%v), want %q", b, err, shellhooks.Memo(true, until, "1", "\x1b[1m#1\\"))
			}
			if !c.ok && !os.IsNotExist(err) {
				t.Fatalf("a memo where none may be: %q %v", b, err)
			}
		})
	}
}
