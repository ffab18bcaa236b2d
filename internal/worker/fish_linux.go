//go:build linux

package worker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/shellhooks"
)

// FishSupported: the fish worker runs here (it needs inotify and pidfds).
const FishSupported = true

// runFish is the fish worker. fish cannot wait on a pipe with a
// bound (its read has no timeout), so its hook never waits at all: it
// reads the last answer from a file and writes its request to another,
// with builtins only, and this worker answers through the answer file and
// a signal that makes fish repaint (shellhooks/protocol.go, "fish").
func runFish(o Options) error {
	ch, err := openFishChannel(o.Files, o.ShellPID)
	if err != nil {
		// The shell is gone (it ended before its worker started): no one
		// else will remove the directory. One that is not the user's
		// alone is left as it is.
		if errors.Is(err, errShellGone) {
			removeFishFiles(o.Files)
		}
		return nil
	}
	batchScheduling()
	return serveShell(o, ch, ch.next, ch.close)
}

// batchScheduling puts the worker's threads (and so the ones they start)
// under SCHED_BATCH: fish never waits for an answer, and a worker woken by
// the request must not preempt the shell that is still drawing its
// prompt (on a busy machine that put the answer's time into the prompt's).
// The answer comes a moment later, through the signal, as it would anyway.
func batchScheduling() {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			unix.SchedSetAttr(tid, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_BATCH}, 0)
		}
	}
}

// fishChannel is fish's side of the worker: the hook's private directory,
// watched with inotify, and the shell, held by a pidfd.
type fishChannel struct {
	dir    string
	dirFD  int
	inFD   int // inotify
	pid    int
	pidFD  int
	exe    rawfile.ID // the shell's executable when the worker started
	buf    []byte
	lastID string // the latest request's id
	// shown is the chip the shell shows: what the request said, or what
	// the last signal told it. A signal goes only when an answer differs.
	shown   string
	pending bool // the request file may hold a request not answered yet
	once    sync.Once
}

var (
	errShellGone    = errors.New("the shell is gone")                        // before its worker could hold it
	errShellChanged = errors.New("the shell's process runs another program") // it ran exec: no one to answer
)

func openFishChannel(dir string, pid int) (*fishChannel, error) {
	// Only the user may write a request (it chooses the programs a refresh
	// runs, and carries tokens): the directory is mktemp's, 0700.
	dfd, err := openPrivateDir(dir)
	if err != nil {
		return nil, fmt.Errorf("fish channel: %w", err)
	}
	c := &fishChannel{dir: dir, dirFD: dfd, inFD: -1, pidFD: -1, pid: pid, buf: make([]byte, 4096), pending: true}
	fail := func(err error) (*fishChannel, error) {
		c.release()
		return nil, fmt.Errorf("fish channel: %w", err)
	}
	if c.pidFD, err = unix.PidfdOpen(pid, 0); err != nil && !errors.Is(err, unix.ESRCH) {
		return fail(err)
	}
	// Read after the pidfd is open and found alive after: it is the
	// pidfd's process's.
	if c.exe = proc.Exe(pid); err != nil || c.exe == (rawfile.ID{}) || !c.alive() {
		return fail(fmt.Errorf("shell %d: %w", pid, errShellGone))
	}
	if c.inFD, err = unix.InotifyInit1(unix.IN_CLOEXEC); err != nil {
		return fail(err)
	}
	// Through the descriptor, so the watch is on the directory checked.
	if _, err := unix.InotifyAddWatch(c.inFD, "/proc/self/fd/"+strconv.Itoa(dfd),
		unix.IN_CLOSE_WRITE|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_ONLYDIR); err != nil {
		return fail(err)
	}
	return c, nil
}

// alive reports whether the shell's process has not ended.
func (c *fishChannel) alive() bool { return unix.PidfdSendSignal(c.pidFD, 0, nil, 0) == nil }

func (c *fishChannel) release() {
	for _, fd := range []int{c.inFD, c.pidFD, c.dirFD} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}

// execCheck is how often an idle worker looks whether its shell has run
// exec (a pidfd tells only when the process ends).
const execCheck = 10 * 1000 // ms

// next waits for the shell's next request: an inotify event for the
// request file, once the shell has closed it. A request read half written
// (the shell writing the next one) fails to parse and waits for that
// next close.
func (c *fishChannel) next() (shellhooks.Request, error) {
	fds := []unix.PollFd{{Fd: int32(c.inFD), Events: unix.POLLIN}}
	for {
		if c.pending {
			c.pending = false
			if r, ok := c.readRequest(); ok {
				return r, nil
			}
		}
		n, err := unix.Poll(fds, execCheck)
		if err != nil && err != unix.EINTR {
			return shellhooks.Request{}, fmt.Errorf("fish channel: %w", err)
		}
		if n == 0 && proc.Exe(c.pid) != c.exe {
			return shellhooks.Request{}, errShellChanged
		}
		if n <= 0 { // timed out, or interrupted
			continue
		}
		m, err := unix.Read(c.inFD, c.buf)
		if err != nil || m <= 0 {
			continue
		}
		gone := false
		inotifyEvents(c.buf[:m], func(ev *unix.InotifyEvent, name []byte) {
			gone = gone || ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED) != 0
			c.pending = c.pending || string(name) == shellhooks.FishRequest
		})
		if gone {
			return shellhooks.Request{}, errors.New("fish channel: the directory went") // the hook gave up on this worker
		}
	}
}

// readRequest reads the request file; false when it holds no new,
// complete request.
func (c *fishChannel) readRequest() (r shellhooks.Request, ok bool) {
	fd, err := unix.Openat(c.dirFD, shellhooks.FishRequest, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return r, false
	}
	f := os.NewFile(uintptr(fd), shellhooks.FishRequest)
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Uid != uint32(os.Geteuid()) {
		return r, false
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err == nil {
		r, err = shellhooks.ReadRequest(bufio.NewReaderSize(bytes.NewReader(b), 64<<10))
	}
	if err != nil || r.ID == c.lastID {
		return shellhooks.Request{}, false
	}
	c.lastID = r.ID
	c.shown = shellhooks.FishShown(b)
	return r, true
}

// Write takes the worker's answer ("id chip\n") or push ("push chip\n"),
// puts it in the answer file for the latest request, and signals the
// shell when the chip it shows should change: SIGURG, which fish's hook
// handles by repainting. Only the fish that started the worker is
// signalled: the pidfd names that process and no later one with its
// number, and the executable it runs must be the one it ran then (`exec
// bash` keeps the pid). The signal goes only while the process catches
// it; SIGURG, ignored by default, cannot end a program that took over
// between the check and the signal.
func (c *fishChannel) Write(b []byte) (int, error) {
	id, chip, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), " ")
	if id == "push" {
		id = c.lastID
	}
	if id == "" {
		return len(b), nil
	}
	if err := c.writeAnswer(id + " " + chip + "\n"); err != nil {
		return 0, err
	}
	if chip != c.shown {
		c.shown = chip
		if proc.Exe(c.pid) != c.exe {
			return 0, errShellChanged
		}
		if proc.Catches(c.pid, unix.SIGURG) && c.alive() {
			unix.PidfdSendSignal(c.pidFD, unix.SIGURG, nil, 0)
		}
	}
	return len(b), nil
}

// writeAnswer replaces the answer file whole (a rename), so the shell
// reads the old answer or the new one, never part of one.
func (c *fishChannel) writeAnswer(line string) error {
	if err := replaceAt(c.dirFD, shellhooks.FishAnswer, []byte(line)); err != nil {
		return fmt.Errorf("fish answer: %w", err)
	}
	return nil
}

// close ends the channel as the worker ends: while its fish lives, the
// answer file says "end" (the next prompt starts a new worker without
// waiting for an answer); after the shell ended or ran exec, the
// directory goes.
func (c *fishChannel) close() {
	c.once.Do(func() {
		if c.alive() && proc.Exe(c.pid) == c.exe {
			c.writeAnswer(shellhooks.FishEnd + "\n")
			unix.Unlinkat(c.dirFD, shellhooks.FishRequest, 0)
		} else {
			removeFishFiles(c.dir)
		}
		c.release()
	})
}
