package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/chip"
)

// Set by the release build (-ldflags "-X ...").
var (
	version = "dev"
	commit  = ""
	date    = ""
)

// NewRoot builds the command tree for everything but the render path.
func NewRoot(io *IO, paths Paths) *cobra.Command {
	root := &cobra.Command{
		Use:           "prchip",
		Short:         "Show the current branch's GitHub pull request in your prompt",
		Long:          "prchip shows the GitHub pull request of the current git branch as a chip in a shell prompt.\nIts render path answers from local state; gh runs in the background.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(io.Stdout)
	root.SetErr(io.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath())}
	})
	root.CompletionOptions.HiddenDefaultCmd = false
	root.AddCommand(
		newPromptCmd(),
		newRefreshCmd(io, paths),
		newStatusCmd(io, paths),
		newInitCmd(io, paths),
		newInvalidateCmd(io, paths),
		newResetCmd(io, paths),
		newVersionCmd(io),
	)
	return root
}

func usageArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%s takes %d argument(s), got %d\nUsage: %s", c.Name(), n, len(args), c.UseLine())}
		}
		return nil
	}
}

// newPromptCmd exists for help and completion; Main runs the render path
// before cobra is reached.
func newPromptCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "prompt [--shell zsh|bash|fish|plain] [--no-refresh]",
		Short: "Print the chip for the current directory (the render path)",
		Args:  usageArgs(0),
		RunE:  func(c *cobra.Command, args []string) error { return nil },
	}
	c.Flags().String("shell", "plain", "escape the chip for this shell: zsh, bash, fish or plain")
	c.Flags().Bool("no-refresh", false, "never start a background refresh")
	c.RegisterFlagCompletionFunc("shell", cobra.FixedCompletions([]string{"zsh", "bash", "fish", "plain"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func newRefreshCmd(io *IO, paths Paths) *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "refresh [--force]",
		Short: "Run the chip command now and print the outcome",
		Long: "refresh decides exactly as the prompt would (suppression, cached failures) but ignores\n" +
			"freshness and backoff. --force also ignores suppression and cached failures.\n" +
			"Exit status: 0 validated or not applicable, 1 retryable, 4 auth failure or missing gh.",
		Args: usageArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			return runRefresh(io, paths, force)
		},
	}
	c.Flags().BoolVar(&force, "force", false, "also ignore suppression and a cached failure")
	return c
}

func runRefresh(io *IO, paths Paths, force bool) error {
	chip.BecomeSubreaper()
	env := io.env(paths)
	warnProblems(io, env)
	f := chip.Gather(env.Dir, env.Time())
	if f.Repo != nil {
		lock, _ := env.Store.WaitLock(f.Key, env.Config.Timeout+2*time.Second)
		if lock != nil {
			defer lock.Close()
		}
	}
	results, err := env.Refresh(context.Background(), f, chip.RefreshOptions{Foreground: true, Force: force})
	code := ExitOK
	for i, r := range results {
		line, c := describe(r)
		if i == 0 || r.Name != "pr" {
			if len(results) > 1 {
				line = r.Name + ": " + line
			}
			fmt.Fprintln(io.Stdout, line)
		}
		if r.Name == "pr" {
			code = c
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
func describe(r chip.RunResult) (string, int) {
	if r.Outcome == nil {
		why := map[string]string{
			chip.ReasonModeOff:       "mode is off",
			chip.ReasonSuppressed:    "suppressed after an auth failure or missing gh; fix gh, or run prchip refresh --force",
			chip.ReasonFailureCached: "this setup failed before (cached failure); fix gh's auth, or run prchip refresh --force",
			chip.ReasonMissingGh:     "gh was missing and the setup has not changed",
		}[r.Skipped]
		if why == "" {
			why = r.Skipped
		}
		code := ExitOK
		if r.Skipped != chip.ReasonModeOff && r.Name == "pr" {
			code = ExitAuth
		}
		if r.Previous != nil && r.Previous.Category != "" {
			why += " [last: " + string(r.Previous.Class) + "/" + r.Previous.Category + "]"
		}
		return "skipped: " + why, code
	}
	o := r.Outcome
	var b strings.Builder
	b.WriteString(string(o.Class))
	b.WriteString(" (" + o.Category + ")")
	switch {
	case o.PR != nil:
		fmt.Fprintf(&b, ": %s %s", chip.FormatPR(o.PR), o.PR.Title)
	case o.Value != "":
		b.WriteString(": " + o.Value)
	case o.Detail != "":
		b.WriteString(": " + o.Detail)
	}
	code := ExitOK
	switch o.Class {
	case chip.Retryable:
		code = ExitRetryable
	case chip.AuthFailure, chip.MissingGh:
		code = ExitAuth
	}
	return b.String(), code
}

func newStatusCmd(io *IO, paths Paths) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status [--json]",
		Short: "Explain what the chip shows here and why (runs nothing)",
		Args:  usageArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			env := io.env(paths)
			f := chip.Gather(env.Dir, env.Time())
			s := env.Status(f)
			if asJSON {
				enc := json.NewEncoder(io.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			s.WriteHuman(io.Stdout)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return c
}

func newInvalidateCmd(io *IO, paths Paths) *cobra.Command {
	return &cobra.Command{
		Use:   "invalidate",
		Short: "Mark this repository's chips stale (the shell hooks call it after git, gh, gt)",
		Args:  usageArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			env := io.env(paths)
			warnProblems(io, env)
			f := chip.Gather(env.Dir, env.Time())
			if _, err := env.Invalidate(f); err != nil {
				// Exit 0 per the contract: the hook must never disturb the shell.
				fmt.Fprintln(io.Stderr, "prchip: invalidate:", err)
			}
			return nil
		},
	}
}

func newResetCmd(io *IO, paths Paths) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "reset [--all]",
		Short: "Forget cached failures, backoff and validation for this repository",
		Args:  usageArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			env := io.env(paths)
			warnProblems(io, env)
			f := chip.Gather(env.Dir, env.Time())
			if err := env.Reset(f, all); err != nil {
				fmt.Fprintln(io.Stderr, "prchip: reset:", err)
				return nil
			}
			if all {
				fmt.Fprintln(io.Stdout, "forgot everything")
			} else {
				fmt.Fprintln(io.Stdout, "forgot failures, backoff and validation")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "forget every repository's state")
	return c
}

func newVersionCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print version, commit and build date",
		Args:  usageArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
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
			fmt.Fprintf(io.Stdout, "prchip %s (commit %s, built %s)\n", v, cm, d)
			return nil
		},
	}
}

var errUnknownShell = errors.New("unknown shell")
