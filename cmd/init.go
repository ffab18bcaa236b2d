package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/shellhooks"
)

func newInitCmd(io *IO, paths Paths) *cobra.Command {
	return &cobra.Command{
		Use:       "init zsh|bash|fish|starship",
		Short:     "Print the shell integration",
		ValidArgs: shellhooks.Names(),
		Args:      usageArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			exe, err := os.Executable()
			if err != nil {
				exe = "prchip"
			}
			cfg := config.Load(paths.Config)
			s, ok := shellhooks.Snippet(args[0], shellhooks.Options{Exe: exe, InvalidateOn: cfg.InvalidateOn})
			if !ok {
				return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%w %q: use one of zsh, bash, fish, starship", errUnknownShell, args[0])}
			}
			fmt.Fprint(io.Stdout, s)
			return nil
		},
	}
}
