package cmd

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/sanitize"
	"github.com/prchip/prchip/shellhooks"
)

// runWorker is `prchip worker`: one per interactive zsh or bash, started
// by its hook, answering each prompt over the FIFOs the hook made
// (shellhooks/protocol.go). It ends when its shell ends, when the shell
// closes the request FIFO, after the configured idle time, and after
// answering once its executable has been replaced.
func runWorker(c *Context) error {
	shell, ok := sanitize.ParseShell(c.String("shell"))
	if !ok || (shell != sanitize.Zsh && shell != sanitize.Bash) {
		return usageError("worker: --shell must be zsh or bash")
	}
	pid, err := strconv.Atoi(c.String("pid"))
	if err != nil || pid <= 1 {
		return usageError("worker: --pid must be the shell's process id")
	}
	fifos := c.String("fifos")
	if fifos == "" {
		return usageError("worker: --fifos names the hook's FIFO directory")
	}
	// Neither end blocks: the shell holds both FIFOs open read-write.
	in, err := os.OpenFile(filepath.Join(fifos, "req"), os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	out, err := os.OpenFile(filepath.Join(fifos, "resp"), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	os.Remove(filepath.Join(fifos, "req"))
	os.Remove(filepath.Join(fifos, "resp"))
	os.Remove(fifos)
	// Out of the shell's session (it fails, harmlessly, for the leader of
	// a zsh background job): Ctrl-C and job control signals are for the
	// user's commands. And out of the shell's directory, which would stay
	// busy (a umount there fails) for as long as the worker lives.
	syscall.Setsid()
	exe := absExecutable(os.Args[0])
	os.Chdir("/")
	w := &worker{io: c.IO, shell: shell, out: out, shellPID: pid, exePath: exe,
		done: make(chan struct{}, 1), idle: config.Load(DefaultPaths().Config).WorkerIdle}
	// The running binary's identity; a different file at exePath later
	// means an upgrade replaced it.
	if w.exe = executableID("/proc/self/exe"); w.exe == (fileID{}) {
		w.exe = executableID(exe)
	}
	w.record = writeWorkerRecord(DefaultPaths(), pid, exe)
	defer w.removeRecord()
	if _, err := out.Write(shellhooks.Hello(os.Getpid())); err != nil {
		return nil
	}
	return w.serve(bufio.NewReaderSize(in, 64<<10))
}

// worker is one shell's worker.
type worker struct {
	io       *IO
	shell    sanitize.Shell
	out      *os.File
	shellPID int
	exePath  string
	exe      fileID
	idle     time.Duration
	record   string // the status record's path, "" when none was written

	last     shellhooks.Request // the latest request: where the shell is
	lastChip string
	// done receives when a refresh the last answer depends on ends.
	done     chan struct{}
	watching atomic.Bool // a goroutine waits for another process's refresh
}

func (w *worker) serve(in *bufio.Reader) error {
	reqs := make(chan shellhooks.Request)
	readErr := make(chan error, 1)
	go func() {
		for {
			r, err := shellhooks.ReadRequest(in)
			if err != nil {
				readErr <- err
				return
			}
			reqs <- r
		}
	}()
	gone := watchProcess(w.shellPID)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	idle := time.NewTimer(w.idle)
	for {
		select {
		case r := <-reqs:
			if !w.answer(r) {
				return nil
			}
			idle.Reset(w.idle)
			if w.exe != executableID(w.exePath) {
				return nil // replaced: the next prompt starts the new binary
			}
		case <-w.done:
			if !w.push() {
				return nil
			}
		case <-readErr:
			return nil // the shell closed the FIFO, or wrote nonsense
		case <-gone:
			return nil
		case <-idle.C:
			return nil
		case <-sigs:
			return nil
		}
	}
}

// setEnv makes the process environment the request's for the variables a
// request carries, so the render (and the refresh it starts) sees what a
// one-shot `prchip prompt` started by that shell would.
func setEnv(r shellhooks.Request) {
	for _, n := range shellhooks.EnvNames {
		if v, ok := r.Env[n]; ok {
			os.Setenv(n, v)
		} else {
			os.Unsetenv(n)
		}
	}
}

// answer handles one request; false when the shell can no longer be told.
func (w *worker) answer(r shellhooks.Request) (ok bool) {
	w.last = r
	text := ""
	func() {
		defer func() { recover() }() // a bug of ours must not end the shell's worker silently mid-answer
		setEnv(r)
		paths := DefaultPaths()
		o := &IO{Stdout: w.io.Stdout, Stderr: w.io.Stderr, Dir: r.Dir, Now: w.io.Now}
		if r.Invalidate {
			invalidate(o, paths)
		}
		rr := render(o, paths, w.shell, false)
		text = rr.Text
		if rr.Config != nil {
			w.idle = rr.Config.WorkerIdle
		}
		if w.shell == sanitize.Zsh {
			w.follow(rr)
		} else if rr.Child != nil {
			go rr.Child.Wait() // reap it; bash cannot be told when it ends
		}
	}()
	w.lastChip = text
	if w.record != "" {
		now := time.Now()
		os.Chtimes(w.record, now, now)
	}
	_, err := w.out.Write(shellhooks.Answer(r.ID, text))
	return err == nil
}

// follow arranges for w.done to fire when the refresh the answer depends
// on ends: the one this render started, or another process's.
func (w *worker) follow(rr rendered) {
	notify := func() {
		select {
		case w.done <- struct{}{}:
		default:
		}
	}
	switch {
	case rr.Child != nil:
		go func() { rr.Child.Wait(); notify() }()
	case rr.InFlight && w.watching.CompareAndSwap(false, true):
		store, key, budget := rr.Store, rr.Key, rr.Budget+2*time.Second
		go func() { store.WaitUnlocked(key, budget); w.watching.Store(false); notify() }()
	}
}

// push renders again where the shell was last and tells zsh when the chip
// changed. It never starts a refresh: a refresh that cannot record its
// result must not become a loop while the prompt sits idle.
func (w *worker) push() bool {
	text := ""
	func() {
		defer func() { recover() }()
		setEnv(w.last)
		o := &IO{Stdout: w.io.Stdout, Stderr: w.io.Stderr, Dir: w.last.Dir, Now: w.io.Now}
		text = render(o, DefaultPaths(), w.shell, true).Text
	}()
	if text == w.lastChip {
		return true
	}
	w.lastChip = text
	_, err := w.out.Write(shellhooks.Push(text))
	return err == nil
}

// invalidate is `prchip invalidate` without its output.
func invalidate(o *IO, paths Paths) {
	env := o.env(paths)
	env.Invalidate(chip.Gather(env.Dir, env.Time()))
}

// fileID identifies an executable file; a replaced binary has a new one.
type fileID struct{ dev, ino uint64 }

func executableID(path string) fileID {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// watchProcess returns a channel closed when process pid ends. It waits on
// a pidfd, which names that process and no later one with its number.
func watchProcess(pid int) <-chan struct{} {
	gone := make(chan struct{})
	fd, err := pidfdOpen(pid)
	if err != nil {
		if errors.Is(err, syscall.ESRCH) {
			close(gone)
			return gone
		}
		// No pidfd (an old kernel): poll whether the process still exists.
		go func() {
			for syscall.Kill(pid, 0) == nil {
				time.Sleep(time.Second)
			}
			close(gone)
		}()
		return gone
	}
	go func() {
		waitReadable(fd)
		close(gone)
	}()
	return gone
}

// workerRecord is what `prchip status` learns about a shell's worker.
type workerRecord struct {
	PID       int       `json:"pid"`
	ShellPID  int       `json:"shell_pid"`
	Binary    string    `json:"binary"`
	StartedAt time.Time `json:"started_at"`
}

// workersDir holds one record per live worker, named by its shell's pid;
// a record's modification time is the worker's last answer.
func workersDir(p Paths) string { return filepath.Join(filepath.Dir(p.State), "workers") }

func writeWorkerRecord(p Paths, shellPID int, binary string) string {
	dir := workersDir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	name := filepath.Join(dir, strconv.Itoa(shellPID))
	b, _ := json.Marshal(workerRecord{PID: os.Getpid(), ShellPID: shellPID, Binary: binary, StartedAt: time.Now().UTC()})
	tmp := name + ".tmp" + strconv.Itoa(os.Getpid())
	if os.WriteFile(tmp, b, 0o600) != nil || os.Rename(tmp, name) != nil {
		os.Remove(tmp)
		return ""
	}
	return name
}

// removeRecord deletes the record if it is still this worker's (a newer
// worker of the same shell may have replaced it).
func (w *worker) removeRecord() {
	var rec workerRecord
	if b, err := os.ReadFile(w.record); err == nil && json.Unmarshal(b, &rec) == nil && rec.PID == os.Getpid() {
		os.Remove(w.record)
	}
}

// absExecutable is the path the hook ran prchip by, made absolute.
func absExecutable(arg0 string) string {
	if filepath.Base(arg0) == arg0 {
		if p, err := exec.LookPath(arg0); err == nil {
			arg0 = p
		}
	}
	if a, err := filepath.Abs(arg0); err == nil {
		return a
	}
	return arg0
}

// findWorker finds the worker of the shell prchip runs in: the nearest
// ancestor process with a live worker's record (a command substitution or
// a script in between still finds its shell's).
func findWorker(p Paths, now time.Time) *chip.StatusWorker {
	dir := workersDir(p)
	pid := os.Getppid()
	for range 64 {
		if pid <= 1 {
			return nil
		}
		name := filepath.Join(dir, strconv.Itoa(pid))
		if b, err := os.ReadFile(name); err == nil {
			var rec workerRecord
			if json.Unmarshal(b, &rec) == nil && rec.ShellPID == pid && isWorker(rec.PID) {
				idle := int64(0)
				if st, err := os.Stat(name); err == nil && now.After(st.ModTime()) {
					idle = int64(now.Sub(st.ModTime()) / time.Second)
				}
				return &chip.StatusWorker{PID: rec.PID, Binary: sanitize.Text(rec.Binary, 4096), IdleS: idle}
			}
		}
		pid = parentOf(pid)
	}
	return nil
}
