package cmd

import (
	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/render"
)

// newBackgroundCmd is the hidden refresh a render starts (render.Refresh).
func newBackgroundCmd(base baseOptions) *cobra.Command {
	return &cobra.Command{
		Use:                render.BackgroundCmd + " ROOT",
		Hidden:             true,
		Args:               cobra.ExactArgs(1),
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			q := base.IO.request(base.Paths, "", false)
			q.Dir = args[0]
			if err := render.Refresh(q); err != nil {
				return &ExitError{Code: ExitRetryable}
			}
			return nil
		},
	}
}
