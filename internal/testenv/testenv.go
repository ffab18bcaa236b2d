// Package testenv holds what tests in several packages need from the
// machine: under CI (CI=true) a missing program fails the test, elsewhere it
// skips it, so a CI machine cannot pass by leaving a shell or gh out.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Need returns the path of program name, or skips t; under CI it fails t.
func Need(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missing(t, name+" is not on PATH")
	}
	return p
}

// NeedFile returns path if it exists, or skips t; under CI it fails t.
// For what a package installs that is not a program (bash-completion).
func NeedFile(t testing.TB, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		missing(t, err.Error())
	}
	return path
}

func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("required in CI: %s", why)
	}
	t.Skipf("not installed: %s", why)
}

// NeedRoot skips a test that must make files of another user (it plays
// one with chown); under CI, which runs as root, it fails instead.
func NeedRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("must run as root in CI: it plays another user with chown")
		}
		t.Skip("needs root to play another user")
	}
}

// FIFOPair makes the FIFOs req and resp (0600) in dir, as the hooks make
// a worker's, and opens both read-write: no open blocks, and a worker's
// or hook's open of either end finds the other end there.
func FIFOPair(t testing.TB, dir string) (req, resp *os.File) {
	t.Helper()
	var files []*os.File
	for _, name := range []string{"req", "resp"} {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		files = append(files, f)
	}
	return files[0], files[1]
}
