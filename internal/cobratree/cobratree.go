// Package cobratree mirrors prchip's command table as a cobra command tree,
// to generate completion scripts and to serve as the oracle for prchip's
// own `__complete`. It is never linked into the prchip binary.
package cobratree

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/cmd"
)

// Build returns the cobra tree for the table.
func Build(cmds []*cmd.Command) *cobra.Command {
	root := &cobra.Command{
		Use:     "prchip",
		Short:   "Show the current branch's GitHub pull request in your prompt",
		Version: "dev",
	}
	root.CompletionOptions.DisableDefaultCmd = true
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		c := c
		cc := &cobra.Command{
			Use:       c.Name,
			Short:     c.Short,
			ValidArgs: c.ValidArgs,
			Args:      cobra.ExactArgs(c.NArgs),
			Run:       func(*cobra.Command, []string) {},
		}
		if len(c.ValidArgs) == 0 {
			cc.ValidArgsFunction = cobra.NoFileCompletions
		}
		for _, f := range c.Flags {
			if f.String {
				cc.Flags().String(f.Name, f.Def, f.Usage)
				cc.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(f.Values, cobra.ShellCompDirectiveNoFileComp))
			} else {
				cc.Flags().Bool(f.Name, false, f.Usage)
			}
		}
		root.AddCommand(cc)
	}
	return root
}

// Generate writes the completion script for shell.
func Generate(root *cobra.Command, shell string) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch shell {
	case "bash":
		err = root.GenBashCompletionV2(&b, true)
	case "zsh":
		err = root.GenZshCompletion(&b)
	case "fish":
		err = root.GenFishCompletion(&b, true)
	case "powershell":
		err = root.GenPowerShellCompletionWithDesc(&b)
	default:
		err = fmt.Errorf("unknown shell %q", shell)
	}
	return b.Bytes(), err
}
