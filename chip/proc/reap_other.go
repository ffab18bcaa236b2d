//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package proc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper is Linux-only; elsewhere orphans go to init as usual.
func BecomeSubreaper() {}

func adoptsOrphans() bool { return false }

// waitExit returns once the leader has exited, leaving it unreaped (a
// kqueue exit event does not reap): until Run reaps it, its pid and its
// group's id name it. An error (ESRCH: it has exited already) returns at
// once, which at worst ends a live leader's group early.
func waitExit(pid int) {
	kq, err := unix.Kqueue()
	if err != nil {
		return
	}
	defer unix.Close(kq)
	ev := []unix.Kevent_t{{}}
	unix.SetKevent(&ev[0], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev[0].Fflags = unix.NOTE_EXIT
	for {
		if _, err := unix.Kevent(kq, ev, ev, nil); err != unix.EINTR {
			return
		}
	}
}

// endTree kills the process group of the unreaped leader pid; without
// /proc and pidfds, descendants that left the group are out of reach.
func endTree(pid int, exited bool) { syscall.Kill(-pid, syscall.SIGKILL) }
