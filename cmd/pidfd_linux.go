package cmd

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

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

// parentOf is pid's parent process id, 0 when unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// isWorker reports whether pid is a live prchip worker (a record left by a
// worker that was killed names a dead or reused pid).
func isWorker(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.Contains(b, []byte("\x00worker\x00"))
}
