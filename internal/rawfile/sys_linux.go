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

// pathBuf holds a path as a C string on the caller's stack: allocating
// one per call put paths of different lengths into different allocation
// size classes, each a fresh span (two page faults) in a cold process.
type pathBuf [160]byte

// ptr returns path as a C string, in b when it fits.
func (b *pathBuf) ptr(path string) (*byte, error) {
	if len(path) >= len(b) {
		return syscall.BytePtrFromString(path)
	}
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return nil, syscall.EINVAL
		}
	}
	copy(b[:], path)
	b[len(path)] = 0
	return &b[0], nil
}

func open(path string, flags int) (int, error) {
	var buf pathBuf
	p, err := buf.ptr(path)
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
	var buf pathBuf
	p, err := buf.ptr(path)
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
