package cmd

import (
	"fmt"

	"github.com/clipperhouse/displaywidth"
	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/sanitize"
)

func newConfigCmd(base baseOptions) *cobra.Command {
	return plainCmd("config", "Print the effective configuration and where each value comes from", func() error { return runConfig(&base) })
}

func runConfig(c *baseOptions) error {
	cfg := config.Load(c.Paths.Config, c.IO.Env.Files())
	fmt.Fprintf(c.IO.Stdout, "# effective configuration; file: %s\n", sanitize.Text(cfg.Path, 0))
	entries := cfg.Effective()
	// The comments line up in columns: a format or symbol may hold wide
	// characters, which fmt's padding (by runes) would miscount.
	width := 0
	for _, e := range entries {
		width = max(width, displaywidth.String(e.Key+" = "+e.Value))
	}
	for _, e := range entries {
		line := e.Key + " = " + e.Value
		fmt.Fprintf(c.IO.Stdout, "%s%*s  # %s\n", line, width-displaywidth.String(line), "", e.Source)
	}
	for _, p := range cfg.Problems {
		fmt.Fprintln(c.IO.Stderr, "prchip: config", p.String())
	}
	if len(cfg.Problems) > 0 {
		return &ExitError{Code: ExitUsage}
	}
	return nil
}
