package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
)

type invalidateOptions struct {
	baseOptions
	Probe bool
	Once  string
}

func newInvalidateCmd(base baseOptions) *cobra.Command {
	opts := &invalidateOptions{baseOptions: base}
	invalidate := plainCmd("invalidate", "Mark this repository's chips stale (the shell hooks call it after git, gh, gt)", func() error { return runInvalidate(opts) })
	invalidate.Flags().BoolVar(&opts.Probe, "probe", false, "only ask GitHub at the next prompt whether the pull request changed (the hooks, after git)")
	invalidate.Flags().StringVar(&opts.Once, "once", "", "the hook's name for this invalidation: made once, whether the worker or this command gets it first")
	invalidate.Flags().MarkHidden("once")
	return invalidate
}

func runInvalidate(c *invalidateOptions) error {
	env, f := c.gather(true)
	var err error
	if c.Probe {
		err = env.InvalidateProbe(f, c.Once)
	} else {
		_, err = env.Invalidate(f, c.Once)
	}
	if err != nil {
		// Exit 0 per the contract: the hook must never disturb the shell.
		fmt.Fprintln(c.IO.Stderr, "prchip: invalidate:", err)
	}
	return nil
}
