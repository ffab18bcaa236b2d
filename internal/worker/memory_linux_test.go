package worker

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The answer memory ends only for a change to an entry the render looked
// at (or to the next part of a path still missing), not for any change in
// the same directory: a shell writing its history file in $HOME, where
// ~/.gitconfig is looked for, must not cost every prompt a render.
func TestAnswerCacheWatchesNames(t *testing.T) {
	dir := t.TempDir()
	looked := []touched{
		{path: filepath.Join(dir, "gitconfig")},              // missing file
		{path: filepath.Join(dir, "missing", "deep", "cfg")}, // missing directories
		{path: filepath.Join(dir, "state")},
	}
	os.WriteFile(filepath.Join(dir, "state"), []byte("1"), 0o600)
	c := newAnswerCache()
	if c == nil {
		t.Skip("no inotify")
	}
	later := time.Now().Add(time.Hour)
	steps := []struct {
		what    string
		do      func()
		changed bool
	}{
		{"another file written", func() { os.WriteFile(filepath.Join(dir, ".zsh_history"), []byte("x"), 0o600) }, false},
		{"another directory made", func() { os.Mkdir(filepath.Join(dir, "elsewhere"), 0o700) }, false},
		{"the missing file made", func() { os.WriteFile(filepath.Join(dir, "gitconfig"), []byte("x"), 0o600) }, true},
		{"the file looked at replaced", func() {
			os.WriteFile(filepath.Join(dir, ".tmp"), []byte("2"), 0o600)
			os.Rename(filepath.Join(dir, ".tmp"), filepath.Join(dir, "state"))
		}, true},
		{"the missing directory made", func() { os.Mkdir(filepath.Join(dir, "missing"), 0o700) }, true},
	}
	for _, s := range steps {
		if !c.watch(looked) {
			t.Fatal("cannot watch")
		}
		c.set("k", "chip", later)
		if _, ok := c.lookup("k", time.Now()); !ok {
			t.Fatalf("%s: no answer before the change", s.what)
		}
		s.do()
		if _, ok := c.lookup("k", time.Now()); ok == s.changed {
			t.Errorf("%s: answer kept %v, want %v", s.what, ok, !s.changed)
		}
	}
}
