package cache

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	return &Store{Path: filepath.Join(t.TempDir(), "prchip", "state")}
}

func put(t *testing.T, s *Store, key, val string) {
	t.Helper()
	if err := s.Update(func(tx *Tx) error {
		tx.SetGlobal([]byte(`{"validation":"validated"}`))
		tx.PutRepo(key, []byte(val))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTripAndPermissions(t *testing.T) {
	s := newStore(t)
	put(t, s, "aa", `{"x":1}`)
	put(t, s, "bb", `{"x":2}`)
	g, r, p := s.ReadRepo("bb")
	if p != nil || string(g) != `{"validation":"validated"}` || string(r) != `{"x":2}` {
		t.Fatalf("read %q %q %v", g, r, p)
	}
	if _, r, _ := s.ReadRepo("cc"); r != nil {
		t.Fatalf("absent key read %q", r)
	}
	st, _ := os.Stat(s.Path)
	dst, _ := os.Stat(s.Dir())
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("modes %v %v", st.Mode(), dst.Mode())
	}
}

// Every broken state file reads as empty with a problem, never hangs, and
// the next write repairs it.
func TestBrokenStateFiles(t *testing.T) {
	cases := []struct {
		name  string
		make  func(t *testing.T, path string)
		label string
	}{
		{"empty", func(t *testing.T, p string) { os.WriteFile(p, nil, 0o600) }, ""},
		{"truncated header", func(t *testing.T, p string) { os.WriteFile(p, []byte("prchip-st"), 0o600) }, "truncated"},
		{"truncated record", func(t *testing.T, p string) {
			os.WriteFile(p, []byte("prchip-state 2\nG\t{}\nR\tk\t1\t{\"x\""), 0o600)
		}, "truncated"},
		{"foreign", func(t *testing.T, p string) { os.WriteFile(p, []byte("{\"hello\": \"json\"}\n"), 0o600) }, "not a prchip state file"},
		{"binary garbage", func(t *testing.T, p string) { os.WriteFile(p, []byte("\x00\xff\xfe\n\x1b[31m"), 0o600) }, "not a prchip state file"},
		{"newer version", func(t *testing.T, p string) { os.WriteFile(p, []byte("prchip-state 99\nG\t{}\n"), 0o600) }, "version 99"},
		{"FIFO", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip(err)
			}
		}, "not a regular file"},
		{"directory", func(t *testing.T, p string) { os.MkdirAll(filepath.Join(p, "sub"), 0o700) }, "directory"},
		{"symlink elsewhere", func(t *testing.T, p string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			os.WriteFile(target, []byte("prchip-state 2\n"), 0o600)
			os.Symlink(target, p)
		}, "symbolic link"},
		{"world-writable", func(t *testing.T, p string) {
			os.WriteFile(p, []byte("prchip-state 2\n"), 0o600)
			os.Chmod(p, 0o666)
		}, "others write"},
		{"oversized", func(t *testing.T, p string) {
			f, _ := os.Create(p)
			f.Truncate(100 << 20)
			f.Close()
			os.Chmod(p, 0o600)
		}, "more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			os.MkdirAll(s.Dir(), 0o700)
			c.make(t, s.Path)
			start := time.Now()
			g, r, p := s.ReadRepo("k")
			if g != nil || r != nil {
				t.Fatalf("read data from a broken file: %q %q", g, r)
			}
			if c.label != "" && (p == nil || !strings.Contains(p.Error(), c.label)) {
				t.Fatalf("problem %v, want one mentioning %q", p, c.label)
			}
			if tx := s.Load(); tx.Len() != 0 {
				t.Fatal("Load found repositories")
			}
			put(t, s, "k", `{"ok":true}`)
			if _, r, p := s.ReadRepo("k"); p != nil || string(r) != `{"ok":true}` {
				t.Fatalf("not repaired: %q %v", r, p)
			}
			if time.Since(start) > 2*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
			st, err := os.Lstat(s.Path)
			if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
				t.Fatalf("after repair: %v %v", st, err)
			}
		})
	}
}

func TestDirectoryMovedAsideNotLost(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(filepath.Join(s.Path, "keep"), 0o700)
	put(t, s, "k", `{}`)
	matches, _ := filepath.Glob(s.Path + ".broken-*")
	if len(matches) != 1 {
		t.Fatalf("directory not kept aside: %v", matches)
	}
	if _, err := os.Stat(filepath.Join(matches[0], "keep")); err != nil {
		t.Fatal(err)
	}
}

func TestLRUBound(t *testing.T) {
	s := newStore(t)
	clock := time.Unix(1_000_000, 0)
	s.Now = func() time.Time { return clock }
	for i := range MaxRepos + 20 {
		clock = clock.Add(time.Second)
		put(t, s, fmt.Sprintf("r%03d", i), `{}`)
	}
	tx := s.Load()
	if tx.Len() != MaxRepos {
		t.Fatalf("%d repositories kept", tx.Len())
	}
	if tx.Repo("r000") != nil || tx.Repo(fmt.Sprintf("r%03d", MaxRepos+19)) == nil {
		t.Fatal("dropped the wrong repositories")
	}
}

func TestUpdateWritesNothingWhenUnchanged(t *testing.T) {
	s := newStore(t)
	put(t, s, "k", `{}`)
	st1, _ := os.Stat(s.Path)
	time.Sleep(10 * time.Millisecond)
	if err := s.Update(func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(s.Path)
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatal("an empty transaction rewrote the file")
	}
}

func TestFirstRecordWithoutGlobal(t *testing.T) {
	s := newStore(t)
	if err := s.Update(func(tx *Tx) error { tx.PutRepo("k", []byte(`{"v":1}`)); return nil }); err != nil {
		t.Fatal(err)
	}
	if g, r, p := s.ReadRepo("k"); g != nil || string(r) != `{"v":1}` || p != nil {
		t.Fatalf("%q %q %v", g, r, p)
	}
}

func TestRecordCannotBreakFormat(t *testing.T) {
	s := newStore(t)
	put(t, s, "k", "{\"a\":\n\"b\"}")
	put(t, s, "j", `{}`)
	if _, r, p := s.ReadRepo("j"); p != nil || string(r) != `{}` {
		t.Fatalf("%q %v", r, p)
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores directory permissions; the e2e test uses a
		// read-only bind or a file-size limit instead.
		t.Skip("root bypasses permissions")
	}
	s := newStore(t)
	put(t, s, "k", `{"v":1}`)
	os.Chmod(s.Dir(), 0o500)
	defer os.Chmod(s.Dir(), 0o700)
	if err := s.Update(func(tx *Tx) error { tx.PutRepo("k", []byte(`{"v":2}`)); return nil }); err == nil {
		t.Fatal("write into a read-only directory succeeded")
	}
	if _, r, _ := s.ReadRepo("k"); !bytes.Equal(r, []byte(`{"v":1}`)) {
		t.Fatalf("old state lost: %q", r)
	}
}

func TestTryLockExcludes(t *testing.T) {
	s := newStore(t)
	a, err := s.TryLock("repo")
	if err != nil || a == nil {
		t.Fatalf("first lock: %v", err)
	}
	if b, err := s.TryLock("repo"); b != nil || err != nil {
		t.Fatalf("second lock taken: %v", err)
	}
	a.Close()
	if b, _ := s.TryLock("repo"); b == nil {
		t.Fatal("lock not released")
	} else {
		b.Close()
	}
}

// Held sees a refresh lock another holder has, creates nothing when there
// is none, and lets go at once: the holder's next taker gets the lock.
func TestHeld(t *testing.T) {
	gone := &Store{Path: filepath.Join(t.TempDir(), "no", "such", "state")}
	if gone.Held("repo") {
		t.Fatal("a lock never taken is held")
	}
	if _, err := os.Stat(filepath.Dir(gone.Path)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Held created the state directory: %v", err)
	}
	s := newStore(t)
	a, err := s.TryLock("repo")
	if err != nil || a == nil {
		t.Fatalf("lock: %v", err)
	}
	if !s.Held("repo") || s.Held("other") {
		t.Fatal("Held does not see the held lock, or sees another")
	}
	a.Close()
	if s.Held("repo") {
		t.Fatal("held after the holder let go")
	}
	if b, _ := s.TryLock("repo"); b == nil {
		t.Fatal("Held kept the lock")
	} else {
		b.Close()
	}
}

// A waiter returns once the holder lets go, gives up at its deadline, and
// creates nothing: not the lock file, not the state directory.
func TestWaitUnlocked(t *testing.T) {
	gone := &Store{Path: filepath.Join(t.TempDir(), "no", "such", "state")}
	if !gone.WaitUnlocked("repo", time.Minute) {
		t.Fatal("a lock never taken counts as held")
	}
	if _, err := os.Stat(filepath.Dir(gone.Path)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the waiter created the state directory: %v", err)
	}

	s := newStore(t)
	held, err := s.TryLock("repo")
	if err != nil || held == nil {
		t.Fatalf("lock: %v", err)
	}
	if s.WaitUnlocked("repo", 50*time.Millisecond) {
		t.Fatal("saw a held lock free")
	}
	var released atomic.Bool
	go func() {
		time.Sleep(200 * time.Millisecond)
		released.Store(true)
		held.Close()
	}()
	if !s.WaitUnlocked("repo", time.Minute) {
		t.Fatal("gave up before the deadline")
	}
	if !released.Load() {
		t.Fatal("returned while the lock was still held")
	}
	again, _ := s.TryLock("repo")
	if again == nil {
		t.Fatal("the waiter kept the lock")
	}
	again.Close()
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("prchip-state 1\nG\t{}\nR\tk\t1\t{}\n"))
	f.Add([]byte("prchip-state 1\nR\tk\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &Store{Path: "/nonexistent/state"}
		tx := s.parse(b)
		for k, e := range tx.repos {
			if strings.ContainsAny(k, "\t\n") || bytes.IndexByte(e.data, '\n') >= 0 {
				t.Fatalf("record escaped its line: %q", k)
			}
		}
	})
}

// other is the user id that plays another user (nobody).
const other = 65534

// describe lists dir and everything under it (not following links) with
// mode, owner and identity: what a write or a chmod would change.
func describe(dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			st := info.Sys().(*syscall.Stat_t)
			fmt.Fprintf(&b, "%s %v %d %d %d\n", p, info.Mode(), st.Uid, st.Ino, info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}

// The state directory is the user's (SPEC 5): no write and no lock is
// made through a link, in another user's directory or in one others can
// write, and no chmod reaches a link's target; the error says what is
// wrong.
func TestUnsafeStateDirectory(t *testing.T) {
	cases := []struct {
		name, want string
		// make prepares the state directory and returns what must stay
		// as it is.
		make func(t *testing.T, dir string) string
		// stateOK: the state itself may be written (the problem is below).
		stateOK bool
	}{
		{"symlink", "symbolic link", func(t *testing.T, dir string) string {
			target := filepath.Join(t.TempDir(), "target")
			os.Mkdir(target, 0o755)
			os.Chmod(target, 0o755) // what the old code chmodded to 0700
			os.Symlink(target, dir)
			return target
		}, false},
		{"another user's", "belongs to uid 65534", func(t *testing.T, dir string) string {
			if os.Geteuid() != 0 {
				t.Skip("needs root to make another user's directory")
			}
			os.Mkdir(dir, 0o700)
			os.Chown(dir, other, other)
			return dir
		}, false},
		{"writable by others", "written by others", func(t *testing.T, dir string) string {
			os.Mkdir(dir, 0o777)
			os.Chmod(dir, 0o777)
			return dir
		}, false},
		{"locks is a symlink", "symbolic link", func(t *testing.T, dir string) string {
			target := filepath.Join(t.TempDir(), "target")
			os.Mkdir(target, 0o755)
			os.Mkdir(dir, 0o700)
			os.Symlink(target, filepath.Join(dir, "locks"))
			return target
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			os.MkdirAll(filepath.Dir(s.Dir()), 0o700)
			kept := c.make(t, s.Dir())
			before := describe(kept)
			err := s.Update(func(tx *Tx) error { tx.PutRepo("k", []byte(`{}`)); return nil })
			if !c.stateOK && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("Update: %v, want an error saying %q", err, c.want)
			}
			lock, err := s.TryLock("repo")
			if lock != nil || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("TryLock: %v %v, want no lock and an error saying %q", lock, err, c.want)
			}
			if after := describe(kept); after != before {
				t.Fatalf("changed:\n%s\nnow:\n%s", before, after)
			}
		})
	}
}

// A state directory of the user's with group or other permissions is
// tightened to 0700; one that is not a link stays one.
func TestStateDirectoryTightened(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(s.Dir(), 0o755)
	os.Chmod(s.Dir(), 0o755)
	put(t, s, "k", `{}`)
	if st, err := os.Lstat(s.Dir()); err != nil || st.Mode() != fs.ModeDir|0o700 {
		t.Fatalf("state directory %v %v, want drwx------", st.Mode(), err)
	}
}

// A holder of the write lock that writes nothing (stopped, or no writer
// at all) keeps a writer waiting LockQuiet, not seconds; the error says
// what happened, and nothing is written.
func TestStuckLockHolder(t *testing.T) {
	s := newStore(t)
	put(t, s, "k", `{"v":1}`)
	held, err := os.OpenFile(s.Path+".lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.Update(func(tx *Tx) error { tx.PutRepo("k", []byte(`{"v":2}`)); return nil })
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("waited %v for a holder that writes nothing", took)
	}
	if err == nil || !strings.Contains(err.Error(), "holds the state lock") {
		t.Fatalf("Update under a stuck lock: %v", err)
	}
	if _, r, _ := s.ReadRepo("k"); string(r) != `{"v":1}` {
		t.Fatalf("state %q", r)
	}
	held.Close()
	put(t, s, "k", `{"v":3}`)
}

// Writers that get through in turn keep the others waiting, past
// LockQuiet, as long as the state keeps changing: none gives up.
func TestBusyLockWaitsItsTurn(t *testing.T) {
	s := newStore(t)
	put(t, s, "k", `{}`)
	const writers, each = 10, 2
	hold := LockQuiet / 6 // the last of 10 in the queue waits longer than LockQuiet
	errs := make(chan error, writers*each)
	for i := range writers {
		go func() {
			for j := range each {
				errs <- s.Update(func(tx *Tx) error {
					time.Sleep(hold)
					tx.PutRepo(fmt.Sprintf("w%d-%d", i, j), []byte(`{}`))
					return nil
				})
			}
		}()
	}
	for range writers * each {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := s.Load().Len(); n != writers*each+1 {
		t.Fatalf("%d records, want %d", n, writers*each+1)
	}
}

// When the state directory takes no write, what an update changed is kept
// in the spare and read as if it were in the state file; the next write
// that reaches the state file takes it in and removes the spare. A reset
// is never kept aside, and a spare others could have written is none.
func TestSpareKeepsWhatTheStateDirectoryWouldNotTake(t *testing.T) {
	s := newStore(t)
	spareDir := filepath.Join(t.TempDir(), "run", "prchip")
	s.Spare = []string{spareDir}
	spare := s.spareIn(spareDir).Path
	put(t, s, "aa", `{"v":1}`)
	put(t, s, "bb", `{"v":1}`)
	// Everyone may write the state directory now: prchip writes nothing
	// there (root too, unlike a permission).
	os.Chmod(s.Dir(), 0o777)
	putAside := func(key, val string) {
		t.Helper()
		err := s.Update(func(tx *Tx) error { tx.PutRepo(key, []byte(val)); return nil })
		if err == nil || !strings.Contains(err.Error(), "kept meanwhile in "+spare) {
			t.Fatalf("update: %v", err)
		}
	}
	putAside("aa", `{"v":2}`)
	if b, _ := os.ReadFile(s.Path); !bytes.Contains(b, []byte("\taa\t")) || bytes.Contains(b, []byte(`{"v":2}`)) {
		t.Fatalf("the state file changed after all:\n%s", b)
	}
	b, err := os.ReadFile(spare)
	if err != nil || !bytes.Contains(b, []byte("R\taa\t")) || bytes.Contains(b, []byte("R\tbb\t")) {
		t.Fatalf("the spare does not hold just the record changed: %v\n%s", err, b)
	}
	if st, _ := os.Stat(spareDir); st == nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("spare directory %v", st)
	}
	for _, key := range []string{"aa", "bb"} {
		g, r, p := s.ReadRepo(key)
		want := map[string]string{"aa": `{"v":2}`, "bb": `{"v":1}`}[key]
		if string(r) != want || string(g) != `{"validation":"validated"}` || p == nil || !strings.Contains(p.Error(), spare) {
			t.Fatalf("%s: read %q %q %v", key, g, r, p)
		}
	}
	if tx := s.Load(); string(tx.Repo("aa")) != `{"v":2}` || tx.Len() != 2 || tx.Problem != nil {
		t.Fatalf("Load: %q %d %v", tx.Repo("aa"), tx.Len(), tx.Problem)
	}
	// A second update builds on the spare, which keeps both records.
	putAside("cc", `{"v":2}`)
	if _, r, _ := s.ReadRepo("aa"); string(r) != `{"v":2}` {
		t.Fatalf("the spare lost aa: %q", r)
	}
	if err := s.Update(func(tx *Tx) error { tx.Reset(); return nil }); err == nil {
		t.Fatal("a reset was kept in the spare")
	}
	// Another state file has a spare of its own.
	other := &Store{Path: filepath.Join(t.TempDir(), "state"), Spare: s.Spare}
	if _, r, p := other.ReadRepo("aa"); r != nil || p != nil {
		t.Fatalf("another state file read this one's spare: %q %v", r, p)
	}
	// A spare others could have written is not read.
	os.Chmod(spare, 0o666)
	if _, r, p := s.ReadRepo("aa"); string(r) != `{"v":1}` || p != nil {
		t.Fatalf("a spare others may write was read: %q %v", r, p)
	}
	os.Chmod(spare, 0o600)
	// The directory is fixed: the next write takes the spare in.
	os.Chmod(s.Dir(), 0o700)
	if err := s.Update(func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(spare); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the spare outlived a write of the state file: %v", err)
	}
	for key, want := range map[string]string{"aa": `{"v":2}`, "bb": `{"v":1}`, "cc": `{"v":2}`} {
		if _, r, p := s.ReadRepo(key); string(r) != want || p != nil {
			t.Fatalf("%s after the spare was taken in: %q %v", key, r, p)
		}
	}
}
