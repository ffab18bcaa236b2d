package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/clipperhouse/displaywidth"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/worker"
	"github.com/prchip/prchip/shellhooks"
)

// Set by the release build (-ldflags "-X ...").
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func runRefresh(opts *refreshOptions) error {
	o := opts.IO
	proc.BecomeSubreaper()
	env := o.engine(opts.Paths)
	warnProblems(o, env)
	f := env.Gather()
	if f.Repo != nil {
		lock, _ := env.Store.WaitLock(f.Key, env.Config.Timeout+2*time.Second)
		if lock != nil {
			defer lock.Close()
		}
	}
	results, err := env.Refresh(context.Background(), f, chip.RefreshOptions{Foreground: true, Force: opts.Force})
	code := ExitOK
	for _, r := range results {
		line, rc := describe(r)
		if len(results) > 1 {
			line = r.Name + ": " + line
		}
		fmt.Fprintln(o.Stdout, line)
		if r.Name == "pr" {
			code = rc
		}
	}
	if err != nil {
		return &ExitError{Code: max(code, ExitRetryable), Err: err}
	}
	if code != ExitOK {
		return &ExitError{Code: code}
	}
	return nil
}

// describe renders one refresh result as a line and its exit code.
func describe(r chip.RefreshResult) (string, int) {
	if r.Outcome == nil {
		why := map[string]string{
			state.ReasonModeOff:       "mode is off",
			state.ReasonSuppressed:    "suppressed after an auth failure or a missing gh; fix gh, or run prchip refresh --force",
			state.ReasonFailureCached: "this setup failed before (cached failure); fix gh's auth, or run prchip refresh --force",
			state.ReasonMissingGh:     "gh was missing and the setup has not changed",
		}[r.Skipped]
		if r.Name != "pr" && r.Skipped == state.ReasonFailureCached {
			// A shell chip's: about its command, not gh.
			why = "its command failed before, for this command and branch (suppress_on_failure); fix it, or run prchip refresh --force"
		}
		if why == "" {
			why = r.Skipped
		}
		code := ExitOK
		if r.Skipped != state.ReasonModeOff && r.Name == "pr" {
			code = ExitAuth
		}
		if r.Previous != nil && r.Previous.Category != "" {
			why += " [last: " + string(r.Previous.Class) + "/" + r.Previous.Category + "]"
		}
		return "skipped: " + why, code
	}
	o := r.Outcome
	var b strings.Builder
	b.WriteString(string(o.Class) + " (" + o.Category + ")")
	switch {
	case o.PR != nil:
		fmt.Fprintf(&b, ": #%d %s", o.PR.Number, o.PR.Title)
	case o.Value != "":
		b.WriteString(": " + o.Value)
	case o.Detail != "":
		b.WriteString(": " + o.Detail)
	}
	code := ExitOK
	switch o.Class {
	case classify.Retryable:
		code = ExitRetryable
	case classify.AuthFailure, classify.MissingGh:
		code = ExitAuth
	}
	return b.String(), code
}

func runStatus(c *statusOptions) error {
	env := c.IO.engine(c.Paths)
	f := env.Gather()
	s := env.Status(f)
	if c.Paths.StateNote != "" {
		s.Problems = append(s.Problems, sanitize.Text(c.Paths.StateNote, 2048))
	}
	s.Worker = worker.Find(c.Paths.State, time.Now())
	s.Hook = hookStatus(c.IO.Env)
	if c.JSON {
		b, err := s.JSON()
		if err != nil {
			return err
		}
		_, err = c.IO.Stdout.Write(b)
		return err
	}
	s.WriteHuman(c.IO.Stdout)
	return nil
}

func runInit(c *initOptions) error {
	exe := hookExecutable(os.Args[0], c.IO.Env)
	cfg := config.Load(c.Paths.Config)
	for _, p := range cfg.Problems {
		fmt.Fprintln(c.IO.Stderr, "prchip: warning: config", p.String())
	}
	s, ok := shellhooks.Snippet(c.Shell, shellhooks.Options{Exe: exe, InvalidateOn: cfg.InvalidateOn})
	if !ok {
		return usageError("%w %q: use one of zsh, bash, fish, starship", errUnknownShell, c.Shell)
	}
	fmt.Fprint(c.IO.Stdout, s)
	return nil
}

func runInvalidate(c *baseOptions, probe bool, once string) error {
	env := c.IO.engine(c.Paths)
	warnProblems(c.IO, env)
	f := env.Gather()
	var err error
	if probe {
		err = env.InvalidateProbe(f, once)
	} else {
		_, err = env.Invalidate(f, once)
	}
	if err != nil {
		// Exit 0 per the contract: the hook must never disturb the shell.
		fmt.Fprintln(c.IO.Stderr, "prchip: invalidate:", err)
	}
	return nil
}

func runReset(c *resetOptions) error {
	env := c.IO.engine(c.Paths)
	warnProblems(c.IO, env)
	f := env.Gather()
	rep, err := env.Reset(f, c.All)
	if err != nil {
		fmt.Fprintln(c.IO.Stderr, "prchip: reset:", err)
		return nil
	}
	fmt.Fprintln(c.IO.Stdout, resetLine(rep, env.Dir, env.Store.Path))
	return nil
}

// resetLine says what a reset forgot, and where.
func resetLine(r chip.ResetReport, dir, stateFile string) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	validation := "validation is unvalidated again (it was " + string(r.Was) + ")"
	if r.Was == state.Unvalidated {
		validation = "validation stays unvalidated"
	}
	var what string
	switch {
	case r.All:
		what = fmt.Sprintf("reset everything in %s: forgot %s and the global validation",
			sanitize.Text(stateFile, 4096), plural(r.Repos, "repository", "repositories"))
	case r.Root == "":
		what = "not in a repository (" + sanitize.Text(dir, 4096) + "): reset the global validation only"
	case r.Chips == 0:
		what = "reset " + sanitize.Text(r.Root, 4096) + ": nothing was stored for it"
	default:
		what = fmt.Sprintf("reset %s: forgot %s on %s (%s, %d in backoff)", sanitize.Text(r.Root, 4096),
			plural(r.Chips, "chip result", "chip results"), plural(r.Branches, "branch", "branches"),
			plural(r.Cached, "cached failure", "cached failures"), r.Backoff)
	}
	return what + "; " + validation
}

func runVersion(c *baseOptions) error {
	fmt.Fprintln(c.IO.Stdout, versionLine())
	return nil
}

// versionLine is "prchip VERSION (commit C, built D)": from the release
// build's -X flags, else from the module's build information.
func versionLine() string {
	v, cm, d := version, commit, date
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && cm == "":
				cm = s.Value
			case s.Key == "vcs.time" && d == "":
				d = s.Value
			}
		}
	}
	if cm == "" {
		cm = "unknown"
	}
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("prchip %s (commit %s, built %s)", v, cm, d)
}

func runConfig(c *baseOptions) error {
	cfg := config.Load(c.Paths.Config)
	fmt.Fprintf(c.IO.Stdout, "# effective configuration; file: %s\n", sanitize.Text(cfg.Path, 0))
	entries := cfg.Effective()
	// The comments line up in columns: a format or symbol may hold wide
	// characters, which fmt's padding (by runes) would miscount.
	width := 0
	for _, e := range entries {
		width = max(width, displaywidth.String(e.Key+" = "+e.Value))
	}
	for _, e := range entries {
		line := e.Key + " = " + e.Value
		fmt.Fprintf(c.IO.Stdout, "%s%*s  # %s\n", line, width-displaywidth.String(line), "", e.Source)
	}
	for _, p := range cfg.Problems {
		fmt.Fprintln(c.IO.Stderr, "prchip: config", p.String())
	}
	if len(cfg.Problems) > 0 {
		return &ExitError{Code: ExitUsage}
	}
	return nil
}

// hookExecutable is the path the hooks call prchip by: the path it was run
// by (as typed, or found on PATH) when that is this very binary, else the
// binary's resolved path. A package manager's stable link (Homebrew's
// bin/prchip) outlives upgrades; the versioned file it points at is
// deleted by the next one, which would leave every open shell's hook
// calling a path that is gone.
func hookExecutable(arg0 string, e env.Env) string {
	exe, err := os.Executable()
	if err != nil {
		return "prchip"
	}
	self, err := rawfile.Stat(exe)
	if err != nil {
		return exe
	}
	var p string
	var st rawfile.FileInfo
	if strings.Contains(arg0, "/") {
		if p, err = filepath.Abs(arg0); err == nil {
			st, err = rawfile.Stat(p)
		}
	} else if p, st = ghauth.LookPath(arg0, e); p == "" {
		err = os.ErrNotExist
	}
	if err != nil || st.ID != self.ID {
		return exe
	}
	return p
}
