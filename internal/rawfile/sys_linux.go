package rawfile

import (
	"syscall"
	"unsafe"
)

// The render path's system calls are raw: they never tell the Go scheduler
// they might block. A regular syscall that takes longer than ~20 µs (common
// in VMs) makes sysmon hand the processor to a new OS thread; creating that
// thread costs more than the whole render. These calls are on small local
// files, where blocking the only goroutine is what we want anyway.

func pathPtr(path string) (*byte, error) { return syscall.BytePtrFromString(path) }

func open(path string, flags int) (int, error) {
	p, err := pathPtr(path)
	if err != nil {
		return -1, err
	}
	for {
		fd, _, errno := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)),
			uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC|flags), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return -1, errno
		}
		return int(fd), nil
	}
}

var atFDCWD = -100 // AT_FDCWD

func fstat(fd int, st *syscall.Stat_t) error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0); errno != 0 {
		return errno
	}
	return nil
}

func read(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func closeFD(fd int) { syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0) }

func stat(path string, st *syscall.Stat_t) error {
	if sysFstatat == 0 {
		return syscall.Stat(path, st)
	}
	p, err := pathPtr(path)
	if err != nil {
		return err
	}
	if _, _, errno := syscall.RawSyscall6(sysFstatat, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)),
		uintptr(unsafe.Pointer(st)), 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

func mtimeNs(st *syscall.Stat_t) int64 { return int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec) }

func pread(fd int, b []byte, off int64) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall6(syscall.SYS_PREAD64, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(off), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
