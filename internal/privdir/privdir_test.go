package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

// other is the user id that plays another user (nobody).
const other = 65534

// describe lists dir and what is under it, not following links.
func describe(dir string) string {
	var lines []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			st := info.Sys().(*syscall.Stat_t)
			lines = append(lines, fmt.Sprintf("%s %v %d %d", p, info.Mode(), st.Uid, st.Ino))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Make makes the directory and its missing parents 0700, and what is done
// in it lands in it.
func TestMake(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "prchip")
	d, err := Make(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, p := range []string{path, filepath.Dir(path)} {
		if st, err := os.Lstat(p); err != nil || st.Mode() != fs.ModeDir|0o700 {
			t.Fatalf("%s: %v %v", p, st.Mode(), err)
		}
	}
	f, tmp, err := d.CreateTemp(".t")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("hello")
	f.Close()
	if err := d.Rename(tmp, "file"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(path, "file")); err != nil || string(b) != "hello" {
		t.Fatalf("%q %v", b, err)
	}
	if st, err := d.Lstat("file"); err != nil || st.Mode&0o777 != 0o600 || st.IsDir() {
		t.Fatalf("%o %v", st.Mode, err)
	}
	if names, err := d.Names(); err != nil || len(names) != 1 || names[0] != "file" {
		t.Fatalf("%v %v", names, err)
	}
	if err := d.Remove("file"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.OpenFile("../escape", os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		t.Fatal("a name with a slash was opened")
	}
}

// A link, a file, another user's directory and one others can write are
// refused by Open and Make alike, with the reason, and nothing is made in
// or chmodded through them: a link's target keeps its mode.
func TestRefused(t *testing.T) {
	cases := []struct {
		name, want string
		root       bool
		make       func(t *testing.T, path string) string // returns what must not change
	}{
		{"link to a directory", "is a symbolic link", false, func(t *testing.T, p string) string {
			target := filepath.Join(t.TempDir(), "target")
			os.Mkdir(target, 0o755)
			os.Chmod(target, 0o755)
			os.Symlink(target, p)
			return target
		}},
		{"dangling link", "is a symbolic link", false, func(t *testing.T, p string) string {
			os.Symlink(filepath.Join(t.TempDir(), "nothing"), p)
			return filepath.Dir(p)
		}},
		{"file", "is not a directory", false, func(t *testing.T, p string) string {
			os.WriteFile(p, nil, 0o600)
			return p
		}},
		{"another user's", "belongs to uid 65534", true, func(t *testing.T, p string) string {
			os.Mkdir(p, 0o755)
			os.Chown(p, other, other)
			return p
		}},
		{"world-writable", "can be written by others (mode 0777)", false, func(t *testing.T, p string) string {
			os.Mkdir(p, 0o777)
			os.Chmod(p, 0o777)
			return p
		}},
		{"group-writable", "can be written by others (mode 0770)", false, func(t *testing.T, p string) string {
			os.Mkdir(p, 0o770)
			os.Chmod(p, 0o770)
			return p
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.root {
				testenv.NeedRoot(t)
			}
			path := filepath.Join(t.TempDir(), "prchip")
			kept := c.make(t, path)
			before := describe(kept)
			for name, open := range map[string]func(string) (*Dir, error){"Open": Open, "Make": Make} {
				d, err := open(path)
				if d != nil || !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("%s: %v, want ErrUnsafe saying %q", name, err, c.want)
				}
			}
			if after := describe(kept); after != before {
				t.Fatalf("changed:\n%s\nnow:\n%s", before, after)
			}
		})
	}
}

// Sub refuses a link and tightens what it makes use of; OpenFile never
// follows a link.
func TestSubAndOpenFileNeverFollow(t *testing.T) {
	d, err := Make(filepath.Join(t.TempDir(), "prchip"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	target := t.TempDir()
	os.Chmod(target, 0o755)
	os.Symlink(target, filepath.Join(d.Path(), "locks"))
	os.Symlink(filepath.Join(target, "f"), filepath.Join(d.Path(), "f"))
	before := describe(target)
	if s, err := d.Sub("locks", true); s != nil || !errors.Is(err, ErrUnsafe) {
		t.Fatalf("Sub through a link: %v", err)
	}
	if _, err := d.OpenFile("f", os.O_CREATE|os.O_WRONLY, 0o600); !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("OpenFile through a link: %v", err)
	}
	if after := describe(target); after != before {
		t.Fatalf("the link's target changed:\n%s\nnow:\n%s", before, after)
	}
	os.Mkdir(filepath.Join(d.Path(), "workers"), 0o755)
	os.Chmod(filepath.Join(d.Path(), "workers"), 0o755)
	s, err := d.Sub("workers", true)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if st, _ := os.Lstat(filepath.Join(d.Path(), "workers")); st.Mode() != fs.ModeDir|0o700 {
		t.Fatalf("workers %v, want drwx------", st.Mode())
	}
	if s, err := d.Sub("missing", false); s != nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Sub of a missing directory without create: %v", err)
	}
}

// Nothing is made in a directory of another user's, sticky or not (its
// owner could remove or replace what is made there).
func TestNothingMadeInAnotherUsersDirectory(t *testing.T) {
	testenv.NeedRoot(t)
	for _, mode := range []os.FileMode{0o777, 0o777 | os.ModeSticky} {
		t.Run(mode.String(), func(t *testing.T) {
			theirs := filepath.Join(t.TempDir(), "theirs")
			os.Mkdir(theirs, 0o777)
			os.Chmod(theirs, mode)
			os.Chown(theirs, other, other)
			before := describe(theirs)
			for _, p := range []string{filepath.Join(theirs, "prchip"), filepath.Join(theirs, "state", "prchip")} {
				if d, err := Make(p); d != nil || !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "belongs to uid 65534") {
					t.Fatalf("Make %s: %v", p, err)
				}
			}
			if after := describe(theirs); after != before {
				t.Fatalf("made something in another user's directory:\n%s", after)
			}
		})
	}
}
