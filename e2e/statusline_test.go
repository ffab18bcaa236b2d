package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// statuslineWorld has a draft PR for the repository, already fetched, and
// a directory outside any repository: the default styles colour "draft".
func statuslineWorld(t *testing.T) (w *world, other string) {
	w = newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Add the chip", Draft: true})
	w.refresh(w.repo, 0)
	other = filepath.Join(w.home, "elsewhere")
	os.Mkdir(other, 0o755)
	return w, other
}

const (
	draftChip      = "#42 \x1b[90mdraft\x1b[0m\n"
	draftChipPlain = "#42 draft\n"
)

// statusline runs `prchip statusline` in dir with stdin, which may be nil
// (no stdin: /dev/null) or an *os.File; it must exit 0 and print no error.
func (w *world) statusline(t testing.TB, dir string, stdin io.Reader, args ...string) result {
	t.Helper()
	c := exec.Command(prchipBin, append([]string{"statusline"}, args...)...)
	c.Dir, c.Env, c.Stdin = dir, w.env(), stdin
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	start := time.Now()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		c.Process.Kill()
		t.Fatalf("statusline %v still running after 10 s", args)
	}
	r := result{stdout: o.String(), stderr: e.String(), took: time.Since(start)}
	if err != nil || r.stderr != "" {
		t.Fatalf("statusline %v: %v\nstdout: %q\nstderr: %s", args, err, r.stdout, r.stderr)
	}
	return r
}

// Claude Code's recorded status line JSON names the directory: the chip is
// that repository's, whatever directory the command runs in, with
// colours, or without under --plain, NO_COLOR and color = false.
func TestStatuslineRecordedInputs(t *testing.T) {
	w, other := statuslineWorld(t)
	samples, _ := filepath.Glob("../testdata/statusline/*.json")
	if len(samples) < 4 {
		t.Fatalf("%d samples in testdata/statusline", len(samples))
	}
	for _, path := range samples {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in := strings.NewReplacer("@REPO@", w.repo, "@OTHER@", other).Replace(string(raw))
			if got := w.statusline(t, other, strings.NewReader(in)).stdout; got != draftChip {
				t.Errorf("printed %q, want %q", got, draftChip)
			}
			if got := w.statusline(t, other, strings.NewReader(in), "--plain").stdout; got != draftChipPlain {
				t.Errorf("--plain printed %q, want %q", got, draftChipPlain)
			}
			w.extra["NO_COLOR"] = "1"
			defer delete(w.extra, "NO_COLOR")
			if got := w.statusline(t, other, strings.NewReader(in)).stdout; got != draftChipPlain {
				t.Errorf("NO_COLOR printed %q, want %q", got, draftChipPlain)
			}
		})
	}
	w.config("color = false\n")
	in := `{"cwd":"` + w.repo + `"}`
	if got := w.statusline(t, other, strings.NewReader(in)).stdout; got != draftChipPlain {
		t.Errorf("color = false printed %q, want %q", got, draftChipPlain)
	}
}

// Input that names no directory leaves the command's own; input that
// names one prchip cannot look at shows nothing. Nothing is an error.
func TestStatuslineOddInput(t *testing.T) {
	w, other := statuslineWorld(t)
	deep := strings.Repeat(`{"a":`, 200000) // deeper than any decoder should recurse
	for _, c := range []struct {
		name, in string
		want     string
	}{
		{"empty", "", draftChip},
		{"garbage", "\x00\xff<html>not json", draftChip},
		{"null", "null", draftChip},
		{"array", `["` + other + `"]`, draftChip},
		{"truncated", `{"cwd":"` + other, draftChip},
		{"no directory", `{"session_id":"x","model":{"id":"m"}}`, draftChip},
		{"empty directory", `{"cwd":"","workspace":{"current_dir":""}}`, draftChip},
		{"deeply nested", deep, draftChip},
		// Beyond 1 MiB nothing is read: the cwd at the end is never seen.
		{"huge", strings.Repeat(" ", 2<<20) + `{"cwd":"` + other + `"}`, draftChip},
		{"huge value", `{"cwd":"` + other + `","pad":"` + strings.Repeat("x", 2<<20) + `"}`, draftChip},
		{"wrong type", `{"workspace":"` + w.repo + `","cwd":"` + other + `"}`, ""},
		{"wrong type of current_dir", `{"workspace":{"current_dir":7},"cwd":"` + other + `"}`, ""},
		{"not a repository", `{"cwd":"` + other + `"}`, ""},
		{"missing directory", `{"workspace":{"current_dir":"` + filepath.Join(w.repo, "gone") + `"}}`, ""},
		{"a file", `{"cwd":"` + filepath.Join(w.repo, ".git", "HEAD") + `"}`, ""},
		{"relative", `{"cwd":"src/demo"}`, draftChip},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := w.repo
			if c.name == "relative" {
				dir = w.home
			}
			if got := w.statusline(t, dir, strings.NewReader(c.in)).stdout; got != c.want {
				t.Errorf("printed %q, want %q", got, c.want)
			}
		})
	}
}

// statusline never waits for input that does not come: stdin closed, at
// the end of its input, held open with nothing written, or a terminal.
// JSON on a pipe that stays open is answered without waiting for its end.
func TestStatuslineNeverBlocks(t *testing.T) {
	w, other := statuslineWorld(t)
	t.Run("closed", func(t *testing.T) {
		c := exec.Command("/bin/sh", "-c", `exec "$0" statusline <&-`, prchipBin)
		c.Dir, c.Env = w.repo, w.env()
		out, err := c.CombinedOutput()
		if err != nil || string(out) != draftChip {
			t.Fatalf("stdin closed: %v %q", err, out)
		}
	})
	t.Run("no stdin", func(t *testing.T) {
		if got := w.statusline(t, w.repo, nil).stdout; got != draftChip {
			t.Fatalf("printed %q", got)
		}
	})
	t.Run("held open", func(t *testing.T) {
		r, wr, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer wr.Close()
		res := w.statusline(t, w.repo, r)
		r.Close()
		if res.stdout != draftChip || res.took > 3*time.Second {
			t.Fatalf("printed %q after %v", res.stdout, res.took)
		}
	})
	t.Run("JSON held open", func(t *testing.T) {
		r, wr, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer wr.Close()
		// From the other directory: the chip shows only if the JSON was read.
		wr.WriteString(`{"cwd":"` + w.repo + `"}` + "\n")
		res := w.statusline(t, other, r)
		r.Close()
		if res.stdout != draftChip {
			t.Fatalf("printed %q after %v", res.stdout, res.took)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		// At a terminal, a line typed ahead is the shell's, not statusline's.
		w := shellWorld(t, "bash")
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Add the chip", Draft: true})
		w.refresh(w.repo, 0)
		tm := onTerminal(t, w, "bash")
		// (No history: bash would write it as tmux goes, while the test's
		// directory is removed.)
		tm.enter(`unset HISTFILE; sleep 1; ` + prchipBin + ` statusline --plain; read x; echo "typed:$x"`)
		time.Sleep(300 * time.Millisecond) // typed during the sleep, as the terminal's line
		tm.enter("next line")
		tm.waitFor("statusline's chip and the typed line", func(s string) bool {
			return strings.Contains(s, "\n#42 draft\n") && strings.Contains(s, "typed:next line")
		})
	})
}

// A status line redraws several times a second; a refresh still starts at
// most once per repository per freshness period: 20 redraws in a second
// with nothing stored yet start one gh run, and the chip then shows.
func TestStatuslineRefreshBound(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Add the chip"})
	in := `{"cwd":"` + w.repo + `","workspace":{"current_dir":"` + w.repo + `"}}`
	start := time.Now()
	var last string
	for i := range 20 {
		time.Sleep(time.Until(start.Add(time.Duration(i) * 50 * time.Millisecond)))
		last = w.statusline(t, w.home, strings.NewReader(in)).stdout
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Logf("20 redraws took %v", took)
	}
	w.settle()
	if n := w.prRequests(); n != 1 {
		t.Fatalf("20 status line redraws started %d gh runs, want 1", n)
	}
	if last == "" {
		last = w.statusline(t, w.home, strings.NewReader(in)).stdout
	}
	if last != "#42\n" {
		t.Fatalf("the chip after the refresh: %q", last)
	}
	if n := w.prRequests(); n != 1 {
		t.Fatalf("%d gh runs after the chip showed, want 1", n)
	}
}
