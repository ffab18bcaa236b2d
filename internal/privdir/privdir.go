// Package privdir opens the directories prchip writes in (the state
// directory, and per-user runtime directories) only when they are private:
// a real directory, not a symbolic link, owned by the effective user and
// writable by no one else. What is done inside one goes through its open
// descriptor (openat, renameat, unlinkat, fchmod), so a path component
// renamed or replaced by a link after the check cannot redirect it.
//
// The path above the directory is the user's to arrange (a linked home or
// ~/.local is common), so parents are followed; but nothing is made in a
// directory that belongs to someone else (see mkdirIn).
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrUnsafe is matched (errors.Is) by every refusal of a directory.
var ErrUnsafe = errors.New("not a private directory")

// UnsafeError says why a directory was refused and what the user can do.
type UnsafeError struct {
	Path   string
	Reason string // "is a symbolic link"
	Fix    string // what to do, for `prchip status`
}

func (e *UnsafeError) Error() string {
	return e.Path + " " + e.Reason + ": prchip does not write there; " + e.Fix
}

// Is makes errors.Is(err, ErrUnsafe) true.
func (e *UnsafeError) Is(target error) bool { return target == ErrUnsafe }

// Dir is an open private directory. Close it when done.
type Dir struct {
	fd   int
	path string
	mode uint32 // permission bits, as checked
}

// Path is the directory's path, for messages.
func (d *Dir) Path() string { return d.path }

// Fd is the directory's descriptor, for *at system calls.
func (d *Dir) Fd() int { return d.fd }

// Close closes the directory.
func (d *Dir) Close() error { return unix.Close(d.fd) }

// Open opens the existing directory path and checks that it is private. It
// changes nothing. A missing directory gives an error matching
// fs.ErrNotExist; a refused one, ErrUnsafe.
func Open(path string) (*Dir, error) { return openAt(unix.AT_FDCWD, path, path) }

// Make is Open that makes the directory (mode 0700), and its missing
// parents, when it is missing, and takes any group and other permission
// off it (by fchmod of the directory opened without following a link).
func Make(path string) (*Dir, error) {
	path = filepath.Clean(path)
	d, err := Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		var parent int
		if parent, err = openParent(filepath.Dir(path)); err != nil {
			return nil, err
		}
		d, err = makeAt(parent, filepath.Base(path), path)
		unix.Close(parent)
	}
	if err != nil {
		return nil, err
	}
	if err := d.tighten(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Sub opens the private directory name in d, never through a link; with
// create it is made when missing and tightened, as Make does.
func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	s, err := openAt(d.fd, name, path)
	if !create {
		return s, err
	}
	if errors.Is(err, fs.ErrNotExist) {
		s, err = makeAt(d.fd, name, path)
	}
	if err != nil {
		return nil, err
	}
	if err := s.tighten(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// OpenFile opens name in d as os.OpenFile does, never following a link.
func (d *Dir) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	for {
		fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(d.path, name), Err: err}
		}
		return os.NewFile(uintptr(fd), filepath.Join(d.path, name)), nil
	}
}

// CreateTemp makes a new file (0600) named prefix and a random number in
// d, and returns it with its name.
func (d *Dir) CreateTemp(prefix string) (*os.File, string, error) {
	for {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, name, err
		}
	}
}

// Rename renames from to to, both in d (a link is renamed, not followed).
func (d *Dir) Rename(from, to string) error {
	if err := errors.Join(checkName(from), checkName(to)); err != nil {
		return err
	}
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(d.path, from), New: filepath.Join(d.path, to), Err: err}
	}
	return nil
}

// Remove removes the file (not a directory) name in d.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// Info is what Lstat tells of a file.
type Info struct {
	Mode    uint32 // type bits (unix.S_IF*) and permissions
	Uid     uint32
	Ino     uint64
	Size    int64
	MtimeNs int64
}

// IsDir reports whether the file is a directory.
func (i Info) IsDir() bool { return i.Mode&unix.S_IFMT == unix.S_IFDIR }

// Lstat describes name in d without following a link.
func (d *Dir) Lstat(name string) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: filepath.Join(d.path, name), Err: err}
	}
	return Info{Mode: uint32(st.Mode), Uid: st.Uid, Ino: uint64(st.Ino), Size: st.Size, MtimeNs: st.Mtim.Nano()}, nil
}

// Names lists d's entries.
func (d *Dir) Names() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Readdirnames(-1)
}

// Sync flushes d's entries (after a rename) to disk.
func (d *Dir) Sync() error { return unix.Fsync(d.fd) }

// checkName refuses names that are not one entry of the directory.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return fmt.Errorf("privdir: %q is not a file name", name)
	}
	return nil
}

func openDir(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openAt opens name in dirfd without following a link and checks it.
func openAt(dirfd int, name, path string) (*Dir, error) {
	fd, err := openDir(dirfd, name, unix.O_NOFOLLOW)
	if err == unix.ENOTDIR || err == unix.ELOOP {
		return nil, notDir(dirfd, name, path)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	d := &Dir{fd: fd, path: path}
	if err := d.check(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// notDir explains an open that found something other than a directory.
func notDir(dirfd int, name, path string) error {
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return &UnsafeError{path, "is a symbolic link", "remove the link (prchip then makes a directory of its own there)"}
	}
	return &UnsafeError{path, "is not a directory", "move it away (prchip then makes a directory there)"}
}

// check refuses a directory another user owns or others can write.
func (d *Dir) check() error {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: d.path, Err: err}
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return &UnsafeError{d.path, fmt.Sprintf("belongs to uid %d, not to you (uid %d)", st.Uid, uid),
			"have its owner remove it, so that prchip makes its own"}
	}
	d.mode = uint32(st.Mode) & 0o7777
	if d.mode&0o022 != 0 {
		return &UnsafeError{d.path, fmt.Sprintf("can be written by others (mode %04o)", d.mode),
			"check what is in it, then run: chmod 700 " + d.path}
	}
	return nil
}

// tighten takes group and other permissions off d.
func (d *Dir) tighten() error {
	if d.mode&0o077 == 0 {
		return nil
	}
	if err := unix.Fchmod(d.fd, d.mode&0o700); err != nil {
		return &fs.PathError{Op: "chmod", Path: d.path, Err: err}
	}
	d.mode &= 0o700
	return nil
}

// makeAt makes name (0700) in the directory open at dirfd and opens it.
func makeAt(dirfd int, name, path string) (*Dir, error) {
	if err := mkdirIn(dirfd, name, path); err != nil {
		return nil, err
	}
	return openAt(dirfd, name, path)
}

// mkdirIn makes directory name (0700) in the directory open at dirfd,
// unless that directory belongs to someone else: its owner could remove or
// replace what is made there. A sticky directory of root's (/tmp) is the
// exception: there no one but root and the maker can.
func mkdirIn(dirfd int, name, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(dirfd, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: filepath.Dir(path), Err: err}
	}
	if uid := os.Geteuid(); int(st.Uid) != uid && (st.Uid != 0 || st.Mode&unix.S_ISVTX == 0) {
		return &UnsafeError{filepath.Dir(path), fmt.Sprintf("belongs to uid %d, not to you (uid %d)", st.Uid, uid),
			"make " + path + " yourself (mkdir -m 700 " + path + ")"}
	}
	if err := unix.Mkdirat(dirfd, name, 0o700); err != nil && err != unix.EEXIST {
		return &fs.PathError{Op: "mkdir", Path: path, Err: err}
	}
	return nil
}

// openParent opens the directory path, following links (the path above a
// private directory is the user's), making it and its missing parents
// (0700) where mkdirIn allows.
func openParent(path string) (int, error) {
	fd, err := openDir(unix.AT_FDCWD, path, 0)
	if err == unix.ENOENT && filepath.Dir(path) != path {
		up, err := openParent(filepath.Dir(path))
		if err != nil {
			return -1, err
		}
		defer unix.Close(up)
		name := filepath.Base(path)
		if err := mkdirIn(up, name, path); err != nil {
			return -1, err
		}
		fd, err = openDir(up, name, 0)
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}
