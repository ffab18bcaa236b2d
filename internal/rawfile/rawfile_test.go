package rawfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadMapStat(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("hello"), 0o640)
	b, info, err := Read(p, 100, 0, nil)
	if err != nil || string(b) != "hello" || info.Size != 5 || !info.IsRegular() || info.Perm() != 0o640 {
		t.Fatalf("Read: %q %+v %v", b, info, err)
	}
	m, _, unmap, err := Map(p, 100, 0, nil)
	if err != nil || string(m) != "hello" {
		t.Fatalf("Map: %q %v", m, err)
	}
	if unmap != nil {
		unmap()
	}
	if _, _, err := Read(p, 4, 0, nil); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
	if _, _, err := Read(filepath.Join(dir, "missing"), 4, 0, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, _, err := Read(dir, 4, 0, nil); err == nil {
		t.Fatal("a directory was read")
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	if m, _, unmap, err := Map(empty, 4, 0, nil); err != nil || len(m) != 0 {
		t.Fatalf("empty map: %v", err)
	} else {
		if unmap != nil {
			unmap()
		}
	}
	st, err := Stat(p)
	osst, _ := os.Stat(p)
	if err != nil || st.Size != 5 || st.MtimeNs != osst.ModTime().UnixNano() || st.Ino == 0 {
		t.Fatalf("Stat: %+v %v", st, err)
	}
	if _, err := Stat(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
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
		_, _, err := Read(p, 100, syscall.O_NONBLOCK, nil)
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

// Files from mapMin up are mapped, smaller ones read; both give the bytes.
func TestMapLargeAndSmall(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{1, mapMin - 1, mapMin, 3*mapMin + 17} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + size)
		}
		p := filepath.Join(dir, "f")
		os.WriteFile(p, want, 0o600)
		got, info, unmap, err := Map(p, 1<<30, 0, nil)
		if err != nil || info.Size != int64(size) || string(got) != string(want) {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
		if mapped := unmap != nil; mapped != (size >= mapMin) {
			t.Fatalf("size %d: mapped %v", size, mapped)
		}
		if unmap != nil {
			unmap()
		}
		if _, _, _, err := Map(p, int64(size-1), 0, nil); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("size %d over the limit: %v", size, err)
		}
	}
}
