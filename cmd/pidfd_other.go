//go:build !linux

package cmd

import "syscall"

// Without pidfds the worker polls whether its shell still exists.
func pidfdOpen(int) (int, error) { return -1, syscall.ENOSYS }

func waitReadable(int) {}

// parentOf is not known without /proc: only the direct parent is looked at.
func parentOf(int) int { return 0 }

func isWorker(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }
