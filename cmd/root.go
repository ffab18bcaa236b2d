package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/sanitize"
)

// Each command's options: its dependencies (streams, clock, directory and
// runner in IO; where prchip keeps its files) and its flags and arguments,
// as gh has them, so tests run commands in-process with their own.
type baseOptions struct {
	IO    *IO
	Paths Paths
}

// redactTokens makes sanitize.Redact remove e's token variables' values
// and, with hosts, hosts.yml's tokens (read on the first Redact only).
func redactTokens(e env.Env, hosts bool) {
	sanitize.RedactAlso(func() []string {
		var toks []string
		for _, v := range ghauth.TokenVars {
			toks = append(toks, e.Get(v))
		}
		if hosts {
			toks = append(toks, ghauth.HostsTokens(e)...)
		}
		return toks
	})
}

// NewRoot is prchip's command tree (SPEC 2), writing to o's streams.
func NewRoot(o *IO, paths Paths) *cobra.Command {
	base := baseOptions{IO: o, Paths: paths}
	root := &cobra.Command{
		Use:   "prchip",
		Short: "Show the current branch's GitHub pull request in your prompt",
		Long: "prchip shows the GitHub pull request of the current git branch as a chip in a\n" +
			"shell prompt. The prompt answers from local state; gh runs in the background.",
		Version:       versionLine(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// No command is a usage error: help on stderr, exit 2. (An unknown
		// one is named with what was meant by cobra, as Args is nil.)
		RunE: func(cc *cobra.Command, _ []string) error {
			cc.SetOut(o.Stderr)
			cc.Help()
			return &ExitError{Code: ExitUsage}
		},
	}
	// The token variables' values, and the tokens in gh's hosts.yml, are
	// redacted as exact values by every command that prints or stores
	// text from outside; the render paths only show what was redacted when
	// it was stored, and read no hosts.yml.
	root.PersistentPreRun = func(cc *cobra.Command, _ []string) {
		redactTokens(o.Env, !slices.Contains([]string{"prompt", "statusline", "worker"}, cc.Name()))
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(o.Stdout)
	root.SetErr(o.Stderr)
	root.SetFlagErrorFunc(flagError)

	root.AddCommand(newPromptCmd(base), newStatuslineCmd(base), newRefreshCmd(base), newStatusCmd(base), newInitCmd(base),
		newInvalidateCmd(base), newWorkerCmd(base), newResetCmd(base), newConfigCmd(base), newVersionCmd(base),
		newCompletionCmd(root), newBackgroundCmd(base))
	return root
}

// plainCmd is a command that takes no arguments.
func plainCmd(use, short string, f func() error) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: cobra.NoArgs, ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(*cobra.Command, []string) error { return f() }}
}

// usageError exits 2 with a message.
func usageError(format string, a ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

// oneShell takes exactly one of shells, and says which there are when
// none is given ("prchip init" alone), more than one, or another.
func oneShell(shells []string) cobra.PositionalArgs {
	return func(cc *cobra.Command, args []string) error {
		list := strings.Join(shells[:len(shells)-1], ", ") + " or " + shells[len(shells)-1]
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s needs a shell: %s (for example: %s %s)", cc.CommandPath(), list, cc.CommandPath(), shells[0])
		case len(args) > 1:
			return fmt.Errorf("%s takes one shell, not %d words: %s", cc.CommandPath(), len(args), list)
		case !slices.Contains(shells, args[0]):
			return fmt.Errorf("unknown shell %q for %s: use %s", args[0], cc.CommandPath(), list)
		}
		return nil
	}
}

// flagError is a usage error (exit 2) that suggests the nearest flag for
// an unknown one, as cobra does for commands.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := nearestFlag(c, name); s != "" {
			msg += "\n\nDid you mean this?\n\t--" + s
		}
	}
	return usageError("%s\nRun '%s --help' for usage.", msg, c.CommandPath())
}

// nearestFlag is the visible flag of c closest to name, within two edits;
// VisitAll goes in sorted order, so a tie goes to the first.
func nearestFlag(c *cobra.Command, name string) string {
	best, bestD := "", 3
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if d := config.Distance(name, f.Name); !f.Hidden && d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// run executes args on a new tree and maps what comes back to an exit code:
// a command's ExitError carries its own; anything else cobra returns
// (unknown command or flag, wrong arguments) is a usage error, 2.
func run(o *IO, paths Paths, args []string) int {
	root := NewRoot(o, paths)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	// The prompt never complains, whatever it was given.
	if err == nil || cmd != nil && (cmd.Name() == "prompt" || cmd.Name() == "statusline") {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(o.Stderr, "prchip:", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintln(o.Stderr, "prchip:", strings.TrimSuffix(err.Error(), "\n")) // cobra's suggestions end in one
	if !strings.Contains(err.Error(), "--help") {
		fmt.Fprintf(o.Stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return ExitUsage
}
