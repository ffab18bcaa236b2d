// Package cache is prchip's only store: one versioned state file shared by
// every shell, read without locks by the render path and changed by
// read-modify-write under an advisory lock with atomic replace.
//
// File format (version 2), one record per line so the render path can find
// its repository without decoding the others:
//
//	prchip-state 2
//	G <json>                          global record
//	R <key> <last-used-unix> <json>   one per repository, sorted by key
//
// Fields are tab-separated; keys are hex digests, and JSON escapes tabs
// and newlines. Sorted keys let the render path binary-search (search.go).
//
// When the state directory takes no write (a full or read-only disk, a
// file-size limit, a directory not the user's), Update keeps the records
// it changed in a spare file of the same format in a private runtime
// directory (Store.Spare), which every read lays over the state file's:
// backoff, results and validation hold whatever the disk allows, and
// state.Decide reads them as any record. The next write that reaches the
// state file takes them in and removes the spare.
package cache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prchip/prchip/internal/privdir"
	"github.com/prchip/prchip/internal/rawfile"
)

const (
	// Version is written in the header; a file with another version is
	// treated as empty and rewritten by the next write.
	Version = 2
	header  = "prchip-state"
	// MaxRepos bounds the file: least recently used repositories beyond it
	// are dropped on write. About 600 bytes a record: at most ~300 KiB.
	MaxRepos = 512
	// MaxSize is the largest state file read; MaxRepos records stay far below.
	MaxSize = 4 << 20
	// LockQuiet is how long a writer waits for the write lock while the
	// state file does not change: writers hold it for milliseconds, so
	// such a holder is stuck (stopped, a hung disk) or no writer, and a
	// hook or a prompt must not wait seconds for it.
	LockQuiet = 500 * time.Millisecond
	// LockWait bounds the wait while the file keeps changing (other
	// writers getting through: many shells invalidating at once).
	LockWait = 3 * time.Second
)

// ErrLocked is returned when the write lock could not be had (LockQuiet).
var ErrLocked = errors.New("another process holds the state lock")

// Store is the state file at Path (its lock sits beside it).
type Store struct {
	Path string
	// Now is the clock used for last-used times; nil means time.Now.
	Now func() time.Time
	// Spare lists the private per-user directories (cmd's runtimeDirs)
	// where Update keeps what the state directory would not take.
	Spare []string
	// Files is the render request's Reader, so the worker watches the files.
	Files rawfile.Reader
}

// Problem explains why a state file was treated as empty. The render path
// ignores it; `status` shows it; the next write repairs the file.
type Problem struct {
	Path   string
	Reason string
}

func (p *Problem) Error() string { return "state file " + p.Path + ": " + p.Reason }

// Dir is the directory holding the state file and locks.
func (s *Store) Dir() string { return filepath.Dir(s.Path) }

// The state file is opened defensively: never following a symlink, never
// blocking on a FIFO or device, and refusing (check) files other users
// could have written and files larger than MaxSize.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// read reads the whole state file; a missing file is (nil, nil).
func (s *Store) read() ([]byte, *Problem) {
	b, _, err := s.Files.Read(s.Path, MaxSize, openFlags, s.check)
	return b, s.readProblem(err)
}

// check refuses what SPEC 5 says to treat as empty state, saying why in
// the *Problem it returns.
func (s *Store) check(i rawfile.FileInfo) error {
	switch {
	case i.IsDir():
		return &Problem{s.Path, "is a directory; ignored (the next write moves it aside)"}
	case !i.IsRegular():
		return &Problem{s.Path, "is not a regular file (a " + cmp.Or(fileTypes[i.Mode&syscall.S_IFMT], "special file") + "); ignored"}
	case i.Perm()&0o022 != 0:
		return &Problem{s.Path, fmt.Sprintf("mode %04o lets others write it; ignored (the next write makes it 0600)", i.Perm())}
	case int(i.Uid) != os.Geteuid():
		return &Problem{s.Path, fmt.Sprintf("is owned by uid %d, not by you; ignored", i.Uid)}
	case i.Size > MaxSize:
		return &Problem{s.Path, fmt.Sprintf("is %d bytes, more than the %d a state file may have; ignored", i.Size, MaxSize)}
	}
	return nil
}

func (s *Store) readProblem(err error) *Problem {
	var p *Problem
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.As(err, &p):
		return p
	case errors.Is(err, syscall.ELOOP):
		return &Problem{s.Path, "is a symbolic link; ignored (the next write replaces it with a regular file)"}
	}
	return &Problem{s.Path, "unreadable: " + err.Error()}
}

// fileTypes name the files the state file must not be; others are a "special file".
var fileTypes = map[uint32]string{syscall.S_IFIFO: "FIFO", syscall.S_IFCHR: "character device",
	syscall.S_IFBLK: "block device", syscall.S_IFSOCK: "socket"}

// ReadRepo is the render path's read: the global record and one
// repository's record, without decoding any other. Missing records are nil.
// The record is found by binary search (search.go): in a small file read
// whole, in a large one over a few windows of it.
func (s *Store) ReadRepo(key string) (global, repo []byte, problem *Problem) {
	global, repo, problem = s.readRepo(key)
	if sp := s.spare(); sp != nil {
		if sp.Global != nil {
			global = sp.Global
		}
		if e, ok := sp.repos[key]; ok {
			repo = e.data
		}
		problem = cmp.Or(problem, sp.Problem)
	}
	return global, repo, problem
}

// readRepo is ReadRepo of the state file alone.
func (s *Store) readRepo(key string) (global, repo []byte, problem *Problem) {
	f, info, err := s.Files.Open(s.Path, MaxSize, openFlags, s.check)
	defer f.Close() // safe after a failed open
	if err != nil || info.Size == 0 {
		return nil, nil, s.readProblem(err) // a missing file is an empty one
	}
	if info.Size > searchMin {
		return s.search(f, info.Size, key)
	}
	b, err := f.ReadAll(info.Size, MaxSize)
	if err != nil {
		return nil, nil, s.readProblem(err)
	}
	return s.search(inMemory(b), int64(len(b)), key)
}

// Tx is a read-modify-write transaction's view of the whole state.
type Tx struct {
	Global  []byte
	repos   map[string]entry
	changed bool
	now     time.Time
	// Problem is why the file was read as empty, if it was.
	Problem *Problem
	// spared are the records a spare must hold: those read from one and
	// those put since; spare is the spare file read.
	spared map[string]bool
	spare  string
	reset  bool
}

type entry struct {
	used int64
	data []byte
}

// Repo returns a repository's record, nil when absent.
func (tx *Tx) Repo(key string) []byte { return tx.repos[key].data }

// PutRepo stores a repository's record and marks it used now.
func (tx *Tx) PutRepo(key string, data []byte) {
	tx.repos[key] = entry{used: tx.now.Unix(), data: bytes.Clone(data)}
	tx.spared[key], tx.changed = true, true
}

// SetGlobal replaces the global record.
func (tx *Tx) SetGlobal(data []byte) {
	if !bytes.Equal(tx.Global, data) {
		tx.Global = bytes.Clone(data)
		tx.changed = true
	}
}

// Reset empties everything. A spare cannot say so: a reset is written to
// the state file or not at all.
func (tx *Tx) Reset() {
	tx.Global = nil
	tx.repos = map[string]entry{}
	tx.changed, tx.reset = true, true
}

// Len is the number of repositories stored.
func (tx *Tx) Len() int { return len(tx.repos) }

func (s *Store) parse(b []byte) *Tx {
	tx := &Tx{repos: map[string]entry{}, spared: map[string]bool{}, now: time.Now()}
	if s.Now != nil {
		tx.now = s.Now()
	}
	if len(b) == 0 {
		return tx
	}
	// The header and the last record's end are checked as ReadRepo checks them.
	if _, _, tx.Problem = s.search(inMemory(b), int64(len(b)), ""); tx.Problem != nil {
		return tx
	}
	_, body, _ := bytes.Cut(b, []byte{'\n'})
	for len(body) > 0 {
		var line []byte
		line, body, _ = bytes.Cut(body, []byte{'\n'})
		switch {
		case bytes.HasPrefix(line, []byte("G\t")):
			tx.Global = bytes.Clone(line[2:])
		case bytes.HasPrefix(line, []byte("R\t")):
			f := bytes.SplitN(line[2:], []byte{'\t'}, 3)
			if len(f) != 3 {
				continue
			}
			used, _ := strconv.ParseInt(string(f[1]), 10, 64)
			tx.repos[string(f[0])] = entry{used: used, data: bytes.Clone(f[2])}
		}
	}
	return tx
}

// Load reads the whole state, the spare laid over the state file, without
// locking. Unlike ReadRepo it names no spare as a problem: a command that
// loads the state writes it next, which takes the spare in.
func (s *Store) Load() *Tx {
	b, p := s.read()
	tx := s.parse(b)
	tx.Problem = cmp.Or(p, tx.Problem)
	if sp := s.spare(); sp != nil {
		if sp.Global != nil {
			tx.Global = sp.Global
		}
		for k, e := range sp.repos {
			tx.repos[k], tx.spared[k] = e, true
		}
		tx.spare = sp.Problem.Path
	}
	return tx
}

// spareIn is the spare of s in dir, named after the state file's path: two
// state files of one user (another XDG_STATE_HOME) never share one.
func (s *Store) spareIn(dir string) *Store {
	sum := sha256.Sum256([]byte(s.Path))
	return &Store{Path: filepath.Join(dir, "state-"+hex.EncodeToString(sum[:8])), Now: s.Now, Files: s.Files}
}

// spare reads the first spare file found, nil when there is none. Its
// Problem says where it is; a spare that fails the state file's checks
// (another user's, say) is none.
func (s *Store) spare() *Tx {
	for _, dir := range s.Spare {
		sp := s.spareIn(dir)
		b, p := sp.read()
		if p != nil || len(b) == 0 {
			continue
		}
		if tx := sp.parse(b); tx.Problem == nil {
			tx.Problem = &Problem{sp.Path, "keeps what could not be written to " + s.Path +
				" (a full disk, a file-size limit, a directory prchip may not write in); the next write there takes it in"}
			return tx
		}
	}
	return nil
}

// Update runs fn on the current state (Load's) under the write lock and
// writes the result atomically if fn changed anything; an error from fn
// aborts the write. An unreadable state file is rewritten from scratch, in
// a private state directory only (openDir). When that takes no write, what
// fn changed is kept in a spare, and the error says so.
func (s *Store) Update(fn func(tx *Tx) error) error {
	var fnErr error
	run := func(tx *Tx) error { fnErr = fn(tx); return fnErr }
	d, err := s.openDir()
	if err == nil {
		err = s.updateIn(d, s, run)
		d.Close()
	}
	if err == nil || fnErr != nil {
		return err
	}
	for _, dir := range s.Spare {
		if d, derr := privdir.Make(dir); derr == nil {
			sp := s.spareIn(dir)
			serr := s.updateIn(d, sp, run)
			d.Close()
			if serr == nil {
				return fmt.Errorf("%w (kept meanwhile in %s)", err, sp.Path)
			}
			if fnErr != nil {
				return fnErr
			}
		}
	}
	return err
}

// updateIn is Update writing to the file of to, in d: the state file, or
// a spare, which holds only the global record and the records changed
// while the state file could not be written.
func (s *Store) updateIn(d *privdir.Dir, to *Store, fn func(tx *Tx) error) error {
	unlock, err := to.lock(d)
	if err != nil {
		return err
	}
	defer unlock()
	to.removeTemps(d)
	// Read by path: what is written goes through the directory's
	// descriptor, and a file read from elsewhere passes the same checks.
	tx := s.Load()
	if err := fn(tx); err != nil {
		return err
	}
	if to != s {
		if tx.reset {
			return errors.New("a reset cannot be kept in a spare")
		}
		maps.DeleteFunc(tx.repos, func(k string, _ entry) bool { return !tx.spared[k] })
		return to.write(d, tx)
	}
	if !tx.changed && tx.Problem == nil && tx.spare == "" {
		return nil
	}
	if err := s.write(d, tx); err != nil {
		return err
	}
	if tx.spare != "" {
		if sd, err := privdir.Open(filepath.Dir(tx.spare)); err == nil {
			sd.Remove(filepath.Base(tx.spare))
			sd.Close()
		}
	}
	return nil
}

// openDir opens the state directory for writing, making it when missing
// (SPEC 5): a real directory, not a link, owned by the user and writable
// by no one else; the error says why not, and what to do.
func (s *Store) openDir() (*privdir.Dir, error) {
	d, err := privdir.Make(s.Dir())
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	return d, nil
}

// Sub opens (making it when missing) the private directory name inside the
// state directory: "locks" for refresh locks, "workers" for worker records.
func (s *Store) Sub(name string) (*privdir.Dir, error) {
	d, err := s.openDir()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	sub, err := d.Sub(name, true)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	return sub, nil
}

// DirProblem says why prchip will not write in the state directory (or a
// directory in it), for `status`; nil when it will, or when it does not
// exist yet (the first write makes it). It changes nothing.
func (s *Store) DirProblem() error {
	d, err := privdir.Open(s.Dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	defer d.Close()
	for _, name := range []string{"locks", "workers"} { // where prchip writes in it
		sub, err := d.Sub(name, false)
		if err == nil {
			sub.Close()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state directory: %w", err)
		}
	}
	return nil
}

// lock takes the advisory write lock in d. It gives up (ErrLocked) when
// the lock stays taken for LockQuiet while the state file does not change,
// or for LockWait in all.
func (s *Store) lock(d *privdir.Dir) (func(), error) {
	f, err := d.OpenFile(filepath.Base(s.Path)+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open state lock: %w", err)
	}
	start := time.Now()
	moved, last := start, s.stamp(d)
	ok, err := flockUntil(f, syscall.LOCK_EX, 5*time.Millisecond, func(now time.Time) bool {
		if st := s.stamp(d); st != last {
			moved, last = now, st
		}
		return now.Sub(moved) >= LockQuiet || now.Sub(start) >= LockWait
	})
	if ok {
		return func() { f.Close() }, nil
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("lock state file: %w", err)
	}
	return nil, fmt.Errorf("%w (%s) and the state has not changed for %v; gave up, nothing was written",
		ErrLocked, s.Path+".lock", time.Since(moved).Round(time.Millisecond))
}

// stamp tells versions of the state file apart (each write replaces it):
// zero when there is none.
func (s *Store) stamp(d *privdir.Dir) rawfile.FileInfo {
	st, _ := d.Lstat(filepath.Base(s.Path))
	return st
}

const tempPrefix = ".prchip-state-"

// removeTemps deletes temp files of writers that died mid-write; it runs
// under the lock, so no live writer owns one.
func (s *Store) removeTemps(d *privdir.Dir) {
	names, _ := d.Names() // none on an error
	for _, name := range names {
		if strings.HasPrefix(name, tempPrefix) {
			d.Remove(name)
		}
	}
}

// write serialises tx, dropping least recently used repositories beyond
// MaxRepos, and replaces the file atomically.
func (s *Store) write(d *privdir.Dir, tx *Tx) error {
	keys := slices.SortedFunc(maps.Keys(tx.repos), func(a, b string) int {
		return cmp.Or(cmp.Compare(tx.repos[b].used, tx.repos[a].used), strings.Compare(a, b))
	})
	if len(keys) > MaxRepos {
		keys = keys[:MaxRepos] // the least recently used are dropped
	}
	slices.Sort(keys) // the order search.go relies on
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %d\n", header, Version)
	line := func(head string, data []byte) {
		// Records are JSON, which never holds a raw newline, but a
		// caller's bug must not corrupt other records.
		buf.WriteString(head)
		buf.Write(bytes.ReplaceAll(data, []byte{'\n'}, []byte{' '}))
		buf.WriteByte('\n')
	}
	if len(tx.Global) > 0 {
		line("G\t", tx.Global)
	}
	for _, k := range keys {
		line(fmt.Sprintf("R\t%s\t%d\t", k, tx.repos[k].used), tx.repos[k].data)
	}
	return s.replace(d, buf.Bytes())
}

// replace writes data to a temp file in d and renames it over the state
// file, all through d's descriptor.
func (s *Store) replace(d *privdir.Dir, data []byte) (err error) {
	f, tmp, err := d.CreateTemp(tempPrefix)
	if err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			d.Remove(tmp)
			err = fmt.Errorf("write state: %w", err)
		}
	}()
	_, err = f.Write(data)
	if errors.Is(err, syscall.EFBIG) {
		// Go's runtime takes the SIGXFSZ that comes with it without
		// dying; say what limits the file.
		return fmt.Errorf("%w: the state is %d bytes, more than the file-size limit (ulimit -f) allows", err, len(data))
	}
	if err := errors.Join(err, f.Chmod(0o600), f.Sync(), f.Close()); err != nil {
		return err
	}
	base := filepath.Base(s.Path)
	if st, err := d.Lstat(base); err == nil && st.IsDir() {
		// A directory cannot be replaced by rename: keep it, moved aside.
		if err := d.Rename(base, fmt.Sprintf("%s.broken-%d", base, time.Now().UnixNano())); err != nil {
			return fmt.Errorf("move aside directory at state path: %w", err)
		}
	}
	if err := d.Rename(tmp, base); err != nil {
		return err
	}
	d.Sync()
	return nil
}

// TryLock takes a named non-blocking lock (the per-repository refresh
// lock) in the private "locks" directory; nil when another process holds
// it. The lock lives as long as the returned file is open in any process,
// so it can be handed to a child.
func (s *Store) TryLock(name string) (*os.File, error) {
	return s.WaitLock(name, 0)
}

// WaitLock is TryLock that waits up to d for the holder to finish.
func (s *Store) WaitLock(name string, d time.Duration) (*os.File, error) {
	locks, err := s.Sub("locks")
	if err != nil {
		return nil, err
	}
	f, err := locks.OpenFile(name+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	locks.Close()
	if err != nil {
		return nil, err
	}
	if ok, err := flockWithin(f, syscall.LOCK_EX, d); !ok {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WaitUnlocked waits up to d until nobody holds the named lock, and
// reports whether it saw it free. Unlike WaitLock it creates nothing and
// takes the lock only shared, for an instant: the zsh and fish waiters use
// it, and a waiter can outlive its shell (and the state directory). A lock
// in a directory prchip does not write in is not waited for.
func (s *Store) WaitUnlocked(name string, d time.Duration) bool {
	free, err := s.peekLock(name, d)
	return free || errors.Is(err, fs.ErrNotExist) // never locked: nothing to wait for
}

// Held reports whether another process holds the named lock now (a
// refresh in flight), for `status`. It tries the lock shared, once, and
// lets it go at once: a render trying it in those microseconds starts no
// refresh this once; the next prompt does. Anything that keeps it from
// looking (no lock yet, a directory prchip does not write in) reads as
// not held.
func (s *Store) Held(name string) bool {
	free, err := s.peekLock(name, 0)
	return !free && err == nil
}

// peekLock tries the named lock shared for up to d and lets it go,
// creating nothing (not even the state directory) and refusing a lock in
// a directory prchip does not write in.
func (s *Store) peekLock(name string, d time.Duration) (free bool, err error) {
	dir, err := privdir.Open(s.Dir())
	if err != nil {
		return false, err
	}
	locks, err := dir.Sub("locks", false)
	dir.Close()
	if err != nil {
		return false, err
	}
	f, err := locks.OpenFile(name+".lock", os.O_RDONLY, 0)
	locks.Close()
	if err != nil {
		return false, err
	}
	defer f.Close() // lets the shared lock go
	return flockWithin(f, syscall.LOCK_SH, d)
}

// flockWithin takes an flock of kind how on f, trying every 20 ms for up
// to d (once when d is 0). It reports false with a nil error when another
// process still holds a conflicting lock at the deadline.
func flockWithin(f *os.File, how int, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	return flockUntil(f, how, 20*time.Millisecond, func(now time.Time) bool { return !now.Before(deadline) })
}

// flockUntil is the one lock helper: it takes an flock of kind how on f,
// trying every step until giveUp says so, and reports false with a nil
// error when another process still holds a conflicting lock then.
func flockUntil(f *os.File, how int, step time.Duration, giveUp func(now time.Time) bool) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return false, err
		}
		if giveUp(time.Now()) {
			return false, nil
		}
		time.Sleep(step)
	}
}
