package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

// TestBenchmarkReports runs the benchmark behind scripts/bench for a few
// rounds, so that the harness docs/performance.md's numbers come from cannot rot:
// both state files, every line the issue asks for, and run's own checks
// (each render printed the chip; the server saw exactly the one refresh
// that made the state, so no render started another).
func TestBenchmarkReports(t *testing.T) {
	testenv.Need(t, "gh")
	testenv.Need(t, "git")
	testenv.Need(t, "/usr/bin/time")
	dir := t.TempDir()
	bin, hello := filepath.Join(dir, "prchip"), filepath.Join(dir, "hello")
	if err := os.WriteFile(filepath.Join(dir, "hello.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-o", bin, "github.com/prchip/prchip"}, {"-o", hello, filepath.Join(dir, "hello.go")}} {
		build := exec.Command("go", append([]string{"build"}, args...)...)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	bp, err := filepath.Abs(filepath.Join("..", "..", "e2e", "testdata", "bash-preexec", "bash-preexec.sh"))
	if err != nil {
		t.Fatal(err)
	}
	bashPreexecFile = bp
	var out strings.Builder
	for _, sh := range []string{"zsh", "bash", "fish"} {
		testenv.Need(t, sh)
	}
	if err := run(options{out: &out, prchip: bin, floor: hello, runs: 4, copies: 2, shells: true, shellRounds: 5, memRequests: 40}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{
		`(?m)^1 repository in the state file \(\d+ bytes\):$`,
		`(?m)^500 repositories in the state file \(\d{6} bytes\):$`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("no match for %s in:\n%s", want, text)
		}
	}
	line := func(name string) string {
		return `(?m)^  ` + regexp.QuoteMeta(name) + ` +median +\d+\.\d\d ms +ratio to git \d+\.\d\d \(\d+\.\d\d \d+\.\d\d\) +page faults +\d+\.\d$`
	}
	for name, n := range map[string]int{
		"prchip prompt --shell zsh":       2,
		"git rev-parse --abbrev-ref HEAD": 2,
		"Go hello world (start-up floor)": 2,
	} {
		if got := len(regexp.MustCompile(line(name)).FindAllString(text, -1)); got != n {
			t.Errorf("%d lines for %q, want %d:\n%s", got, name, n, text)
		}
	}
	if got := len(regexp.MustCompile(`(?m)^  peak RSS of the render: \d+\.\d MiB$`).FindAllString(text, -1)); got != 2 {
		t.Errorf("%d peak RSS lines, want 2:\n%s", got, text)
	}
	// Each shell with both state files, all through the worker (fish's
	// too: the run fails when fish reports no worker).
	for _, want := range []string{
		`(?m)^  zsh +1 repo +\(worker\) +ratio \d+\.\d{3} +\(hooks +\d+ us, git +\d+ us\)`,
		`(?m)^  zsh +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  zsh, asking each prompt +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  zsh, asking each prompt +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash, asking each prompt +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash, asking each prompt +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash\+preexec \(all hooks\) +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash\+preexec \(all hooks\) +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash\+preexec \(prchip's hook\) +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  bash\+preexec \(prchip's hook\) +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  fish +1 repo +\(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  fish +500 repos \(worker\) +ratio \d+\.\d{3}`,
		`(?m)^  zsh worker after 40 requests: RSS \d+\.\d MiB, private \d+\.\d MiB$`,
		`(?m)^  fish worker after \d+ requests: RSS \d+\.\d MiB, private \d+\.\d MiB$`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("no match for %s in:\n%s", want, text)
		}
	}
}
