package cmd

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"
)

//go:generate go run ../completions/gen ../completions

// CompletionShells are the shells `prchip completion` writes scripts for;
// completions/ holds each, generated, for packages to install.
var CompletionShells = []string{"bash", "zsh", "fish", "powershell"}

// CompletionFile is shell's script's name in completions/.
func CompletionFile(shell string) string {
	if shell == "powershell" {
		return "prchip.ps1"
	}
	return "prchip." + shell
}

// Completion is what `prchip completion SHELL` prints.
func Completion(shell string) ([]byte, error) {
	var out, errb bytes.Buffer
	if code := run(&IO{Stdout: &out, Stderr: &errb}, Paths{}, []string{"completion", shell}); code != ExitOK {
		return nil, &ExitError{Code: code, Err: io.ErrUnexpectedEOF}
	}
	return out.Bytes(), nil
}

// newCompletionCmd is `prchip completion`, of root's tree.
func newCompletionCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print shell completions",
		Long: "completion prints the Tab completions for a shell, to save where that shell looks.\n" +
			"The .deb and .rpm packages install them already. Otherwise:\n\n" +
			"  bash (needs the bash-completion package):\n" +
			"    mkdir -p ~/.local/share/bash-completion/completions\n" +
			"    prchip completion bash > ~/.local/share/bash-completion/completions/prchip\n" +
			"  zsh (a directory in $fpath, before compinit runs in ~/.zshrc):\n" +
			"    mkdir -p ~/.zfunc && prchip completion zsh > ~/.zfunc/_prchip\n" +
			"    and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)\n" +
			"  fish:\n" +
			"    prchip completion fish > ~/.config/fish/completions/prchip.fish\n" +
			"  powershell (in $PROFILE):\n" +
			"    prchip completion powershell | Out-String | Invoke-Expression\n\n" +
			"A new shell picks them up.",
		ValidArgs: CompletionShells,
		Args:      oneShell(CompletionShells),
		RunE: func(cc *cobra.Command, args []string) error {
			return map[string]func(io.Writer) error{
				"bash":       func(w io.Writer) error { return root.GenBashCompletionV2(w, true) },
				"zsh":        root.GenZshCompletion,
				"fish":       func(w io.Writer) error { return root.GenFishCompletion(w, true) },
				"powershell": root.GenPowerShellCompletionWithDesc,
			}[args[0]](cc.OutOrStdout()) // oneShell let only these through
		},
	}
}
