package rawfile

import "syscall"

func open(path string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func fstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func read(fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

func closeFD(fd int) { syscall.Close(fd) }

func stat(path string, st *syscall.Stat_t) error { return syscall.Stat(path, st) }

func lstat(path string, st *syscall.Stat_t) error { return syscall.Lstat(path, st) }

func pread(fd int, b []byte, off int64) (int, error) { return syscall.Pread(fd, b, off) }
