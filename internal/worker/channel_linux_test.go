package worker

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The worker takes requests only over FIFOs its own user alone can open:
// a request's PATH and HOME choose what a refresh runs. A FIFO directory
// or FIFO open to the group or others, or not a FIFO, is refused.
func TestWorkerChannelMustBePrivate(t *testing.T) {
	cases := []struct {
		name            string
		dirMode, fifo   os.FileMode
		regular, linked bool
		ok              bool
	}{
		{name: "as the hook makes it", dirMode: 0o700, fifo: 0o600, ok: true},
		{name: "directory others may enter", dirMode: 0o755, fifo: 0o600},
		{name: "directory the group may write", dirMode: 0o770, fifo: 0o600},
		{name: "FIFO others may write", dirMode: 0o700, fifo: 0o622},
		{name: "FIFO the group may read", dirMode: 0o700, fifo: 0o640},
		{name: "a regular file", dirMode: 0o700, fifo: 0o600, regular: true},
		{name: "directory through a symlink", dirMode: 0o700, fifo: 0o600, linked: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "fifos")
			os.Mkdir(dir, 0o700)
			var files []*os.File
			for _, name := range []string{"req", "resp"} {
				p := filepath.Join(dir, name)
				if c.regular {
					os.WriteFile(p, nil, 0o600)
				} else if err := syscall.Mkfifo(p, 0o600); err != nil {
					t.Fatal(err)
				}
				os.Chmod(p, c.fifo)
				f, err := os.OpenFile(p, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				files = append(files, f)
			}
			os.Chmod(dir, c.dirMode)
			if c.linked {
				link := filepath.Join(base, "link")
				os.Symlink(dir, link)
				dir = link
			}
			err := privateChannel(dir, files...)
			if c.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !c.ok && !errors.Is(err, errSharedChannel) {
				t.Fatalf("accepted (%v), want errSharedChannel", err)
			}
		})
	}
}
