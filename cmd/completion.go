package cmd

import (
	"io"

	"github.com/spf13/cobra"
)

// completions/ holds the scripts, as `prchip completion` prints them, for
// packages to install (TestCompletionsUpToDate catches drift).
//go:generate sh -c "cd .. && go run . completion bash >completions/prchip.bash && go run . completion zsh >completions/prchip.zsh"
//go:generate sh -c "cd .. && go run . completion fish >completions/prchip.fish && go run . completion powershell >completions/prchip.ps1"

var completionShells = []string{"bash", "zsh", "fish", "powershell"}

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
		ValidArgs: completionShells,
		Args:      oneShell(completionShells),
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
