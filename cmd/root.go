package cmd

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/worker"
	"github.com/prchip/prchip/shellhooks"
)

// Each command's options: its dependencies (streams, clock, directory and
// runner in IO; where prchip keeps its files) and its flags and arguments,
// as gh has them, so tests run commands in-process with their own.
type baseOptions struct {
	IO    *IO
	Paths Paths
}

type refreshOptions struct {
	baseOptions
	Force bool
}

type statusOptions struct {
	baseOptions
	JSON bool
}

type initOptions struct {
	baseOptions
	Shell string
}

type resetOptions struct {
	baseOptions
	All bool
}

type statuslineOptions struct {
	baseOptions
	Plain bool
}

type workerOptions struct {
	baseOptions
	Shell, PID, FIFOs string
	Files             string // fish's channel directory (internal/worker/fish_linux.go)
	Plain             bool
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
		// No command is a usage error: help on stderr, exit 2; an unknown
		// one is named with what was meant, as cobra does.
		Args: func(cc *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cc.CommandPath())
			if s := cc.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
			}
			return errors.New(msg)
		},
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
		switch cc.Name() {
		case "prompt", "statusline", "worker":
			redactTokens(o.Env, false)
		default:
			redactTokens(o.Env, true)
		}
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SuggestionsMinimumDistance = 2
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(o.Stdout)
	root.SetErr(o.Stderr)
	root.SetFlagErrorFunc(flagError)
	noFiles := cobra.NoFileCompletions
	// plain is a command that takes no arguments.
	plain := func(use, short string, f func() error) *cobra.Command {
		return &cobra.Command{Use: use, Short: short, Args: cobra.NoArgs, ValidArgsFunction: noFiles,
			RunE: func(*cobra.Command, []string) error { return f() }}
	}

	prompt := &cobra.Command{
		Use:   "prompt",
		Short: "Print the chip for the current directory (the render path)",
		Long: "prompt prints the chip for the current directory (or --dir), escaped for the shell named,\n" +
			"or nothing. When the stored result is stale it starts one detached background refresh.\n" +
			"It never prints an error and always exits 0: problems are shown by 'prchip status'.",
		Args:              cobra.NoArgs,
		ValidArgsFunction: noFiles,
		Run: func(cc *cobra.Command, _ []string) {
			f := cc.Flags()
			sh, _ := f.GetString("shell")
			shell, ok := sanitize.ParseShell(sh)
			if !ok {
				return
			}
			at := o
			if f.Changed("dir") {
				dir, _ := f.GetString("dir")
				if at = o.at(dir); at == nil {
					return
				}
			}
			noRefresh, _ := f.GetBool("no-refresh")
			async, _ := f.GetBool("async")
			wait, _ := f.GetBool("wait")
			if w, _ := f.GetString("end-worker"); w != "" {
				worker.EndStuck(w)
			}
			runPrompt(at, paths, shell, noRefresh, async, wait)
		},
	}
	prompt.Flags().String("shell", "plain", "escape the chip for this shell: zsh, bash, fish, tmux or plain")
	prompt.Flags().String("dir", "", "the chip for `DIR` instead of the current directory (tmux passes #{pane_current_path})")
	prompt.Flags().Bool("no-refresh", false, "never start a background refresh")
	// The one-shot hooks' redraw (zsh's fallback path, fish): --async adds a
	// line "refreshing" while a refresh runs, --wait waits for it to end.
	prompt.Flags().Bool("async", false, "")
	prompt.Flags().Bool("wait", false, "")
	// The hooks' process handling: a worker that did not answer in time is
	// named, to be ended (worker.EndStuck).
	prompt.Flags().String("end-worker", "", "")
	for _, name := range []string{"async", "wait", "end-worker"} {
		prompt.Flags().MarkHidden(name)
	}
	fixedValues(prompt, "shell", "zsh", "bash", "fish", "tmux", "plain")
	prompt.MarkFlagDirname("dir")

	statuslineOpts := &statuslineOptions{baseOptions: base}
	statusline := &cobra.Command{
		Use:   "statusline",
		Short: "Print the chip for an agent's or editor's status line (Claude Code)",
		Long: "statusline reads the JSON its caller pipes to a status line command on stdin and prints\n" +
			"the chip, with colours, for the directory it names (Claude Code: workspace.current_dir,\n" +
			"else cwd; with no JSON, the current directory). Like prompt it never waits for GitHub,\n" +
			"never prints an error and always exits 0.",
		Args:              cobra.NoArgs,
		ValidArgsFunction: noFiles,
		Run:               func(*cobra.Command, []string) { runStatusline(statuslineOpts) },
	}
	statusline.Flags().BoolVar(&statuslineOpts.Plain, "plain", false, "no colours or links")

	refreshOpts := &refreshOptions{baseOptions: base}
	refresh := plain("refresh", "Run the chip command now and print the outcome", func() error { return runRefresh(refreshOpts) })
	refresh.Long = "refresh decides exactly as the prompt would (suppression, cached failures) but ignores\n" +
		"freshness and backoff, runs the chip command now, records and prints the outcome.\n" +
		"Exit status: 0 validated or not applicable, 1 retryable, 4 auth failure or missing gh."
	refresh.Flags().BoolVar(&refreshOpts.Force, "force", false, "also ignore suppression and a cached failure")

	statusOpts := &statusOptions{baseOptions: base}
	status := plain("status", "Explain what the chip shows here and why (runs nothing)", func() error { return runStatus(statusOpts) })
	status.Flags().BoolVar(&statusOpts.JSON, "json", false, "print one JSON object")

	initCmd := &cobra.Command{
		Use:   "init zsh|bash|fish|starship",
		Short: "Print the shell integration",
		Long: "init prints the hook that keeps the chip in $PRCHIP, for your shell's start-up file:\n\n" +
			"  zsh  (~/.zshrc):   eval \"$(prchip init zsh)\"    and RPROMPT='$PRCHIP'\n" +
			"  bash (~/.bashrc):  eval \"$(prchip init bash)\"   and PS1='\\w${PRCHIP:+ $PRCHIP} \\$ '\n" +
			"  fish (~/.config/fish/config.fish):  prchip init fish | source\n" +
			"  starship: prchip init starship prints the blocks for ~/.config/starship.toml\n\n" +
			"The README shows each prompt in full.",
		ValidArgs: shellhooks.Names(),
		Args:      oneShell(shellhooks.Names()),
		RunE: func(_ *cobra.Command, args []string) error {
			return runInit(&initOptions{baseOptions: base, Shell: args[0]})
		},
	}

	var invalidateProbe bool
	var invalidateOnce string
	invalidate := plain("invalidate", "Mark this repository's chips stale (the shell hooks call it after git, gh, gt)", func() error { return runInvalidate(&base, invalidateProbe, invalidateOnce) })
	invalidate.Flags().BoolVar(&invalidateProbe, "probe", false, "only ask GitHub at the next prompt whether the pull request changed (the hooks, after git)")
	invalidate.Flags().StringVar(&invalidateOnce, "once", "", "the hook's name for this invalidation: made once, whether the worker or this command gets it first")
	invalidate.Flags().MarkHidden("once")

	workerOpts := &workerOptions{baseOptions: base}
	workerCmd := plain("worker", "The per-shell worker the zsh, bash and fish hooks start (not for people)", func() error { return runWorker(workerOpts) })
	workerCmd.Flags().StringVar(&workerOpts.Shell, "shell", "", "the hook's shell: zsh, bash or fish")
	workerCmd.Flags().StringVar(&workerOpts.PID, "pid", "", "the shell's process id")
	workerCmd.Flags().StringVar(&workerOpts.FIFOs, "fifos", "", "the directory of the hook's request and response FIFOs")
	workerCmd.Flags().StringVar(&workerOpts.Files, "files", "", "fish: the directory of the hook's request and answer files")
	workerCmd.Flags().BoolVar(&workerOpts.Plain, "plain", false, "answer plain text, for starship's env_var module")
	fixedValues(workerCmd, "shell", "zsh", "bash", "fish")

	resetOpts := &resetOptions{baseOptions: base}
	reset := plain("reset", "Forget cached failures, backoff and validation for this repository", func() error { return runReset(resetOpts) })
	reset.Flags().BoolVar(&resetOpts.All, "all", false, "forget every repository's state")

	configCmd := plain("config", "Print the effective configuration and where each value comes from", func() error { return runConfig(&base) })

	versionCmd := plain("version", "Print version, commit and build date", func() error { return runVersion(&base) })

	background := &cobra.Command{
		Use:                render.BackgroundCmd + " ROOT",
		Hidden:             true,
		Args:               cobra.ExactArgs(1),
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			if code := runBackground(o, paths, args); code != ExitOK {
				return &ExitError{Code: code}
			}
			return nil
		},
	}

	completion := &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print shell completions",
		Long: "completion prints the Tab completions for a shell, to save where that shell looks.\n" +
			"The .deb and .rpm packages install them already. Otherwise:\n\n" +
			"  bash (needs the bash-completion package):\n" +
			"    mkdir -p ~/.local/share/bash-completion/completions\n" +
			"    prchip completion bash > ~/.local/share/bash-completion/completions/prchip\n" +
			"  zsh (a directory in $fpath, before compinit runs in ~/.zshrc):\n" +
			"    mkdir -p ~/.zfunc && prchip completion zsh > ~/.zfunc/_prchip\n" +
			"    and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)\n" +
			"  fish:\n" +
			"    prchip completion fish > ~/.config/fish/completions/prchip.fish\n" +
			"  powershell (in $PROFILE):\n" +
			"    prchip completion powershell | Out-String | Invoke-Expression\n\n" +
			"A new shell picks them up.",
		ValidArgs: CompletionShells,
		Args:      oneShell(CompletionShells),
		RunE: func(cc *cobra.Command, args []string) error {
			out := cc.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			default:
				return root.GenPowerShellCompletionWithDesc(out)
			}
		},
	}

	root.AddCommand(prompt, statusline, refresh, status, initCmd, invalidate, workerCmd, reset, configCmd, versionCmd, completion, background)
	return root
}

// usageError exits 2 with a message.
func usageError(format string, a ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

var errUnknownShell = errors.New("unknown shell")

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
			return fmt.Errorf("%w %q for %s: use %s", errUnknownShell, args[0], cc.CommandPath(), list)
		}
		return nil
	}
}

// fixedValues completes a flag's value from a fixed list.
func fixedValues(c *cobra.Command, flag string, values ...string) {
	c.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
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

// nearestFlag is the visible flag of c closest to name, within two edits.
func nearestFlag(c *cobra.Command, name string) string {
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	sort.Strings(names)
	best, bestD := "", 3
	for _, n := range names {
		if d := config.Distance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// run executes args on a new tree and maps what comes back to an exit code:
// a command's ExitError carries its own; anything else cobra returns
// (unknown command or flag, wrong arguments) is a usage error, 2.
func run(o *IO, paths Paths, args []string) int {
	root := NewRoot(o, paths)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if cmd != nil && (cmd.Name() == "prompt" || cmd.Name() == "statusline") {
		return ExitOK // the prompt never complains, whatever it was given
	}
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(o.Stderr, "prchip:", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintln(o.Stderr, "prchip:", err)
	if !strings.Contains(err.Error(), "--help") {
		fmt.Fprintf(o.Stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return ExitUsage
}
