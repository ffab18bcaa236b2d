package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/internal/sanitize"
)

type resetOptions struct {
	baseOptions
	All bool
}

func newResetCmd(base baseOptions) *cobra.Command {
	resetOpts := &resetOptions{baseOptions: base}
	reset := plainCmd("reset", "Forget cached failures, backoff and validation for this repository", func() error { return runReset(resetOpts) })
	reset.Flags().BoolVar(&resetOpts.All, "all", false, "forget every repository's state")
	return reset
}

func runReset(c *resetOptions) error {
	env, f := c.gather(true)
	rep, err := env.Reset(f, c.All)
	if err != nil {
		fmt.Fprintln(c.IO.Stderr, "prchip: reset:", err)
		return nil
	}
	fmt.Fprintln(c.IO.Stdout, resetLine(rep, env.Dir, env.Store.Path))
	return nil
}

// resetLine says what a reset forgot, and where.
func resetLine(r chip.ResetReport, dir, stateFile string) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	validation := "validation is unvalidated again (it was " + string(r.Was) + ")"
	if r.Was == state.Unvalidated {
		validation = "validation stays unvalidated"
	}
	var what string
	switch {
	case r.All:
		what = fmt.Sprintf("reset everything in %s: forgot %s and the global validation",
			sanitize.Text(stateFile, 4096), plural(r.Repos, "repository", "repositories"))
	case r.Root == "":
		what = "not in a repository (" + sanitize.Text(dir, 4096) + "): reset the global validation only"
	case r.Chips == 0:
		what = "reset " + sanitize.Text(r.Root, 4096) + ": nothing was stored for it"
	default:
		what = fmt.Sprintf("reset %s: forgot %s on %s (%s, %d in backoff)", sanitize.Text(r.Root, 4096),
			plural(r.Chips, "chip result", "chip results"), plural(r.Branches, "branch", "branches"),
			plural(r.Cached, "cached failure", "cached failures"), r.Backoff)
	}
	return what + "; " + validation
}
