package cmd

import (
	"errors"
	"io/fs"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/env"
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

// hookStatus is what the calling shell's hook runs (nil outside a shell
// that loaded one): the path it calls prchip by, as `prchip init` recorded
// it and the zsh, bash and fish hooks export it, or, when that is gone, the
// first prchip on PATH, found as the hooks find it. status inherits the
// shell's PATH, so it looks where the hook looks.
func hookStatus(e env.Env) *chip.StatusHook {
	exe := e.Get("PRCHIP_HOOK_EXE")
	if exe == "" {
		return nil
	}
	h := &chip.StatusHook{Exe: sanitize.Text(exe, 4096)}
	st, err := e.Files().Stat(exe)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		h.Missing = "gone"
	case err != nil:
		h.Missing = "out of reach (" + sanitize.Text(err.Error(), 4096) + ")"
	case !st.IsRegular() || st.Perm()&0o111 == 0:
		h.Missing = "not an executable file"
	default:
		h.Runs = h.Exe
		return h
	}
	if p, _ := ghauth.LookPath("prchip", e); p != "" {
		h.Runs = sanitize.Text(p, 4096)
	}
	return h
}
