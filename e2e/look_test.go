package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/fakegithub"
)

func (w *world) config(body string) {
	w.t.Helper()
	os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
	if err := os.WriteFile(w.configPath(), []byte(body), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// The real gh asks GitHub for review and checks only when the format
// shows them, and the chip shows what came back.
func TestFormatFieldsThroughRealGh(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 12, Title: "Rich", Review: "APPROVED",
		Checks: []fakegithub.Check{{Name: "build", Status: "COMPLETED", Conclusion: "SUCCESS"}, {Name: "test", Status: "COMPLETED", Conclusion: "FAILURE"}}})
	w.refresh(w.repo, 0)
	if q := w.srv.LastQuery(); strings.Contains(q, "statusCheckRollup") || strings.Contains(q, "reviewDecision") {
		t.Fatalf("the default format asked for review or checks:\n%s", q)
	}
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#12" {
		t.Fatalf("default chip %q", got)
	}
	w.config(`format = "#{number} {title}( {review})( {checks})"` + "\n")
	w.refresh(w.repo, 0)
	q := w.srv.LastQuery()
	if !strings.Contains(q, "statusCheckRollup") || !strings.Contains(q, "reviewDecision") {
		t.Fatalf("review and checks not asked for:\n%s", q)
	}
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#12 Rich approved failing" {
		t.Fatalf("rich chip %q", got)
	}
}

func TestMergedAndClosedNeverLookOpen(t *testing.T) {
	w := newWorld(t)
	for _, st := range []string{"MERGED", "CLOSED"} {
		// The PR's head is the branch's commit: the history check keeps it.
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, State: st, HeadOid: w.head(w.repo)})
		w.refresh(w.repo, 0)
		want := "#42 " + strings.ToLower(st)
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != want {
			t.Fatalf("%s shown as %q", st, got)
		}
	}
}

// Colours use the shell's own zero-width markers; NO_COLOR turns them off;
// links appear only when enabled and never for starship by default.
func TestColoursLinksAndNoColor(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, State: "MERGED", HeadOid: w.head(w.repo)})
	w.config("hyperlinks = true\n[styles]\nnumber = \"bold\"\n")
	w.refresh(w.repo, 0)
	zsh := w.run(w.repo, "prompt", "--shell", "zsh", "--no-refresh").stdout
	if !strings.Contains(zsh, "%{\x1b[35m%}merged%{\x1b[0m%}") || !strings.Contains(zsh, "\x1b]8;;https://github.localhost/octo/demo/pull/42") {
		t.Fatalf("zsh chip %q", zsh)
	}
	bash := w.run(w.repo, "prompt", "--shell", "bash", "--no-refresh").stdout
	if !strings.Contains(bash, "\x01\x1b[35m\x02merged\x01\x1b[0m\x02") {
		t.Fatalf("bash chip %q", bash)
	}
	if plain := w.run(w.repo, "prompt", "--no-refresh").stdout; plain != "#42 merged" {
		t.Fatalf("plain (starship) chip %q: no colour, no link by default", plain)
	}
	w.extra["NO_COLOR"] = "1"
	if fish := w.run(w.repo, "prompt", "--shell", "fish", "--no-refresh").stdout; strings.Contains(fish, "\x1b[") {
		t.Fatalf("NO_COLOR ignored: %q", fish)
	}
}

func TestOnRetryableKeep(t *testing.T) {
	w := newWorld(t)
	w.config("on_retryable = \"keep\"\n")
	w.srv.SetPR("feature", fakegithub.PR{Number: 6})
	w.refresh(w.repo, 0)
	w.srv.SetMode(fakegithub.BadGateway)
	w.refresh(w.repo, 1)
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#6 ?" {
		t.Fatalf("kept chip %q, want it marked stale", got)
	}
	w.config("on_retryable = \"clear\"\n")
	w.refresh(w.repo, 1)
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "" {
		t.Fatalf("cleared chip %q", got)
	}
}

func TestConfigCommand(t *testing.T) {
	w := newWorld(t)
	w.config("mode = \"always\"\n\n[chips.k8s]\ncommand = \"true\"\n")
	r := w.run(w.repo, "config")
	if r.code != 0 || !strings.Contains(r.stdout, `mode = "always"`) || !strings.Contains(r.stdout, "config.toml:1") ||
		!strings.Contains(r.stdout, `timeout = "5s"`) || !strings.Contains(r.stdout, "# default") ||
		!strings.Contains(r.stdout, "chips.k8s.command") {
		t.Fatalf("prchip config:\n%s\n%s", r.stdout, r.stderr)
	}
	w.config("mode = \"sometimes\"\n")
	if r := w.run(w.repo, "config"); r.code != 2 || !strings.Contains(r.stderr, `config.toml:1: key "mode"`) {
		t.Fatalf("bad config: %d %q", r.code, r.stderr)
	}
}

// The release build's -X flags (goreleaser.yaml) reach `prchip version`.
func TestVersionInjection(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "prchip")
	ld := "-X github.com/prchip/prchip/cmd.version=1.2.3 -X github.com/prchip/prchip/cmd.commit=abc123 -X github.com/prchip/prchip/cmd.date=2026-11-30T00:00:00Z"
	c := exec.Command("go", "build", "-ldflags", ld, "-o", bin, "github.com/prchip/prchip")
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || string(out) != "prchip 1.2.3 (commit abc123, built 2026-11-30T00:00:00Z)\n" {
		t.Fatalf("version: %v %q", err, out)
	}
	// goreleaser.yaml must use the same variable paths.
	y, _ := os.ReadFile("../goreleaser.yaml")
	for _, v := range []string{"cmd.version={{ .Version }}", "cmd.commit={{ .FullCommit }}", "cmd.date={{ .Date }}"} {
		if !strings.Contains(string(y), "github.com/prchip/prchip/"+v) {
			t.Errorf("goreleaser.yaml lacks %s", v)
		}
	}
}

// goreleaser accepts the release configuration.
func TestGoreleaserCheck(t *testing.T) {
	gr := need(t, "goreleaser")
	c := exec.Command(gr, "check")
	c.Dir = ".."
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
}
