package proc

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes orphaned descendants (a gh helper that called
// setsid, say) reparent to this process instead of init, so endTree can
// find and end them. The background refresh calls it once at start.
func BecomeSubreaper() {
	if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil {
		subreaper.Store(true)
	}
}

// subreaper is set once this process adopts orphans; only then are all of
// its children but the running leader known to be leftovers of the run.
var subreaper atomic.Bool

func adoptsOrphans() bool { return subreaper.Load() }

// waitExit returns once the leader has exited, leaving it unreaped
// (WNOWAIT): until Run reaps it, its pid and its group's id name it. (Go
// handles SIGCHLD itself, so no child is reaped behind Run's back.)
func waitExit(pid int) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}

// endBudget bounds endTree: a process stuck in the kernel can neither stop
// nor die, and the run must still end.
const endBudget = time.Second

// endTree ends every process of the run whose leader is pid (not reaped
// yet): its process group, every descendant at any depth and in any
// session, and, in a subreaper, every orphan reparented here. Each process
// is first stopped, so none forks behind the walk; when a look at /proc
// finds no new one and all are stopped, all are killed. Descendants are
// signalled only through pidfds whose process is proved to be one (add),
// never by a number that may have been reused. exited: the leader has
// exited (it then has no children of its own).
func endTree(pid int, exited bool) {
	// The leader is unreaped, so the group's id is still its own.
	syscall.Kill(-pid, syscall.SIGSTOP)
	defer syscall.Kill(-pid, syscall.SIGKILL)
	if exited && !subreaper.Load() {
		return // the leader has no children, and orphans went to init
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return // no pidfds (Linux < 5.3): only the group is within reach
	}
	t := &tree{self: os.Getpid(), leader: pid, orphans: subreaper.Load(), fds: map[int]int{pid: fd}}
	defer t.close()
	deadline := time.Now().Add(endBudget)
	// A pass that adds no process ends it; more passes are for what the
	// budget cut short, reparented here once its parent died.
	for range 4 {
		added := t.freeze(deadline)
		syscall.Kill(-pid, syscall.SIGKILL)
		t.signalAll(unix.SIGKILL)
		t.waitGone(deadline.Add(endBudget))
		if added == 0 {
			return
		}
	}
}

// tree is the processes of one run, each held by a pidfd.
type tree struct {
	self, leader int
	orphans      bool        // this process is a subreaper: its children but the leader are the run's
	fds          map[int]int // pid -> pidfd of every member
}

// scan is every process /proc lists. Its numbers are only candidates: any
// of them may name another process by the time it is signalled.
func scan() map[int]Stat {
	ents, _ := os.ReadDir("/proc")
	out := make(map[int]Stat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := ReadStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// unreaped reports whether the pidfd's process is not reaped yet (a zombie
// still counts): while it is not, its number names it and no other.
func unreaped(fd int) bool { return unix.PidfdSendSignal(fd, 0, nil, 0) == nil }

// take adds, from one scan, every new child of a member (and every orphan
// in a subreaper), each stopped at once, and reaps the orphans that are
// zombies. It returns how many it added.
func (t *tree) take(snap map[int]Stat) int {
	byParent := make(map[int][]int)
	for pid, st := range snap {
		byParent[st.PPID] = append(byParent[st.PPID], pid)
	}
	added := 0
	if t.orphans {
		for _, pid := range byParent[t.self] {
			_, member := t.fds[pid]
			switch {
			case pid == t.leader: // Run reaps it
			case snap[pid].State == 'Z':
				// A child of this process is reaped only here (Runs do not
				// overlap in a subreaper), so its number is still its own.
				var ws unix.WaitStatus
				unix.Wait4(pid, &ws, unix.WNOHANG, nil)
			case !member && t.add(pid, t.self):
				added++
			}
		}
	}
	queue := slices.Collect(maps.Keys(t.fds))
	for len(queue) > 0 {
		parent := queue[0]
		queue = queue[1:]
		for _, pid := range byParent[parent] {
			if _, member := t.fds[pid]; !member && t.add(pid, parent) {
				queue = append(queue, pid)
				added++
			}
		}
	}
	return added
}

// add adopts pid, if the process it opens is a child of parent, a member
// (or this process, for an orphan), and stops it. The check reads the
// parent from /proc after the pidfd is open and then finds both processes
// unreaped, so what was read was theirs: a number that came to name
// another process since the scan is refused (or, if it names a new child
// of a member, rightly taken).
func (t *tree) add(pid, parent int) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false
	}
	st, ok := ReadStat(pid)
	pfd, member := t.fds[parent]
	proved := ok && st.PPID == parent && unreaped(fd) && (member && unreaped(pfd) || parent == t.self && t.orphans)
	if !proved || unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0) != nil {
		unix.Close(fd)
		return false
	}
	t.fds[pid] = fd
	return true
}

// freeze adds and stops processes until a scan finds no new one and every
// member has stopped (a stopped process cannot fork, and a process that
// has stopped has finished any fork it was in), or the deadline passes.
// It returns how many it added.
func (t *tree) freeze(deadline time.Time) int {
	added, pause := 0, time.Millisecond
	for {
		snap := scan()
		n := t.take(snap)
		added += n
		if n == 0 && t.settled(snap) || time.Now().After(deadline) {
			return added
		}
		if n == 0 { // stops are delivered asynchronously
			time.Sleep(pause)
			pause = min(2*pause, 20*time.Millisecond)
		}
	}
}

// settled reports whether every member the scan saw has stopped or died.
// A member that shows as running is checked to be alive after the scan,
// so the running process the scan saw was the member.
func (t *tree) settled(snap map[int]Stat) bool {
	for pid, fd := range t.fds {
		st, ok := snap[pid]
		if ok && st.State != 'T' && st.State != 't' && st.State != 'Z' && st.State != 'X' && unreaped(fd) {
			return false
		}
	}
	return true
}

func (t *tree) signalAll(sig unix.Signal) {
	for _, fd := range t.fds {
		unix.PidfdSendSignal(fd, sig, nil, 0)
	}
}

// waitGone waits until every member has exited (a pidfd turns readable
// then), or the deadline passes: once all have, every orphan among them
// has been reparented, and the next scan reaps it.
func (t *tree) waitGone(deadline time.Time) {
	for _, fd := range t.fds {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for p[0].Revents == 0 {
			left := time.Until(deadline)
			if left <= 0 {
				return
			}
			if _, err := unix.Poll(p, int(left/time.Millisecond)+1); err != nil && !errors.Is(err, unix.EINTR) {
				return
			}
		}
	}
}

func (t *tree) close() {
	for _, fd := range t.fds {
		unix.Close(fd)
	}
}
