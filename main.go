// Command prchip shows the current branch's GitHub pull request in a shell prompt.
//
// updatemaxprocs=0: a prchip process lives for milliseconds (the render) or
// seconds (a refresh); following a change of the container's CPU limit is for
// long-lived servers, and the goroutine that does it is one more to start on
// every prompt.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/prchip/prchip/cmd"
	// Before any other initialiser allocates: see the package comment.
	_ "github.com/prchip/prchip/internal/oneproc"
)

func main() { os.Exit(cmd.Main(os.Args[1:])) }
