package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// prompt --dir renders for the directory named, not the working one; a
// directory that is not one prints nothing; nothing is an error.
func TestPromptDir(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Add the chip"})
	w.refresh(w.repo, 0)
	other := filepath.Join(w.home, "elsewhere")
	os.Mkdir(other, 0o755)
	for _, c := range []struct {
		name, cwd, dir, want string
	}{
		{"absolute", other, w.repo, "#42"},
		{"relative", w.home, "src/demo", "#42"},
		{"not a repository", w.repo, other, ""},
		{"empty", w.repo, "", ""},
		{"missing", w.repo, filepath.Join(w.repo, "gone"), ""},
		{"a file", w.repo, filepath.Join(w.repo, ".git", "HEAD"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := w.run(c.cwd, "prompt", "--no-refresh", "--dir", c.dir)
			if r.code != 0 || r.stderr != "" || r.stdout != c.want {
				t.Fatalf("prompt --dir %q: exit %d, printed %q, want %q; stderr %s", c.dir, r.code, r.stdout, c.want, r.stderr)
			}
		})
	}
}

// tmuxServer is a tmux server of the test's own, with the world's
// environment, which its status line's #() jobs inherit.
type tmuxServer struct {
	t          *testing.T
	tmux, sock string
	env        []string
}

func newTmux(t *testing.T, w *world, name string) *tmuxServer {
	s := &tmuxServer{t: t, tmux: need(t, "tmux"), sock: filepath.Join(w.home, name+".sock"), env: append(w.env(), "TERM=xterm")}
	t.Cleanup(func() { s.cmd("kill-server").Run() })
	return s
}

func (s *tmuxServer) cmd(args ...string) *exec.Cmd {
	c := exec.Command(s.tmux, append([]string{"-S", s.sock, "-f", "/dev/null"}, args...)...)
	c.Env = s.env
	return c
}

func (s *tmuxServer) do(args ...string) string {
	s.t.Helper()
	out, err := s.cmd(args...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// The README's status-right recipe on a real tmux: the pane's directory
// (not the session's) decides the chip, whatever its name; a title's '#'
// shows as '#' and runs nothing; colours are tmux styles. What tmux draws is read from
// a client attached on a second tmux, whose pane shows the first's status
// line as the terminal gets it.
func TestTmuxStatusLine(t *testing.T) {
	w := newWorld(t)
	pwned := filepath.Join(w.home, "pwned")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Draft: true,
		Title: "Fix #7 #(touch " + pwned + ") #{session_name} #[fg=red]x"})
	w.config("format = \"#{number} {title}( {state})\"\ntitle_width = 100\n")
	os.Symlink(prchipBin, filepath.Join(w.bin, "prchip")) // as installed: on PATH
	// The pane's directory goes into the command tmux runs: its name must
	// stay a name.
	repo := w.newRepo(`it's a $(touch pwned2) "dir"`, "feature", "https://"+fakegithub.Host+"/octo/demo.git")
	sleep := need(t, "sleep") + " 600"

	inner := newTmux(t, w, "inner")
	// The session starts outside the repository; its window is in it.
	inner.do("new-session", "-d", "-s", "work", "-x", "150", "-y", "10", "-c", w.home, sleep)
	inner.do("new-window", "-c", repo, sleep)
	inner.do("set", "-g", "status-interval", "1")
	inner.do("set", "-g", "status-right-length", "150")
	inner.do("source-file", writeFile(t, filepath.Join(w.home, "tmux.conf"), readmeTmuxRecipe(t)+"\n"))

	outer := newTmux(t, w, "outer")
	outer.do("new-session", "-d", "-x", "160", "-y", "12", inner.tmux+" -S "+inner.sock+" attach -t work")
	var line, styled string
	deadline := time.Now().Add(15 * time.Second)
	for {
		screen := strings.Split(strings.TrimRight(outer.do("capture-pane", "-p"), "\n"), "\n")
		line = screen[len(screen)-1]
		if strings.Contains(line, "#42") || time.Now().After(deadline) {
			screen = strings.Split(strings.TrimRight(outer.do("capture-pane", "-p", "-e"), "\n"), "\n")
			styled = screen[len(screen)-1]
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(line, "#42") {
		t.Fatalf("no chip in the status line:\n%q", line)
	}
	if want := "#42 Fix #7 #(touch " + pwned + ") #{session_name} #[fg=red]x draft "; !strings.Contains(line, want) {
		t.Errorf("status line shows\n%q\nwant it to hold\n%q", line, want)
	}
	// draft is bright black (the default style): SGR 90 in front of it,
	// and the title keeps the status line's own colour.
	if !strings.Contains(styled, "\x1b[90mdraft") || strings.Contains(styled, "\x1b[31m") {
		t.Errorf("styles: %q", styled)
	}
	for _, f := range []string{pwned, filepath.Join(w.home, "pwned2"), filepath.Join(repo, "pwned2")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created: the title or the directory's name ran", f)
		}
	}
}

// readmeTmuxRecipe is the README's tmux block: users paste it as it is.
func readmeTmuxRecipe(t *testing.T) string {
	for _, b := range readmeBlocks(t) {
		if b[0] == "tmux" {
			return strings.TrimSpace(b[1])
		}
	}
	t.Fatal("README has no tmux block")
	return ""
}

func writeFile(t *testing.T, path, body string) string {
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
