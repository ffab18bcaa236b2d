//go:build !linux

package rawfile

import "syscall"

func mtimeNs(st *syscall.Stat_t) int64 { return st.Mtimespec.Nano() }
