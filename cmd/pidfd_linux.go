package cmd

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
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
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err == nil && workerStartedWith(b, dir) && unix.PidfdSendSignal(fd, 0, nil, 0) == nil {
		unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
}

// exeIdentity is the device and inode of the executable pid runs, "" when
// unknown.
func exeIdentity(pid int) string {
	var st unix.Stat_t
	if unix.Stat("/proc/"+strconv.Itoa(pid)+"/exe", &st) != nil {
		return ""
	}
	return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10)
}

// catches reports whether pid has a handler for sig (SigCgt in
// /proc/PID/status).
func catches(pid int, sig unix.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	_, rest, ok := bytes.Cut(b, []byte("\nSigCgt:\t"))
	if !ok {
		return false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	mask, err := strconv.ParseUint(string(line), 16, 64)
	return err == nil && sig >= 1 && sig <= 64 && mask&(1<<(uint(sig)-1)) != 0
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
