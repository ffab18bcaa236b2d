package worker

import (
	"bytes"

	"golang.org/x/sys/unix"

	"github.com/prchip/prchip/chip/proc"
)

func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

// endWorker kills pid only if it is the worker started with --fifos dir.
// The command line is read after the pidfd is open, and the process is
// found unreaped after that, so what was read is the pidfd's process's,
// and the signal goes to that process and no other.
func endWorker(pid int, dir string) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	if workerStartedWith(proc.Cmdline(pid), dir) && unix.PidfdSendSignal(fd, 0, nil, 0) == nil {
		unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
}

// waitReadable blocks until fd is readable: for a pidfd, until the process ends.
func waitReadable(fd int) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, -1)
		if n > 0 || (err != nil && err != unix.EINTR) {
			return
		}
	}
}

// isWorker reports whether pid is a live prchip worker (a record left by a
// worker that was killed names a dead or reused pid).
func isWorker(pid int) bool {
	return bytes.Contains(proc.Cmdline(pid), []byte("\x00worker\x00"))
}
