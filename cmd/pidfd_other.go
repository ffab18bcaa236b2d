//go:build !linux

package cmd

import (
	"os"
	"syscall"
)

// Without pidfds the worker polls whether its shell still exists.
func pidfdOpen(int) (int, error) { return -1, syscall.ENOSYS }

func waitReadable(int) {}

// parentOf is not known without /proc: only the direct parent is looked at.
func parentOf(int) int { return 0 }

func isWorker(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }

// endWorker does nothing: without pidfds a signal could reach a process
// that has the worker's number since. A stuck worker ends by itself when
// it can: at its shell's end, after its idle time, or when it finds its
// FIFOs closed.
func endWorker(int, string) {}

// parentNotifier sends SIGURG (ignored by a program that does not handle
// it) to the parent that started this process if
// it is still this process's parent at the end (without pidfds, the check
// and the signal are two system calls apart).
func parentNotifier() func() {
	ppid := os.Getppid()
	return func() {
		if os.Getppid() == ppid {
			syscall.Kill(ppid, syscall.SIGURG)
		}
	}
}
