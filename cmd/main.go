// Package cmd is prchip's commands, on cobra (root.go): the flags, and the
// commands' output. The render is internal/render, the worker
// internal/worker.
package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/render"
)

// Exit codes (SPEC 2).
const (
	ExitOK        = 0
	ExitRetryable = 1
	ExitUsage     = 2
	ExitAuth      = 4
)

// ExitError carries a command's exit code up to Main.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// IO holds a command's dependencies, so tests can run commands in-process.
type IO struct {
	// Stdin is read only by `statusline`, for its caller's JSON.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the working directory; "" means os.Getwd.
	Dir string
	Now func() time.Time
	// Run runs chip commands (gh, sh); nil is proc.Run. Tests give their own.
	Run func(context.Context, proc.Command) proc.Result
	// Env is the environment the command reads and its children get: the
	// zero value is the process's; the worker gives each request's.
	Env env.Env
}

// Paths are where prchip keeps its files.
type Paths struct {
	State  string
	Config string
	// StateNote says why State is not under $XDG_STATE_HOME, when it is
	// not (DefaultPaths); `status` shows it.
	StateNote string
	// Runtime are the per-user directories (runtimeDirs) where the
	// store keeps what State's directory would not take.
	Runtime []string
}

func (o *IO) dir() string {
	if o.Dir != "" {
		return o.Dir
	}
	d, _ := os.Getwd() // "" when the directory is gone
	return d
}

// gather is the engine for b's directory, files, clock and runner, and the
// facts it sees there. warn tells stderr about a broken config or state
// file (every command but prompt and status, which shows them itself).
func (b baseOptions) gather(warn bool) (*chip.Engine, *chip.Facts) {
	env := render.Engine(b.IO.request(b.Paths, "", true))
	if warn {
		for _, p := range env.Config.Problems {
			fmt.Fprintln(b.IO.Stderr, "prchip: warning: config", p.String())
		}
		if tx := env.Store.Load(); tx.Problem != nil {
			fmt.Fprintln(b.IO.Stderr, "prchip: warning:", tx.Problem.Error())
		}
	}
	return env, env.Gather()
}

// Main runs prchip with args and returns the process exit code.
func Main(args []string) int {
	return run(&IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, DefaultPaths(env.Process()), args)
}
