package cmd

import (
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/worker"
)

// runWorker is `prchip worker` (internal/worker), one per interactive zsh,
// bash or fish, started by its hook: the flags are checked here, the rest
// is the worker's.
func runWorker(c *workerOptions) error {
	shell, ok := sanitize.ParseShell(c.Shell)
	if !ok || (shell != sanitize.Zsh && shell != sanitize.Bash && shell != sanitize.Fish) {
		return usageError("worker: --shell must be zsh, bash or fish")
	}
	pid, err := strconv.Atoi(c.PID)
	if err != nil || pid <= 1 {
		return usageError("worker: --pid must be the shell's process id")
	}
	switch {
	case shell == sanitize.Fish && !worker.FishSupported:
		return usageError("worker: the fish worker needs Linux")
	case shell == sanitize.Fish && (c.Files == "" || !filepath.IsAbs(c.Files)):
		return usageError("worker: --files names the fish hook's directory")
	case shell != sanitize.Fish && c.FIFOs == "":
		return usageError("worker: --fifos names the hook's FIFO directory")
	}
	return worker.Run(worker.Options{Shell: shell, Plain: c.Plain, ShellPID: pid, FIFOs: c.FIFOs, Files: c.Files,
		Env: c.IO.Env, Now: c.IO.Now, Request: workerRequest})
}

// workerRequest is the render request of the worker's answers in e:
// DefaultPaths' files, e's tokens redacted.
func workerRequest(e env.Env) render.Request {
	redactTokens(e, false)
	p := DefaultPaths(e)
	return render.Request{Env: e, State: p.State, Config: p.Config, Runtime: p.Runtime}
}

type workerOptions struct {
	baseOptions
	Shell, PID, FIFOs string
	Files             string // fish's channel directory (internal/worker/fish_linux.go)
	Plain             bool
}

func newWorkerCmd(base baseOptions) *cobra.Command {
	workerOpts := &workerOptions{baseOptions: base}
	workerCmd := plainCmd("worker", "The per-shell worker the zsh, bash and fish hooks start (not for people)", func() error { return runWorker(workerOpts) })
	workerCmd.Flags().StringVar(&workerOpts.Shell, "shell", "", "the hook's shell: zsh, bash or fish")
	workerCmd.Flags().StringVar(&workerOpts.PID, "pid", "", "the shell's process id")
	workerCmd.Flags().StringVar(&workerOpts.FIFOs, "fifos", "", "the directory of the hook's request and response FIFOs")
	workerCmd.Flags().StringVar(&workerOpts.Files, "files", "", "fish: the directory of the hook's request and answer files")
	workerCmd.Flags().BoolVar(&workerOpts.Plain, "plain", false, "answer plain text, for starship's env_var module")
	workerCmd.RegisterFlagCompletionFunc("shell", cobra.FixedCompletions([]string{"zsh", "bash", "fish"}, cobra.ShellCompDirectiveNoFileComp))
	return workerCmd
}
