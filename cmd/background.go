package cmd

import (
	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/render"
)

// runBackground is the detached refresh a render started (render.Refresh).
func runBackground(o *IO, paths Paths, args []string) int {
	if len(args) != 1 {
		return ExitUsage
	}
	q := render.Request{Dir: args[0], Env: o.Env, State: paths.State, Config: paths.Config, Runtime: paths.Runtime}
	if err := render.Refresh(q); err != nil {
		return ExitRetryable
	}
	return ExitOK
}

// newBackgroundCmd is the hidden refresh a render starts (render.Refresh).
func newBackgroundCmd(base baseOptions) *cobra.Command {
	background := &cobra.Command{
		Use:                render.BackgroundCmd + " ROOT",
		Hidden:             true,
		Args:               cobra.ExactArgs(1),
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			if code := runBackground(base.IO, base.Paths, args); code != ExitOK {
				return &ExitError{Code: code}
			}
			return nil
		},
	}
	return background
}
