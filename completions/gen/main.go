// Command gen writes prchip's completion scripts, as `prchip completion`
// prints them, into the directory given (go generate ./cmd).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/prchip/prchip/cmd"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	for _, sh := range cmd.CompletionShells {
		b, err := cmd.Completion(sh)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, cmd.CompletionFile(sh)), b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
