//go:build !linux

package cmd

import "syscall"

// Without pidfds the worker polls whether its shell still exists.
func pidfdOpen(int) (int, error) { return -1, syscall.ENOSYS }

func waitReadable(int) {}
