// Package rawfile is how the render reads files: defensively (no
// following a final symlink where asked, no blocking on a FIFO, bounded
// sizes, the owner reported for trust checks), and only through a Reader,
// whose tracker the worker's render request sets (env.Env.Files): the
// worker watches what an answer depends on, so no read may escape it.
//
// Opens, reads and stats are on package syscall, not os, because through
// os they cost the one-shot `prchip prompt` 27 page faults (370 against
// 343) and 0.15 of git's time (scripts/bench's one-shot part, 2 × 200
// runs each, interleaved).
package rawfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// ErrTooLarge is returned for files larger than the limit given.
var ErrTooLarge = errors.New("file too large")

// FileInfo is what a stat says of a file.
type FileInfo struct {
	Mode uint32 // syscall.S_IF* type bits and permissions
	Size int64
	Uid  uint32
	ID
	MtimeNs int64
}

// IsRegular reports whether the file is a regular file.
func (i FileInfo) IsRegular() bool { return i.Mode&syscall.S_IFMT == syscall.S_IFREG }

// IsDir reports whether the file is a directory.
func (i FileInfo) IsDir() bool { return i.Mode&syscall.S_IFMT == syscall.S_IFDIR }

// IsSymlink reports whether the file is a symbolic link (from Lstat).
func (i FileInfo) IsSymlink() bool { return i.Mode&syscall.S_IFMT == syscall.S_IFLNK }

// Perm is the permission bits.
func (i FileInfo) Perm() fs.FileMode { return fs.FileMode(i.Mode & 0o777) }

// Reader reads, stats and lists files; its Seen, when set, is told every
// path looked at (entries: a directory whose listing was read). Each
// render's comes with its request, so concurrent renders keep theirs
// apart; the zero Reader tells no one (commands other than the render).
type Reader struct {
	Seen func(path string, entries bool)
}

func (r Reader) seen(path string, entries bool) {
	if r.Seen != nil {
		r.Seen(path, entries)
	}
}

// Read opens path with extra open flags (O_NOFOLLOW, O_NONBLOCK), checks
// with check (nil: regular files only) and reads at most max bytes; a
// larger file gives ErrTooLarge. Errors wrap the syscall errno, so
// errors.Is(err, fs.ErrNotExist) works.
func (r Reader) Read(path string, max int64, flags int, check func(FileInfo) error) ([]byte, FileInfo, error) {
	f, info, err := r.Open(path, max, flags, check)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	b, err := f.ReadAll(info.Size, max)
	return b, info, err
}

// ID is prchip's one file identity: a file replaced (an upgraded binary,
// a directory made again) has a new one; one rewritten in place keeps it.
type ID struct{ Dev, Ino uint64 }

// Identity is the ID of the file at path, links followed, zero when it
// cannot be stat'ed. No Reader is told: an identity is looked at
// to tell files apart, not read.
func Identity(path string) ID {
	st, _ := statPath(path, true) // zero on error
	return st.ID
}

// Version tells what a file says apart, for digests: its identity, size
// and modification time as text, "" when it cannot be stat'ed.
func (r Reader) Version(path string) string {
	st, err := r.Stat(path)
	if err != nil {
		return ""
	}
	return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10) + " " +
		strconv.FormatInt(st.Size, 10) + " " + strconv.FormatInt(st.MtimeNs, 10)
}

// Stat follows symlinks, like os.Stat.
func (r Reader) Stat(path string) (FileInfo, error) {
	r.seen(path, false)
	return statPath(path, true)
}

// Lstat does not follow a final symlink, like os.Lstat: git judges a
// .git entry's owner so.
func (r Reader) Lstat(path string) (FileInfo, error) {
	r.seen(path, false)
	return statPath(path, false)
}

// statPath calls stat or lstat directly: through a function value, st
// would move to the heap on every call.
func statPath(path string, follow bool) (FileInfo, error) {
	var st syscall.Stat_t
	op, err := "stat", error(nil)
	if follow {
		err = syscall.Stat(path, &st)
	} else {
		op, err = "lstat", syscall.Lstat(path, &st)
	}
	if err != nil {
		return FileInfo{}, &fs.PathError{Op: op, Path: path, Err: err}
	}
	return FromStat(&st), nil
}

// FromStat is what st says, for callers that stat'ed by other means (an
// os.Root).
func FromStat(st *syscall.Stat_t) FileInfo {
	return FileInfo{uint32(st.Mode), st.Size, st.Uid, ID{uint64(st.Dev), uint64(st.Ino)}, mtimeNs(st)}
}

// File is an open file for positioned reads: the render path looks a
// record up in a large state file by reading a few small windows of it,
// which touches fewer pages than reading the file whole or mapping it.
type File struct {
	fd   int
	path string
}

// Open opens path with Read's flags and checks and leaves the reading to
// the caller, who must Close the file.
func (r Reader) Open(path string, max int64, flags int, check func(FileInfo) error) (File, FileInfo, error) {
	r.seen(path, false)
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
	}
	if err != nil {
		return File{fd: -1}, FileInfo{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	err = syscall.Fstat(fd, &st)
	info := FromStat(&st) // zero when Fstat failed
	switch {
	case err != nil:
		err = &fs.PathError{Op: "stat", Path: path, Err: err}
	case check != nil:
		err = check(info)
	case !info.IsRegular():
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err == nil && st.Size > max {
		err = fmt.Errorf("%s: %w (%d bytes, at most %d)", path, ErrTooLarge, st.Size, max)
	}
	if err != nil {
		syscall.Close(fd)
		return File{fd: -1}, info, err
	}
	return File{fd, path}, info, nil
}

// ReadAt reads len(b) bytes at off; fewer only at the end of the file.
func (f File) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := syscall.Pread(f.fd, b[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, nil
}

// ReadAll reads the rest of the file, expecting size bytes, as Read does.
func (f File) ReadAll(size, max int64) ([]byte, error) {
	buf := make([]byte, size+1)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(f.fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		n += m
		// A regular file's read comes back short only at its end: no
		// second call to learn that (files here are small, calls not).
		if m == 0 || n < len(buf) {
			break
		}
	}
	if int64(n) > max {
		return nil, fmt.Errorf("%s: %w (grew while read)", f.path, ErrTooLarge)
	}
	return buf[:n], nil
}

// Close closes the file.
func (f File) Close() {
	if f.fd >= 0 {
		syscall.Close(f.fd)
	}
}

// ReadDirNames lists a directory's entries, without "." and "..", in the
// order the file system gives them (only an SSH Include glob lists one).
func (r Reader) ReadDirNames(path string) ([]string, error) {
	r.seen(path, true)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
