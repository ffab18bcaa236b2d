package cmd

import "golang.org/x/sys/unix"

func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

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
