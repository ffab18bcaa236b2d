//go:build !linux

package worker

import "syscall"

// Without pidfds the worker polls whether its shell still exists.
func pidfdOpen(int) (int, error) { return -1, syscall.ENOSYS }

func waitReadable(int) {}

func isWorker(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }

// endWorker does nothing: without pidfds a signal could reach a process
// that has the worker's number since. A stuck worker ends by itself when
// it can: at its shell's end, after its idle time, or when it finds its
// FIFOs closed.
func endWorker(int, string) {}
