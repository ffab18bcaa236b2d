package cmd

import (
	"bytes"
	"io"
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
