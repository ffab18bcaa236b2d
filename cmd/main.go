// Package cmd wires prchip's commands. The render path (`prchip prompt`)
// is dispatched before the command table is even looked at, because it runs
// on every prompt and must cost little more than a process start.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/internal/rawfile"
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
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the working directory; "" means os.Getwd.
	Dir string
	Now func() time.Time
}

// Paths are where prchip keeps its files.
type Paths struct {
	State  string
	Config string
}

func (o *IO) dir() string {
	if o.Dir != "" {
		return o.Dir
	}
	return getwd()
}

// getwd is os.Getwd's rule ($PWD when it names the current directory)
// with raw system calls, for the render path.
func getwd() string {
	if pwd := os.Getenv("PWD"); filepath.IsAbs(pwd) {
		a, err1 := rawfile.Stat(pwd)
		b, err2 := rawfile.Stat(".")
		if err1 == nil && err2 == nil && a.Dev == b.Dev && a.Ino == b.Ino {
			return pwd
		}
	}
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}

func (o *IO) env(p Paths) *chip.Env {
	return &chip.Env{
		Dir:    o.dir(),
		Store:  &cache.Store{Path: p.State, Now: o.Now},
		Config: config.Load(p.Config),
		Now:    o.Now,
	}
}

// warnProblems tells the user on stderr about a broken config or state file
// (every command but prompt and status, which shows them itself).
func warnProblems(o *IO, env *chip.Env) {
	for _, p := range env.Config.Problems {
		fmt.Fprintln(o.Stderr, "prchip: warning: config", p.String())
	}
	if tx := env.Store.Load(); tx.Problem != nil {
		fmt.Fprintln(o.Stderr, "prchip: warning:", tx.Problem.Error())
	}
}

// Main runs prchip with args and returns the process exit code.
func Main(args []string) int {
	return MainIO(&IO{Stdout: os.Stdout, Stderr: os.Stderr}, args)
}

// MainIO is Main with the streams (and directory, clock) given.
func MainIO(io *IO, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "prompt":
			return runPrompt(io, DefaultPaths(), args[1:])
		case backgroundCmd:
			return runBackground(DefaultPaths(), args[1:])
		}
	}
	err := dispatch(io, DefaultPaths(), args)
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(io.Stderr, "prchip:", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintln(io.Stderr, "prchip:", err)
	return ExitUsage
}
