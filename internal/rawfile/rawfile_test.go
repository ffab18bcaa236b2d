package rawfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadOpenStat(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("hello"), 0o640)
	b, info, err := untracked.Read(p, 100, 0, nil)
	if err != nil || string(b) != "hello" || info.Size != 5 || !info.IsRegular() || info.Perm() != 0o640 {
		t.Fatalf("Read: %q %+v %v", b, info, err)
	}
	f, _, err := untracked.Open(p, 100, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.ReadAll(5, 100)
	f.Close()
	if err != nil || string(m) != "hello" {
		t.Fatalf("ReadAll: %q %v", m, err)
	}
	if _, _, err := untracked.Read(p, 4, 0, nil); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
	if _, _, err := untracked.Read(filepath.Join(dir, "missing"), 4, 0, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, _, err := untracked.Read(dir, 4, 0, nil); err == nil {
		t.Fatal("a directory was read")
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	if f, _, err := untracked.Open(empty, 4, 0, nil); err != nil {
		t.Fatalf("empty: %v", err)
	} else if m, err := f.ReadAll(0, 4); err != nil || len(m) != 0 {
		t.Fatalf("empty: %q %v", m, err)
	} else {
		f.Close()
	}
	st, err := untracked.Stat(p)
	osst, _ := os.Stat(p)
	if err != nil || st.Size != 5 || st.MtimeNs != osst.ModTime().UnixNano() || st.Ino == 0 {
		t.Fatalf("Stat: %+v %v", st, err)
	}
	if _, err := untracked.Stat(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat missing: %v", err)
	}
}

// A FIFO is refused without blocking when opened non-blocking.
func TestFIFONeverBlocks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := untracked.Read(p, 100, syscall.O_NONBLOCK, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read as a file")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}

// ReadAt reads exactly what is at an offset, short only at the end, for
// files and windows of any size; Open applies Read's limit.
func TestReadAt(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{1, 1000, 64 << 10, 3<<16 + 17} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + size)
		}
		p := filepath.Join(dir, "f")
		os.WriteFile(p, want, 0o600)
		f, info, err := untracked.Open(p, 1<<30, 0, nil)
		if err != nil || info.Size != int64(size) {
			t.Fatalf("size %d: %+v %v", size, info, err)
		}
		for _, off := range []int{0, 1, size / 2, size - 1, size, size + 5} {
			for _, n := range []int{1, 7, 4096, size + 10} {
				buf := make([]byte, n)
				got, err := f.ReadAt(buf, int64(off))
				end := min(max(off, 0)+n, size)
				exp := []byte{}
				if off < size {
					exp = want[off:end]
				}
				if err != nil || string(buf[:got]) != string(exp) {
					t.Fatalf("size %d: ReadAt(%d bytes, %d) = %d, %v", size, n, off, got, err)
				}
			}
		}
		f.Close()
		if _, _, err := untracked.Open(p, int64(size-1), 0, nil); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("size %d over the limit: %v", size, err)
		}
	}
}

// Paths shorter and longer than the stack buffer they are passed in; a
// NUL byte is refused as the os package refuses it.
func TestPathLengths(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{1, 100, 159, 160, 161, 300} {
		sub := dir
		for len(sub) < n {
			sub = filepath.Join(sub, "d")
		}
		os.MkdirAll(sub, 0o700)
		p := filepath.Join(sub, "f")
		os.WriteFile(p, []byte("x"), 0o600)
		if b, _, err := untracked.Read(p, 10, 0, nil); err != nil || string(b) != "x" {
			t.Fatalf("path of %d bytes: %q %v", len(p), b, err)
		}
		if st, err := untracked.Stat(p); err != nil || st.Size != 1 {
			t.Fatalf("stat of %d bytes: %v", len(p), err)
		}
	}
	if _, _, err := untracked.Read(dir+"/a\x00b", 10, 0, nil); err == nil {
		t.Fatal("a path with NUL was opened")
	}
	if _, err := untracked.Stat(dir + "\x00"); err == nil {
		t.Fatal("a path with NUL was stat'ed")
	}
}

// TestReadDirNames lists what os.ReadDir lists, dot files included, for
// a directory large enough to need several reads.
func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		name := fmt.Sprintf("entry-%03d-%s", i, strings.Repeat("x", i%40))
		if i%7 == 0 {
			name = "." + name
		}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	got, err := untracked.ReadDirNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var want []string
	for _, e := range ents {
		want = append(want, e.Name())
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("got %d names, want %d", len(got), len(want))
	}
	if _, err := untracked.ReadDirNames(filepath.Join(dir, "sub", "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing directory: %v", err)
	}
	if _, err := untracked.ReadDirNames(filepath.Join(dir, ".entry-000-")); err == nil {
		t.Fatal("a file listed as a directory")
	}
}

// The one file identity: a file replaced has a new ID (the worker ends
// when its binary is upgraded, an answer is not reused for a directory
// made again), one rewritten in place keeps it and has a new Version (a
// gh hosts.yml edited), and a link is followed.
func TestIdentityAndVersion(t *testing.T) {
	for _, c := range []struct {
		name            string
		change          func(t *testing.T, p string)
		sameID, sameVer bool
		gone            bool
	}{
		{"untouched", func(*testing.T, string) {}, true, true, false},
		{"rewritten in place", func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(" and more")
			f.Close()
		}, true, false, false},
		{"replaced", func(t *testing.T, p string) {
			os.WriteFile(p+".new", []byte("version 1"), 0o644)
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		}, false, false, false},
		{"removed", func(t *testing.T, p string) { os.Remove(p) }, false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f")
			os.WriteFile(p, []byte("version 1"), 0o644)
			os.Symlink(p, filepath.Join(dir, "link"))
			id, ver := Identity(p), untracked.Version(p)
			if id == (ID{}) || ver == "" || Identity(filepath.Join(dir, "link")) != id {
				t.Fatalf("before: identity %v (through the link %v), version %q", id, Identity(filepath.Join(dir, "link")), ver)
			}
			c.change(t, p)
			id2, ver2 := Identity(p), untracked.Version(p)
			if (id2 == id) != c.sameID || (ver2 == ver) != c.sameVer || (id2 == ID{} && ver2 == "") != c.gone {
				t.Fatalf("identity %v -> %v, version %q -> %q; want same identity %v, same version %v, gone %v",
					id, id2, ver, ver2, c.sameID, c.sameVer, c.gone)
			}
			if st, err := untracked.Stat(p); err == nil && st.ID != id2 {
				t.Fatalf("Stat's ID %v, Identity %v", st.ID, id2)
			}
		})
	}
}

// untracked is a Reader that tells no one, as commands other than the
// render read.
var untracked Reader
