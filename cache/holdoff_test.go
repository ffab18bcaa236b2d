package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHoldoff(t *testing.T) {
	h := Holdoff{Dirs: []string{filepath.Join(t.TempDir(), "run", "prchip")}}
	dir := h.Dirs[0]
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
	os.WriteFile(filepath.Join(dir, holdoffName("k")), []byte("garbage"), 0o600)
	if u, n := h.Until("k", now, time.Hour); !u.IsZero() || n != 0 {
		t.Fatalf("garbage read as %v %d", u, n)
	}
	h.Clear("k")
	if _, err := os.Stat(filepath.Join(dir, holdoffName("k"))); !os.IsNotExist(err) {
		t.Fatalf("not cleared: %v", err)
	}
	// A runtime directory another user made first is passed over for the
	// next one.
	taken := filepath.Join(t.TempDir(), "taken")
	os.Mkdir(taken, 0o777)
	os.Chown(taken, 65534, 65534)
	h2 := Holdoff{Dirs: []string{taken, filepath.Join(t.TempDir(), "next")}}
	if err := h2.Set("k", now.Add(time.Minute), 1); err != nil {
		t.Fatal(err)
	}
	if names, _ := os.ReadDir(taken); len(names) != 0 && os.Geteuid() == 0 {
		t.Fatalf("wrote into another user's directory: %v", names)
	}
	if u, n := h2.Until("k", now, time.Hour); !u.Equal(now.Add(time.Minute)) || n != 1 {
		t.Fatalf("hold-off in the next directory not found: %v %d", u, n)
	}
}
