// Package cmd wires prchip's commands. The render path (`prchip prompt`)
// is dispatched before the command table is even looked at, because it runs
// on every prompt and must cost little more than a process start.
package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/ghauth"
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

func (o *IO) env(p Paths) *chip.Env { return &o.session(p).env }

// session is what a command reads before it decides, in one allocation: a
// cold process pays a fresh memory span, two page faults, for every size
// class it allocates first, and the render runs cold on every prompt.
type session struct {
	env   chip.Env
	cfg   config.Config
	store cache.Store
	facts chip.Facts
	setup ghauth.Setup
}

func (o *IO) session(p Paths) *session {
	s := o.sessionWithoutConfig(p)
	config.LoadInto(&s.cfg, p.Config)
	return s
}

// sessionWithoutConfig is a session whose configuration is loaded later:
// the render reads it only inside a repository.
func (o *IO) sessionWithoutConfig(p Paths) *session {
	s := new(session)
	s.store = cache.Store{Path: p.State, Now: o.Now}
	s.env = chip.Env{Dir: o.dir(), Store: &s.store, Config: &s.cfg, Now: o.Now}
	return s
}

// gather reads the repository facts of the session's directory.
func (s *session) gather() *chip.Facts {
	chip.GatherInto(&s.facts, &s.setup, s.env.Dir, s.env.Time())
	return &s.facts
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
func MainIO(io *IO, args []string) int { return run(io, DefaultPaths(), args) }
