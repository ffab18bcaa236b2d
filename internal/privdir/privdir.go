// Package privdir opens the directories prchip writes in (the state
// directory, and per-user runtime directories) only when they are private:
// a real directory, not a symbolic link, owned by the effective user and
// writable by no one else. What is done inside one goes through an
// os.Root of it, so a path component renamed or replaced by a link after
// the check cannot redirect it outside.
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
	"syscall"

	"github.com/prchip/prchip/internal/rawfile"
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
	root *os.Root
	path string
}

// Path is the directory's path, for messages.
func (d *Dir) Path() string { return d.path }

// Close closes the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Open opens the existing directory path and checks that it is private. It
// changes nothing. A missing directory gives an error matching
// fs.ErrNotExist; a refused one, ErrUnsafe.
func Open(path string) (*Dir, error) {
	parent, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	return openIn(parent, filepath.Base(path), path, false)
}

// Make is Open that makes the directory (mode 0700), and its missing
// parents, when it is missing, and takes any group and other permission
// off it.
func Make(path string) (*Dir, error) {
	path = filepath.Clean(path)
	parent, err := openParent(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	return openIn(parent, filepath.Base(path), path, true)
}

// Sub opens the private directory name in d, never through a link; with
// create it is made when missing and tightened, as Make does.
func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return openIn(d.root, name, filepath.Join(d.path, name), create)
}

// OpenFile opens name in d as os.OpenFile does, never following a link.
func (d *Dir) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if st, err := d.root.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(d.path, name), Err: syscall.ELOOP}
	}
	return d.root.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
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
	return d.root.Rename(from, to)
}

// Remove removes name in d.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return d.root.Remove(name)
}

// Lstat describes name in d without following a link.
func (d *Dir) Lstat(name string) (rawfile.FileInfo, error) {
	if err := checkName(name); err != nil {
		return rawfile.FileInfo{}, err
	}
	fi, err := d.root.Lstat(name)
	if err != nil {
		return rawfile.FileInfo{}, err
	}
	return rawfile.FromStat(fi.Sys().(*syscall.Stat_t)), nil
}

// Names lists d's entries.
func (d *Dir) Names() ([]string, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// Sync flushes d's entries (after a rename) to disk.
func (d *Dir) Sync() error {
	f, err := d.root.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// checkName refuses names that are not one entry of the directory.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return fmt.Errorf("privdir: %q is not a file name", name)
	}
	return nil
}

// openIn opens name in parent, making it (0700) first when create is set
// and it is missing, and refuses it unless it is a private directory: a
// link is refused, not followed, and what is checked is what was opened.
// With create, group and other permissions are taken off.
func openIn(parent *os.Root, name, path string, create bool) (*Dir, error) {
	st, err := parent.Lstat(name)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err = mkdirIn(parent, name, path); err == nil {
			st, err = parent.Lstat(name)
		}
	}
	switch {
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, &UnsafeError{path, "is a symbolic link", "remove the link (prchip then makes a directory of its own there)"}
	case !st.IsDir():
		return nil, &UnsafeError{path, "is not a directory", "move it away (prchip then makes a directory there)"}
	}
	root, err := parent.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	d := &Dir{root: root, path: path}
	if err := d.check(st, create); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// check refuses a directory that is not the one looked at (lst: swapped
// for a link since), that another user owns or others can write; with
// tighten, group and other permissions are taken off first.
func (d *Dir) check(lst os.FileInfo, tighten bool) error {
	fi, err := d.root.Stat(".")
	if err != nil {
		return err
	}
	if !os.SameFile(fi, lst) {
		return &UnsafeError{d.path, "changed while it was opened", "try again"}
	}
	st := fi.Sys().(*syscall.Stat_t)
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return &UnsafeError{d.path, fmt.Sprintf("belongs to uid %d, not to you (uid %d)", st.Uid, uid),
			"have its owner remove it, so that prchip makes its own"}
	}
	mode := st.Mode & 0o7777
	if mode&0o022 != 0 {
		return &UnsafeError{d.path, fmt.Sprintf("can be written by others (mode %04o)", mode),
			"check what is in it, then run: chmod 700 " + d.path}
	}
	if tighten && mode&0o077 != 0 {
		return d.root.Chmod(".", fs.FileMode(mode&0o700))
	}
	return nil
}

// mkdirIn makes directory name (0700) in parent, unless parent belongs to
// someone else: its owner could remove or replace what is made there. A
// sticky directory of root's (/tmp) is the exception: there no one but
// root and the maker can.
func mkdirIn(parent *os.Root, name, path string) error {
	fi, err := parent.Stat(".")
	if err != nil {
		return err
	}
	st := fi.Sys().(*syscall.Stat_t)
	if uid := os.Geteuid(); int(st.Uid) != uid && (st.Uid != 0 || st.Mode&syscall.S_ISVTX == 0) {
		return &UnsafeError{filepath.Dir(path), fmt.Sprintf("belongs to uid %d, not to you (uid %d)", st.Uid, uid),
			"make " + path + " yourself (mkdir -m 700 " + path + ")"}
	}
	if err := parent.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// openParent opens the directory path, following links (the path above a
// private directory is the user's), making it and its missing parents
// (0700) where mkdirIn allows.
func openParent(path string) (*os.Root, error) {
	r, err := os.OpenRoot(path)
	if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(path) == path {
		return r, err
	}
	up, err := openParent(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer up.Close()
	if err := mkdirIn(up, filepath.Base(path), path); err != nil {
		return nil, err
	}
	return up.OpenRoot(filepath.Base(path))
}
