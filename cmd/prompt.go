package cmd

import (
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/worker"
)

// runPrompt is `prchip prompt`: print the chip, maybe start one background
// refresh; with --wait, only wait (bounded) for that refresh to end.
func runPrompt(opts *promptOptions, dirGiven bool) {
	defer survive()
	shell, ok := sanitize.ParseShell(opts.Shell)
	o := opts.IO
	if dirGiven {
		o = o.at(opts.Dir)
	}
	if !ok || o == nil {
		return
	}
	if opts.EndWorker != "" {
		worker.EndStuck(opts.EndWorker)
	}
	if opts.Wait {
		render.Wait(o.request(opts.Paths, shell, true))
	} else if show(o, o.request(opts.Paths, shell, opts.NoRefresh), "") && opts.Async {
		io.WriteString(o.Stdout, "\nrefreshing")
	}
}

// survive, deferred, keeps the prompt and the status line quiet whatever
// happens, including a bug of ours.
func survive() { recover() }

// show prints the chip q renders, then end, or nothing for no chip (not
// even a write call), lets the refresh it started go, and says whether
// one is in flight.
func show(o *IO, q render.Request, end string) bool {
	r := render.Render(q)
	if r.Text != "" {
		io.WriteString(o.Stdout, r.Text+end)
	}
	if r.Child != nil {
		r.Child.Release()
	}
	return r.InFlight
}

// request is the render's question for o in paths' files: o's directory,
// environment, clock and runner.
func (o *IO) request(paths Paths, shell sanitize.Shell, noRefresh bool) render.Request {
	return render.Request{Dir: o.dir(), Env: o.Env, State: paths.State, Config: paths.Config, Runtime: paths.Runtime,
		Shell: shell, NoRefresh: noRefresh, Now: o.Now, Run: o.Run}
}

// at is o for a directory named by the caller (prompt --dir, the JSON of
// statusline) instead of the working directory: relative to the working
// directory, and nil, for nothing to be shown, when it is not a directory.
// The stat is needed: the repository search would walk up from a
// directory that is gone and show the chip of the repository above it.
func (o *IO) at(dir string) *IO {
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(o.dir(), dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	c := *o
	c.Dir = dir
	return &c
}

type promptOptions struct {
	baseOptions
	Shell, Dir, EndWorker  string
	NoRefresh, Async, Wait bool
}

func newPromptCmd(base baseOptions) *cobra.Command {
	opts := &promptOptions{baseOptions: base}
	prompt := &cobra.Command{
		Use:   "prompt",
		Short: "Print the chip for the current directory (the render path)",
		Long: "prompt prints the chip for the current directory (or --dir), escaped for the shell named,\n" +
			"or nothing. When the stored result is stale it starts one detached background refresh.\n" +
			"It never prints an error and always exits 0: problems are shown by 'prchip status'.",
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		Run:               func(cc *cobra.Command, _ []string) { runPrompt(opts, cc.Flags().Changed("dir")) },
	}
	prompt.Flags().StringVar(&opts.Shell, "shell", "plain", "escape the chip for this shell: zsh, bash, fish, tmux or plain")
	prompt.Flags().StringVar(&opts.Dir, "dir", "", "the chip for `DIR` instead of the current directory (tmux passes #{pane_current_path})")
	prompt.Flags().BoolVar(&opts.NoRefresh, "no-refresh", false, "never start a background refresh")
	// The one-shot hooks' redraw (zsh's fallback path, fish): --async adds a
	// line "refreshing" while a refresh runs, --wait waits for it to end and
	// prints nothing (the hooks render again, where the shell is by then).
	prompt.Flags().BoolVar(&opts.Async, "async", false, "")
	prompt.Flags().BoolVar(&opts.Wait, "wait", false, "")
	// The hooks' process handling: a worker that did not answer in time is
	// named, to be ended (worker.EndStuck).
	prompt.Flags().StringVar(&opts.EndWorker, "end-worker", "", "")
	for _, name := range []string{"async", "wait", "end-worker"} {
		prompt.Flags().MarkHidden(name)
	}
	prompt.RegisterFlagCompletionFunc("shell", cobra.FixedCompletions([]string{"zsh", "bash", "fish", "tmux", "plain"}, cobra.ShellCompDirectiveNoFileComp))
	prompt.MarkFlagDirname("dir")
	return prompt
}
