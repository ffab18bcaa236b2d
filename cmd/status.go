package cmd

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/worker"
)

type statusOptions struct {
	baseOptions
	JSON bool
}

func newStatusCmd(base baseOptions) *cobra.Command {
	statusOpts := &statusOptions{baseOptions: base}
	status := plainCmd("status", "Explain what the chip shows here and why (runs nothing)", func() error { return runStatus(statusOpts) })
	status.Flags().BoolVar(&statusOpts.JSON, "json", false, "print one JSON object")
	return status
}

func runStatus(c *statusOptions) error {
	env, f := c.gather(false)
	s := env.Status(f)
	if c.Paths.StateNote != "" {
		s.Problems = append(s.Problems, sanitize.Text(c.Paths.StateNote, 2048))
	}
	s.Worker = worker.Find(c.Paths.State, time.Now())
	s.Hook = hookStatus(c.IO.Env)
	if c.JSON {
		b, err := s.JSON()
		if err != nil {
			return err
		}
		_, err = c.IO.Stdout.Write(b)
		return err
	}
	s.WriteHuman(c.IO.Stdout)
	return nil
}
