package proc

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// BecomeSubreaper makes orphaned descendants (a gh helper that called
// setsid, say) reparent to this process instead of init, so killOrphans can
// find and end them. The background refresh calls it once at start.
func BecomeSubreaper() {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno == 0 {
		subreaper.Store(true)
	}
}

// subreaper is set once this process adopts orphans; only then are all of
// its children known to be leftovers of a finished run.
var subreaper atomic.Bool

// children lists the pids whose parent is pid, from /proc.
func children(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name may hold spaces and parens: parse after the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if pp, _ := strconv.Atoi(f[1]); pp == pid {
			out = append(out, p)
		}
	}
	return out
}

// killTree kills the process group and every descendant of its leader,
// including those that moved to a session of their own.
func killTree(pgid int) {
	var walk func(pid int, depth int)
	walk = func(pid int, depth int) {
		if depth > 32 {
			return
		}
		for _, c := range children(pid) {
			syscall.Kill(c, syscall.SIGKILL)
			walk(c, depth+1)
		}
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	walk(pgid, 0)
}

// killOrphans kills and reaps descendants that were reparented to this
// process (only when it is a subreaper), and never waits on the caller's
// own children that are still tracked by exec.Cmd.
func killOrphans() {
	if !subreaper.Load() {
		return
	}
	self := os.Getpid()
	for range 8 {
		kids := children(self)
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			// A subprocess of ours still being run by another goroutine is
			// not an orphan; orphans here are only reparented descendants,
			// which have no exec.Cmd. Killing is safe for both after Run.
			syscall.Kill(k, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(k, &ws, 0, nil)
		}
	}
}
