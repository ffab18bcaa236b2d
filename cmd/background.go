package cmd

import (
	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/render"
)

// runBackground is the detached refresh a render started in dir
// (render.Refresh).
func runBackground(o *IO, paths Paths, dir string) error {
	q := o.request(paths, "", false)
	q.Dir = dir
	if err := render.Refresh(q); err != nil {
		return &ExitError{Code: ExitRetryable}
	}
	return nil
}

// newBackgroundCmd is the hidden refresh a render starts (render.Refresh).
func newBackgroundCmd(base baseOptions) *cobra.Command {
	return &cobra.Command{
		Use:                render.BackgroundCmd + " ROOT",
		Hidden:             true,
		Args:               cobra.ExactArgs(1),
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			return runBackground(base.IO, base.Paths, args[0])
		},
	}
}
