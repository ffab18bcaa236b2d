package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/privdir"
	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/shellhooks"
)

// Options are a worker's: what the hook started it with (cmd checks
// them), its own environment, and the render request for an environment.
type Options struct {
	Shell    sanitize.Shell // the hook's: zsh, bash or fish
	Plain    bool           // answer plain text, for starship's env_var module
	ShellPID int
	FIFOs    string // the zsh or bash hook's FIFO directory
	Files    string // fish's channel directory
	// Env is the worker's own, which it never changes; each request's
	// variables are laid over it (env.Request).
	Env env.Env
	Now func() time.Time
	// Request is the render request for an environment, without the
	// directory: its files (cmd's DefaultPaths), its tokens made redacted.
	Request func(e env.Env) render.Request
}

// Run is `prchip worker`: one per interactive zsh, bash or fish, started
// by its hook, answering each prompt over the FIFOs the hook made (fish:
// over files, fish_linux.go; shellhooks/protocol.go). It ends when its
// shell ends, when the shell closes the request FIFO, after the configured
// idle time, and after answering once its executable has been replaced,
// moved or deleted: the hook's next prompt starts the binary its init
// recorded again, or, when that is gone, the prchip on PATH.
func Run(o Options) error {
	if o.Shell == sanitize.Fish {
		return runFish(o) // files, not FIFOs (fish_linux.go)
	}
	// Opened without blocking (a shell that is already gone must not leave
	// its worker waiting in open for good), then used blocking: the worker
	// waits in read(2), not in the poller. zsh keeps its ends open
	// (close-on-exec), so the FIFOs go at once, opened or not (their
	// directory stays for the memo, until the worker ends). bash opens
	// them by name for each prompt only (it cannot keep a descriptor from
	// the commands it starts), so they stay until the worker ends, and the
	// worker holds both read-write: the shell closing its ends between
	// prompts is no end of file, and an answer to a shell that gave up
	// waiting is no broken pipe.
	keep := o.Shell == sanitize.Bash
	rmFIFOs := func() { removeFIFOs(o.FIFOs, keep, true) }
	inMode, outMode := syscall.O_RDONLY, syscall.O_WRONLY
	if keep {
		inMode, outMode = syscall.O_RDWR, syscall.O_RDWR
	}
	in, err := openFIFO(filepath.Join(o.FIFOs, "req"), inMode)
	var out *os.File
	if err == nil {
		out, err = openFIFO(filepath.Join(o.FIFOs, "resp"), outMode)
	}
	if err == nil {
		err = privateChannel(o.FIFOs, in, out)
	}
	if err != nil {
		rmFIFOs()
		return nil // the shell gave up on this worker, or the channel is not the user's alone
	}
	if !keep {
		removeFIFOs(o.FIFOs, false, false)
	}
	bin := bufio.NewReaderSize(in, 64<<10)
	return serveShell(o, out, func() (shellhooks.Request, error) { return shellhooks.ReadRequest(bin) }, rmFIFOs)
}

// removeFIFOs removes the FIFOs, and with all the memo and the
// directory. bash opens them by name at every prompt with `<>`, which
// creates a missing file: its directory is first renamed away (byName),
// so that a prompt never finds it without its FIFOs and writes its
// request, token and all, into a file of its own making.
func removeFIFOs(dir string, byName, all bool) {
	if gone := dir + ".gone"; byName && os.Rename(dir, gone) == nil {
		dir = gone
	}
	os.Remove(filepath.Join(dir, "req"))
	os.Remove(filepath.Join(dir, "resp"))
	if all {
		os.Remove(filepath.Join(dir, shellhooks.MemoFile))
		os.Remove(filepath.Join(dir, shellhooks.MemoFile+".tmp"))
		os.Remove(dir)
	}
}

// serveShell runs the worker for o's shell once its channel is set up:
// answers go to out, requests come from read; cleanup (nil: none) removes
// what the channel leaves on disk, whichever way the worker ends.
func serveShell(o Options, out io.Writer, read func() (shellhooks.Request, error), cleanup func()) error {
	// Out of the shell's session (it fails, harmlessly, for the leader of
	// a zsh background job): Ctrl-C and job control signals are for the
	// user's commands. And out of the shell's directory, which would stay
	// busy (a umount there fails) for as long as the worker lives.
	syscall.Setsid()
	exe := AbsExecutable(os.Args[0], o.Env)
	os.Chdir("/")
	w := New(o, out, exe)
	w.cleanup = cleanup
	// The running binary's identity; a different file at exePath later
	// means an upgrade replaced it, and no file that it was moved or
	// deleted (the worker would go on running the old inode).
	if id := rawfile.Identity("/proc/self/exe"); id != (rawfile.ID{}) {
		w.exe = id
	}
	if st, _ := proc.ReadStat(os.Getpid()); o.Shell != sanitize.Fish && st.Start != "" && w.cache.keepMemo(o.FIFOs, func(until time.Time, text string) []byte {
		return shellhooks.Memo(o.Shell == sanitize.Bash, until, st.Start, text)
	}) {
		go w.watchMemo()
	}
	w.record = writeRecord(o.Request(o.Env).State, o.ShellPID, exe)
	defer w.leave()
	if o.Shell != sanitize.Fish { // fish's files carry no hello
		pid := os.Getpid()
		if _, err := out.Write(frame(o.Shell, shellhooks.Hello(pid), "0", strconv.Itoa(pid))); err != nil {
			return nil
		}
	}
	return w.Serve(read)
}

// frame is a message to shell: bash reads BashFrame(id, body), the others
// line.
func frame(shell sanitize.Shell, line []byte, id, body string) []byte {
	if shell == sanitize.Bash {
		return shellhooks.BashFrame(id, body)
	}
	return line
}

// New is a worker answering on out, running the binary at exe (its
// identity now is the one an upgrade changes); Serve starts it.
func New(o Options, out io.Writer, exe string) *Worker {
	escape := o.Shell
	if o.Plain {
		escape = sanitize.Plain
	}
	base := o.Request(o.Env)
	return &Worker{opts: o, escape: escape, out: out, exePath: exe,
		exe: rawfile.Identity(exe), done: make(chan struct{}, 1), idle: config.Load(base.Config, base.Env.Files()).WorkerIdle,
		cache: newAnswerCache(), Exit: func() { os.Exit(0) }}
}

// Worker is one shell's worker.
type Worker struct {
	mu   sync.Mutex
	opts Options // Shell, the hook's: zsh and fish are told of redraws (push)
	// escape is the shell's, or plain (--plain) for starship's $PRCHIP.
	escape  sanitize.Shell
	out     io.Writer // the FIFO, or fish's answer file (fishChannel)
	exePath string
	exe     rawfile.ID
	idle    time.Duration
	record  string    // the status record's path, "" when none was written
	touched time.Time // when the record's time was last set

	last     shellhooks.Request // the latest request: where the shell is
	lastChip string
	done     chan struct{} // a refresh the last answer depends on ended
	watching atomic.Bool   // a goroutine waits for another process's refresh
	cache    *answerCache
	renders  int    // answers rendered rather than taken from memory
	cleanup  func() // serveShell's
	Exit     func() // ends the process (os.Exit(0)); tests give their own
}

// Serve answers requests until one of the ends in Run's comment.
// Requests are read with blocking reads on this goroutine (no poller and
// no goroutine hop between a request and its answer); the rest waits in
// another goroutine. mu keeps answers and pushes apart.
func (w *Worker) Serve(read func() (shellhooks.Request, error)) error {
	idle := time.NewTimer(w.idle)
	go func() {
		gone := watchProcess(w.opts.ShellPID)
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
		for {
			select {
			case <-w.done:
				w.mu.Lock()
				ok := w.push()
				w.mu.Unlock()
				if ok {
					continue
				}
			case <-gone:
			case <-idle.C:
			case <-sigs:
			}
			w.exit()
		}
	}()
	for {
		r, err := read()
		if err != nil {
			return nil // the shell closed the FIFO, or wrote nonsense
		}
		// Looked at before answering, so that a binary replaced between
		// two prompts is seen at the second, whatever the timing.
		replaced := w.exe != rawfile.Identity(w.exePath)
		w.mu.Lock()
		ok := w.answer(r)
		w.mu.Unlock()
		if !ok || replaced {
			return nil // replaced: the next prompt starts the new binary
		}
		idle.Reset(w.idle)
	}
}

// exit ends the worker from any goroutine.
func (w *Worker) exit() {
	w.mu.Lock() // no answer is cut in half
	w.leave()
	w.Exit()
}

// leave removes what the worker leaves on disk while it runs.
func (w *Worker) leave() {
	w.removeRecord()
	if w.cleanup != nil {
		w.cleanup()
	}
}

// errSharedChannel is a FIFO directory or FIFO another user could reach.
var errSharedChannel = errors.New("worker FIFOs not private to the user")

// privateChannel makes sure that only the worker's own user can write a
// request: what a request carries (PATH, GH_CONFIG_DIR, HOME, the git
// configuration variables) chooses the programs a refresh runs. A
// directory or FIFO someone else's, or open to the group or others, is
// refused (the hook makes them 0700 and 0600); the FIFOs are checked on
// the opened descriptors, so a name swapped after the check changes nothing.
func privateChannel(dir string, fifos ...*os.File) error {
	var st syscall.Stat_t
	err, name, kind := syscall.Lstat(dir, &st), dir, uint32(syscall.S_IFDIR)
	for i := 0; err == nil; i++ {
		if mode := uint32(st.Mode); mode&syscall.S_IFMT != kind || st.Uid != uint32(os.Geteuid()) || mode&0o077 != 0 {
			return fmt.Errorf("%w: %s", errSharedChannel, name)
		}
		if i == len(fifos) {
			return nil
		}
		err, name, kind = syscall.Fstat(int(fifos[i].Fd()), &st), fifos[i].Name(), syscall.S_IFIFO
	}
	return fmt.Errorf("%w: %w", errSharedChannel, err)
}

// openFIFO opens a FIFO without blocking (write-only fails with ENXIO
// when no reader is left), and leaves it blocking for the reads and writes.
func openFIFO(path string, mode int) (*os.File, error) {
	fd, err := syscall.Open(path, mode|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	// Blocking, and so never in Go's poller: a request then wakes the
	// worker in read(2), without an epoll wait and a goroutine hand-off
	// (through os.OpenFile the zsh prompt measured 240-319 -> 330-341 us).
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// request is the render request for r: its directory, and its variables
// laid over the worker's own environment (env.Request), which stays as it is.
func (w *Worker) request(r shellhooks.Request, noRefresh bool) render.Request {
	q := w.opts.Request(w.opts.Env.Request(r.Env))
	q.Dir, q.Shell, q.NoRefresh, q.Now = r.Dir, w.escape, noRefresh, w.opts.Now
	return q
}

// answer handles one request; false when the shell can no longer be told.
func (w *Worker) answer(r shellhooks.Request) (ok bool) {
	var dirID rawfile.ID
	r.Dir, dirID = shellDir(w.opts.ShellPID, r.Dir)
	w.last = r
	// The directory's identity is in the key: a path that has come to name
	// another directory (a link retargeted, a directory replaced) sends no
	// event to the watches on the old one.
	key := requestKey(w.escape, r, dirID)
	text, hit := w.cache.lookup(key, time.Now())
	var rr render.Chip
	var seen tracker
	if hit = hit && !r.Invalidate && !r.Probe; !hit {
		w.renders++
		w.cache.forget()
		func() {
			defer func() { recover() }() // a bug of ours must not end the shell's worker silently mid-answer
			q := w.request(r, false)
			if r.Invalidate || r.Probe { // `prchip invalidate [--probe]`, without its output
				eng := render.Engine(q)
				if r.Probe {
					eng.InvalidateProbe(eng.Gather(), r.Once)
				} else {
					eng.Invalidate(eng.Gather(), r.Once)
				}
			}
			q.Env, q.Until = q.Env.Tracked(seen.record), w.cache != nil
			rr = render.Render(q)
			text = rr.Text
			if rr.Config != nil {
				w.idle = rr.Config.WorkerIdle
			}
			if w.opts.Shell != sanitize.Bash {
				w.follow(rr)
			} else if rr.Child != nil {
				go rr.Child.Wait() // reap it; bash cannot be told when it ends
			}
		}()
	}
	w.lastChip = text
	// The record's time is the last answer, to the second.
	if now := time.Now(); w.record != "" && now.Sub(w.touched) >= time.Second {
		os.Chtimes(w.record, now, now)
		w.touched = now
	}
	_, err := w.out.Write(frame(w.opts.Shell, shellhooks.Answer(r.ID, text), r.ID, text))
	if err == nil && !hit && !rr.InFlight && rr.Until.After(time.Now()) {
		w.fill(r, key, rr, seen.paths)
	}
	return err == nil
}

// fill caches the answer just given, after the shell has it: it watches
// the directories that render looked in (seen), then renders once more, and
// caches only when that gives the same answer and looked nowhere else
// (a change between the first render and the watches shows as a
// difference).
func (w *Worker) fill(r shellhooks.Request, key string, first render.Chip, seen []touched) {
	// The binary too: an upgrade ends the answer (and bash's memo), so
	// the next prompt asks, and the worker ends after that answer.
	if filepath.IsAbs(w.exePath) {
		seen = append(seen, touched{w.exePath, false})
	}
	// A binary replaced before its watch stood is seen here, not missed.
	if w.cache == nil || !w.cache.watch(seen) || w.exe != rawfile.Identity(w.exePath) {
		return
	}
	defer func() { recover() }()
	var looked tracker
	q := w.request(r, true)
	q.Env, q.Until = q.Env.Tracked(looked.record), true
	again := render.Render(q)
	if again.Text != first.Text || !w.cache.covers(looked.paths) {
		return
	}
	if again.Until.Before(first.Until) {
		first.Until = again.Until
	}
	w.cache.set(key, first.Text, first.Until)
}

// shellDir is the directory to answer for, and its identity: the shell's
// $PWD, or, when that is gone (the directory was moved away), where the
// shell's working directory is now, as os.Getwd finds it for `prchip
// prompt`. (A $PWD that names a new directory in the old one's place is
// taken as it is: the one-shot render would follow the old one.)
func shellDir(pid int, pwd string) (string, rawfile.ID) {
	if id := rawfile.Identity(pwd); id != (rawfile.ID{}) {
		return pwd, id
	}
	cwd := "/proc/" + strconv.Itoa(pid) + "/cwd"
	if p, err := os.Readlink(cwd); err == nil && filepath.IsAbs(p) {
		return p, rawfile.Identity(cwd)
	}
	return pwd, rawfile.ID{}
}

// requestKey is what an answer depends on besides files and time.
func requestKey(shell sanitize.Shell, r shellhooks.Request, dir rawfile.ID) string {
	var b strings.Builder
	b.WriteString(string(shell))
	b.WriteByte(0)
	b.WriteString(r.Dir)
	// strconv, not fmt: the key is built at every prompt (all of it took
	// 9.5 us of a cold answer, measured with fmt).
	var num [20]byte
	b.WriteByte(0)
	b.Write(strconv.AppendUint(num[:0], dir.Dev, 10))
	b.WriteByte(':')
	b.Write(strconv.AppendUint(num[:0], dir.Ino, 10))
	for _, n := range env.Names {
		b.WriteByte(0)
		if v, ok := r.Env[n]; ok {
			b.WriteString("=" + v)
		}
	}
	for _, n := range r.GitConfigPairs() {
		b.WriteString("\x00" + n + "=" + r.Env[n])
	}
	return b.String()
}

// touched is a path a render looked at (entries: a directory listing).
type touched struct {
	path    string
	entries bool
}

// tracker collects the paths one render looks at: its request carries it
// (env.Env.Tracked), so it hears of nothing read outside that render.
type tracker struct {
	mu    sync.Mutex
	paths []touched
}

func (t *tracker) record(path string, entries bool) {
	t.mu.Lock()
	t.paths = append(t.paths, touched{path, entries})
	t.mu.Unlock()
}

// follow arranges for w.done to fire when the refresh the answer depends
// on ends: the one this render started, or another process's.
func (w *Worker) follow(rr render.Chip) {
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
		go func() {
			rr.Store.WaitUnlocked(rr.Key, render.Budget(rr.Config)+2*time.Second)
			w.watching.Store(false)
			notify()
		}()
	}
}

// push renders again where the shell was last and tells zsh or fish when
// the chip changed. It never starts a refresh: a refresh that cannot record its
// result must not become a loop while the prompt sits idle.
func (w *Worker) push() bool {
	text := ""
	func() {
		defer func() { recover() }()
		text = render.Render(w.request(w.last, true)).Text // untracked: a push is no answer the memory keeps
	}()
	if text == w.lastChip {
		return true
	}
	w.lastChip = text
	_, err := w.out.Write(shellhooks.Push(text))
	return err == nil
}

// watchProcess returns a channel closed when process pid ends. It waits on
// a pidfd, which names that process and no later one with its number.
func watchProcess(pid int) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		if fd, err := pidfdOpen(pid); err == nil {
			waitReadable(fd)
		} else if !errors.Is(err, syscall.ESRCH) {
			// No pidfd (an old kernel): poll whether the process still exists.
			for syscall.Kill(pid, 0) == nil {
				time.Sleep(time.Second)
			}
		}
	}()
	return gone
}

// EndStuck ends the worker the zsh or bash hook names as "PID:DIR":
// it said hello as PID, was started with --fifos DIR, and then did not
// answer in time. The hook leaves this to prchip because a shell can only
// signal a number, which may name another process by then; endWorker
// signals only a process it has proved to be that worker. Anything else
// is ignored: the prompt never fails.
func EndStuck(arg string) {
	p, dir, ok := strings.Cut(arg, ":")
	if pid, err := strconv.Atoi(p); ok && err == nil && pid > 1 && dir != "" {
		endWorker(pid, dir)
		removeFishFiles(dir)
	}
}

// workerStartedWith reports whether cmdline (NUL-separated, as
// /proc/PID/cmdline has it) is a `prchip worker` given --fifos dir. The
// hook's mktemp directory is new for each worker it starts, so no other
// process has that command line.
func workerStartedWith(cmdline []byte, dir string) bool {
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	if len(args) < 2 || args[1] != "worker" {
		return false
	}
	for i := 2; i+1 < len(args); i++ {
		if (args[i] == "--fifos" || args[i] == "--files") && args[i+1] == dir {
			return true
		}
	}
	return false
}

// record is what `prchip status` learns about a shell's worker.
type record struct {
	PID      int    `json:"pid"`
	ShellPID int    `json:"shell_pid"`
	Binary   string `json:"binary"`
}

// workersName, beside the state file, holds one record per live worker,
// named by its shell's pid; a record's modification time is the worker's
// last answer.
const workersName = "workers"

// writeRecord writes the record through the workers directory's
// descriptor, in a private state directory only (cache.Store.Sub), and
// returns its path ("" when it was not written).
func writeRecord(state string, shellPID int, binary string) string {
	dir, err := (&cache.Store{Path: state}).Sub(workersName)
	if err != nil {
		return ""
	}
	defer dir.Close()
	pruneRecords(dir)
	name := strconv.Itoa(shellPID)
	b, _ := json.Marshal(record{PID: os.Getpid(), ShellPID: shellPID, Binary: binary})
	f, tmp, err := dir.CreateTemp(name + ".tmp")
	if err != nil {
		return ""
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err != nil || dir.Rename(tmp, name) != nil {
		dir.Remove(tmp)
		return ""
	}
	return filepath.Join(dir.Path(), name)
}

// pruneRecords deletes the records of workers that are gone without
// removing theirs (killed with SIGKILL).
func pruneRecords(dir *privdir.Dir) {
	names, _ := dir.Names()
	for _, name := range names {
		if rec, ok := decodeRecord(readRecord(dir, name)); !ok || !isWorker(rec.PID) {
			if st, err := dir.Lstat(name); err == nil && time.Since(time.Unix(0, st.MtimeNs)) > time.Minute {
				dir.Remove(name) // unreadable or dead, and not just being written
			}
		}
	}
}

// readRecord reads a small record in dir, never through a link or a FIFO.
func readRecord(dir *privdir.Dir, name string) ([]byte, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<10))
}

func decodeRecord(b []byte, err error) (rec record, ok bool) {
	ok = err == nil && json.Unmarshal(b, &rec) == nil
	return rec, ok
}

// removeRecord deletes the record if it is still this worker's (a newer
// worker of the same shell may have replaced it).
func (w *Worker) removeRecord() {
	if rec, ok := decodeRecord(os.ReadFile(w.record)); ok && rec.PID == os.Getpid() {
		os.Remove(w.record)
	}
}

// AbsExecutable is the path the hook ran prchip by, made absolute: a bare
// name as found on e's PATH.
func AbsExecutable(arg0 string, e env.Env) string {
	if filepath.Base(arg0) == arg0 {
		if p, _ := ghauth.LookPath(arg0, e); p != "" {
			arg0 = p
		}
	}
	if a, err := filepath.Abs(arg0); err == nil {
		return a
	}
	return arg0
}

// Find finds the worker of the shell prchip runs in: the nearest
// ancestor process with a live worker's record beside the state file (a
// command substitution or a script in between still finds its shell's).
func Find(state string, now time.Time) *chip.StatusWorker {
	dir := filepath.Join(filepath.Dir(state), workersName)
	pid := os.Getppid()
	for range 64 {
		if pid <= 1 {
			return nil
		}
		name := filepath.Join(dir, strconv.Itoa(pid))
		if rec, ok := decodeRecord(os.ReadFile(name)); ok && rec.ShellPID == pid && isWorker(rec.PID) {
			idle := int64(0)
			if st, err := os.Stat(name); err == nil && now.After(st.ModTime()) {
				idle = int64(now.Sub(st.ModTime()) / time.Second)
			}
			return &chip.StatusWorker{PID: rec.PID, Binary: sanitize.Text(rec.Binary, 4096), IdleS: idle}
		}
		st, _ := proc.ReadStat(pid)
		pid = st.PPID
	}
	return nil
}
