// Command prchip shows the current branch's GitHub pull request in a shell prompt.
package main

import (
	"os"

	"github.com/prchip/prchip/cmd"
)

func main() { os.Exit(cmd.Main(os.Args[1:])) }
