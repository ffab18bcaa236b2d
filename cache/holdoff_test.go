package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHoldoff(t *testing.T) {
	h := Holdoff{Dir: filepath.Join(t.TempDir(), "run", "prchip")}
	now := time.Unix(1_800_000_000, 0)
	if u, n := h.Until("k", now, time.Hour); !u.IsZero() || n != 0 {
		t.Fatalf("nothing set: %v %d", u, n)
	}
	if err := h.Set("k", now.Add(time.Minute), 2); err != nil {
		t.Fatal(err)
	}
	if u, n := h.Until("k", now, time.Hour); !u.Equal(now.Add(time.Minute)) || n != 2 {
		t.Fatalf("got %v %d", u, n)
	}
	if u, _ := h.Until("other", now, time.Hour); !u.IsZero() {
		t.Fatal("another key is held off")
	}
	// Further ahead than the longest wait: not trusted (the clock stepped
	// back), though the count still is.
	if u, n := h.Until("k", now, 30*time.Second); !u.IsZero() || n != 2 {
		t.Fatalf("a time beyond max trusted: %v %d", u, n)
	}
	os.WriteFile(filepath.Join(h.Dir, holdoffName("k")), []byte("garbage"), 0o600)
	if u, n := h.Until("k", now, time.Hour); !u.IsZero() || n != 0 {
		t.Fatalf("garbage read as %v %d", u, n)
	}
	h.Clear("k")
	if _, err := os.Stat(filepath.Join(h.Dir, holdoffName("k"))); !os.IsNotExist(err) {
		t.Fatalf("not cleared: %v", err)
	}
	// A runtime directory that is not private is not used.
	shared := Holdoff{Dir: t.TempDir()}
	os.Chmod(shared.Dir, 0o777)
	if err := shared.Set("k", now, 1); err == nil {
		if fi, _ := os.Stat(shared.Dir); fi.Mode().Perm()&0o077 != 0 {
			t.Fatal("wrote into a directory others can write")
		}
	}
}
