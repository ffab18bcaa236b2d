//go:build !linux

package proc

import "syscall"

// BecomeSubreaper is Linux-only; elsewhere orphans go to init as usual.
func BecomeSubreaper() {}

// killTree kills the process group; without /proc, descendants that left
// the group are out of reach.
func killTree(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }

func killOrphans() {}
