// Command gen writes the completion scripts into the directory given as
// its argument (go generate ./completions).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/prchip/prchip/cmd"
	"github.com/prchip/prchip/completions"
	"github.com/prchip/prchip/internal/cobratree"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	root := cobratree.Build(cmd.Commands())
	for _, sh := range completions.Shells() {
		b, err := cobratree.Generate(root, sh)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(dir, completions.File(sh)), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
