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
// refresh. It never prints an error.
//
// Two hidden flags serve the one-shot hooks' redraw (zsh's fallback path,
// fish): async adds a second line "refreshing" when a background refresh
// is in flight, and wait only waits (bounded) for that refresh to end and
// prints nothing: the hooks render again themselves, where the shell is by
// then.
func runPrompt(o *IO, paths Paths, shell sanitize.Shell, noRefresh, async, wait bool) {
	defer func() {
		// The prompt must survive anything, including a bug of ours.
		recover()
	}()
	if wait {
		render.Wait(o.request(paths, shell, true))
		return
	}
	r := render.Render(o.request(paths, shell, noRefresh))
	if r.Text != "" { // no write call for an empty chip
		o.print(r.Text)
	}
	if r.Child != nil {
		r.Child.Release()
	}
	if async && r.InFlight {
		o.print("\nrefreshing")
	}
}

// request is the render's question for o in paths' files: o's directory,
// environment, clock and runner.
func (o *IO) request(paths Paths, shell sanitize.Shell, noRefresh bool) render.Request {
	return render.Request{Dir: o.dir(), Env: o.Env, State: paths.State, Config: paths.Config, Runtime: paths.Runtime,
		Shell: shell, NoRefresh: noRefresh, Now: o.Now, Run: o.Run}
}

func (o *IO) print(s string) { io.WriteString(o.Stdout, s) }

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

// newPromptCmd is `prchip prompt`, the render path (runPrompt).
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
		Run: func(cc *cobra.Command, _ []string) {
			shell, ok := sanitize.ParseShell(opts.Shell)
			if !ok {
				return
			}
			at := opts.IO
			if cc.Flags().Changed("dir") {
				if at = opts.IO.at(opts.Dir); at == nil {
					return
				}
			}
			if opts.EndWorker != "" {
				worker.EndStuck(opts.EndWorker)
			}
			runPrompt(at, opts.Paths, shell, opts.NoRefresh, opts.Async, opts.Wait)
		},
	}
	prompt.Flags().StringVar(&opts.Shell, "shell", "plain", "escape the chip for this shell: zsh, bash, fish, tmux or plain")
	prompt.Flags().StringVar(&opts.Dir, "dir", "", "the chip for `DIR` instead of the current directory (tmux passes #{pane_current_path})")
	prompt.Flags().BoolVar(&opts.NoRefresh, "no-refresh", false, "never start a background refresh")
	// The one-shot hooks' redraw (zsh's fallback path, fish): --async adds a
	// line "refreshing" while a refresh runs, --wait waits for it to end.
	prompt.Flags().BoolVar(&opts.Async, "async", false, "")
	prompt.Flags().BoolVar(&opts.Wait, "wait", false, "")
	// The hooks' process handling: a worker that did not answer in time is
	// named, to be ended (worker.EndStuck).
	prompt.Flags().StringVar(&opts.EndWorker, "end-worker", "", "")
	for _, name := range []string{"async", "wait", "end-worker"} {
		prompt.Flags().MarkHidden(name)
	}
	fixedValues(prompt, "shell", "zsh", "bash", "fish", "tmux", "plain")
	prompt.MarkFlagDirname("dir")
	return prompt
}
