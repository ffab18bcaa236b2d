package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// internal/oneproc drops the second processor only to gain from it if no
// initialiser allocated before it (see its package comment). The runtime's
// init trace shows the order the linker chose and what each init allocated.
func TestOneProcessorBeforeAnyAllocation(t *testing.T) {
	w := newWorld(t)
	w.extra["GODEBUG"] = "inittrace=1"
	r := w.run(w.repo, "prompt", "--shell", "zsh", "--no-refresh")
	if r.code != 0 {
		t.Fatalf("prompt: exit %d\n%s", r.code, r.stderr)
	}
	line := regexp.MustCompile(`^init (\S+) @.* (\d+) bytes, (\d+) allocs$`)
	var seen, allocsAfter int
	found := false
	for _, l := range strings.Split(r.stderr, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		seen++
		if m[1] == "github.com/prchip/prchip/internal/oneproc" {
			found = true
			continue
		}
		if m[2] == "0" && m[3] == "0" {
			continue
		}
		if !found {
			t.Errorf("%s allocates before internal/oneproc's init: %s", m[1], l)
		}
		allocsAfter++
	}
	if !found || allocsAfter == 0 {
		t.Fatalf("init trace: oneproc found %v, %d of %d inits allocate after it\n%s", found, allocsAfter, seen, r.stderr)
	}
}

// main.go's //go:debug line reaches the binary.
func TestNoGOMAXPROCSUpdater(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", prchipBin).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s+build\s+DefaultGODEBUG=(.*,)?updatemaxprocs=0(,|$)`).Match(out) {
		t.Fatalf("updatemaxprocs=0 not in the binary's default GODEBUG:\n%s", out)
	}
}
