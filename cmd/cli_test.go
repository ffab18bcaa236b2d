package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"

	"github.com/prchip/prchip/chip/proc"
)

func runIn(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	code := run(&IO{Stdout: &out, Stderr: &errb, Dir: dir}, Paths{State: filepath.Join(dir, "state"), Config: filepath.Join(dir, "config.toml")}, args)
	return out.String(), errb.String(), code
}

// TestCompletionsUpToDate fails when completions/ drifts from what
// `prchip completion` prints. Fix: go generate ./cmd
func TestCompletionsUpToDate(t *testing.T) {
	for _, sh := range completionShells {
		want, errs, code := runIn(t, "completion", sh)
		if code != ExitOK || errs != "" || len(want) < 100 {
			t.Fatalf("%s: exit %d %q (%d bytes)", sh, code, errs, len(want))
		}
		file := "prchip." + strings.Replace(sh, "powershell", "ps1", 1)
		got, err := os.ReadFile(filepath.Join("..", "completions", file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("completions/%s is out of date: run go generate ./cmd", file)
		}
	}
}

// Every command has --help, prompt too, and `help CMD` says the same.
func TestHelpOnEveryCommand(t *testing.T) {
	for _, c := range NewRoot(&IO{}, Paths{}).Commands() {
		if c.Hidden {
			continue
		}
		out, errs, code := runIn(t, c.Name(), "--help")
		if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "prchip "+c.Name()) || errs != "" {
			t.Errorf("%s --help: exit %d\n%s%s", c.Name(), code, out, errs)
		}
		if c.Name() == "help" {
			continue
		}
		if again, _, _ := runIn(t, "help", c.Name()); again != out {
			t.Errorf("help %s differs from %s --help", c.Name(), c.Name())
		}
	}
	if out, _, code := runIn(t, "prompt", "--help"); code != 0 || !strings.Contains(out, "--no-refresh") || strings.Contains(out, "--wait") {
		t.Errorf("prompt --help shows its flags, not the hidden ones:\n%s", out)
	}
}

// Mistakes exit 2 with a message on stderr, and say what was meant.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"statsu"}, "Did you mean this?\n\tstatus"},
		{[]string{"status", "--jsn"}, "Did you mean this?\n\t--json"},
		{[]string{"refresh", "--frce"}, "--force"},
		{[]string{"status", "extra"}, "unknown command"},
		{[]string{"init"}, "prchip init needs a shell: zsh, bash, fish or starship"},
		{[]string{"init", "tcsh"}, `unknown shell "tcsh" for prchip init: use zsh, bash, fish or starship`},
		{[]string{"init", "zsh", "bash"}, "takes one shell"},
		{[]string{"completion"}, "prchip completion needs a shell: bash, zsh, fish or powershell"},
		{[]string{"completion", "tcsh"}, `unknown shell "tcsh"`},
		{[]string{"reset", "--all", "x"}, "unknown command"},
		{[]string{"worker", "--shell", "tcsh"}, "zsh, bash or fish"},
		{[]string{"worker", "--shell", "fish", "--pid", "2"}, "--files names the fish hook's directory"},
		{[]string{"worker", "--shell", "fish", "--pid", "2", "--files", "relative"}, "--files names the fish hook's directory"},
	} {
		out, errs, code := runIn(t, c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
	if out, errs, code := runIn(t); code != ExitUsage || out != "" || !strings.Contains(errs, "Usage:") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want 2 and help on stderr", code, out, errs)
	}
}

// The prompt never complains, whatever it is given.
func TestPromptNeverComplains(t *testing.T) {
	for _, args := range [][]string{{"prompt", "--bogus"}, {"prompt", "--shell", "tcsh"}, {"prompt", "--shell"}, {"prompt", "extra"}} {
		out, errs, code := runIn(t, args...)
		if code != 0 || out != "" || errs != "" {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, out, errs)
		}
	}
}

func TestVersion(t *testing.T) {
	a, _, code := runIn(t, "version")
	b, _, _ := runIn(t, "--version")
	if code != 0 || !strings.HasPrefix(a, "prchip ") || a != b {
		t.Errorf("version %q, --version %q", a, b)
	}
}

// Commands run in-process with their runner injected: refresh with a gh
// that "answers" 401 exits 4 and leaves the chip suppressed, and nothing
// was started.
func TestRefreshWithInjectedRunner(t *testing.T) {
	dir := t.TempDir()
	repoDir := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repoDir, ".git"), 0o755)
	os.WriteFile(filepath.Join(repoDir, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	os.WriteFile(filepath.Join(repoDir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://github.com/o/r.git\n"+
		"[branch \"feature\"]\n\tremote = origin\n\tmerge = refs/heads/feature\n"), 0o644)
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "gh"), nil, 0o755) // found on PATH, never run
	t.Setenv("PATH", bin)
	t.Setenv("GH_CONFIG_DIR", filepath.Join(dir, "gh"))
	var calls []proc.Command
	fake := func(_ context.Context, c proc.Command) proc.Result {
		calls = append(calls, c)
		return proc.Result{ExitCode: 1, Stderr: []byte("HTTP 401: Bad credentials (https://api.github.com/graphql)\n")}
	}
	paths := Paths{State: filepath.Join(dir, "state", "prchip", "state"), Config: filepath.Join(dir, "config.toml")}
	var out, errb bytes.Buffer
	o := &IO{Stdout: &out, Stderr: &errb, Dir: repoDir, Run: fake}
	if code := run(o, paths, []string{"refresh"}); code != ExitAuth {
		t.Fatalf("refresh: exit %d, want %d\n%s%s", code, ExitAuth, out.String(), errb.String())
	}
	// The refresh's first question (is the repository a fork?) is
	// refused, and that ends it: one call.
	if len(calls) != 1 || calls[0].Path != filepath.Join(bin, "gh") || calls[0].Args[0] != "api" || calls[0].Dir != repoDir {
		t.Fatalf("runner calls %+v", calls)
	}
	out.Reset()
	if code := run(o, paths, []string{"status", "--json"}); code != 0 || !strings.Contains(out.String(), `"validation": "suppressed"`) {
		t.Fatalf("status after the 401: exit %d\n%s", code, out.String())
	}
}

// A command's run function takes its options struct: a test builds one
// with its own streams and paths and calls it directly.
func TestCommandsTakeTheirOptions(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	base := baseOptions{IO: &IO{Stdout: &out, Stderr: &errb, Dir: dir}, Paths: Paths{State: filepath.Join(dir, "state"), Config: filepath.Join(dir, "config.toml")}}
	if err := runReset(&resetOptions{baseOptions: base, All: true}); err != nil || !strings.HasPrefix(out.String(), "reset everything in "+base.Paths.State+": ") {
		t.Fatalf("reset --all: %v %q %q", err, out.String(), errb.String())
	}
	out.Reset()
	if err := runStatus(&statusOptions{baseOptions: base, JSON: true}); err != nil || !strings.Contains(out.String(), `"state_file": "`+base.Paths.State+`"`) {
		t.Fatalf("status --json: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runInit(&initOptions{baseOptions: base, Shell: "fish"}); err != nil || !strings.Contains(out.String(), "fish_prompt") {
		t.Fatalf("init fish: %v\n%s", err, out.String())
	}
}

// `prchip config` lines its comments up in display columns, whatever wide
// characters (CJK, emoji) a value holds.
func TestConfigColumnsWithWideValues(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte("format = \"#{number} 修正 🚀 {title}\"\n[symbols]\nmerged = \"マージ済み\"\n"), 0o600)
	if code := run(&IO{Stdout: &out, Stderr: &errb, Dir: dir}, Paths{State: filepath.Join(dir, "state"), Config: cfg}, []string{"config"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	cols := map[int]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		i := strings.Index(line, "  # ")
		cols[displaywidth.String(line[:i])] = true
	}
	if len(cols) != 1 || !strings.Contains(out.String(), "修正") {
		t.Errorf("comments start at columns %v:\n%s", cols, out.String())
	}
}
