package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/worker"
	"github.com/prchip/prchip/shellhooks"
)

type initOptions struct {
	baseOptions
	Shell string
}

func newInitCmd(base baseOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "init zsh|bash|fish|starship",
		Short: "Print the shell integration",
		Long: "init prints the hook that keeps the chip in $PRCHIP, for your shell's start-up file:\n\n" +
			"  zsh  (~/.zshrc):   eval \"$(prchip init zsh)\"    and RPROMPT='$PRCHIP'\n" +
			"  bash (~/.bashrc):  eval \"$(prchip init bash)\"   and PS1='\\w${PRCHIP:+ $PRCHIP} \\$ '\n" +
			"  fish (~/.config/fish/config.fish):  prchip init fish | source\n" +
			"  starship: prchip init starship prints the blocks for ~/.config/starship.toml\n\n" +
			"The README shows each prompt in full.",
		ValidArgs: shellhooks.Names(),
		Args:      oneShell(shellhooks.Names()),
		RunE: func(_ *cobra.Command, args []string) error {
			return runInit(&initOptions{baseOptions: base, Shell: args[0]})
		},
	}
}

func runInit(c *initOptions) error {
	exe := hookExecutable(os.Args[0], c.IO.Env)
	cfg := config.Load(c.Paths.Config, c.IO.Env.Files())
	for _, p := range cfg.Problems {
		fmt.Fprintln(c.IO.Stderr, "prchip: warning: config", p.String())
	}
	s, ok := shellhooks.Snippet(c.Shell, shellhooks.Options{Exe: exe, InvalidateOn: cfg.InvalidateOn})
	if !ok {
		return usageError("unknown shell %q: use one of zsh, bash, fish, starship", c.Shell)
	}
	fmt.Fprint(c.IO.Stdout, s)
	return nil
}

// hookExecutable is the path the hooks call prchip by: the path it was run
// by (as typed, or found on PATH) when that is this very binary, else the
// binary's resolved path. A package manager's stable link (Homebrew's
// bin/prchip) outlives upgrades; the versioned file it points at is
// deleted by the next one, which would leave every open shell's hook
// calling a path that is gone.
func hookExecutable(arg0 string, e env.Env) string {
	exe, err := os.Executable()
	if err != nil {
		return "prchip"
	}
	self, err := e.Files().Stat(exe)
	if err != nil {
		return exe
	}
	p := worker.AbsExecutable(arg0, e)
	if st, err := e.Files().Stat(p); err != nil || st.ID != self.ID {
		return exe
	}
	return p
}
