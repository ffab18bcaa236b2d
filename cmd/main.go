// Package cmd is prchip's commands, on cobra (root.go): the flags, and the
// commands' output. The render is internal/render, the worker
// internal/worker.
package cmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/privdir"
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

// IO holds a command's dependencies, so tests can run commands in-process.
type IO struct {
	// Stdin is read only by `statusline`, for its caller's JSON.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
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
	State, Config string
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

// DefaultPaths follows the XDG base directory spec (SPEC 5): state in
// $XDG_STATE_HOME (default ~/.local/state; not one everyone can write, see
// stateHome), config in $XDG_CONFIG_HOME (default ~/.config), relative
// values ignored. It is adrg/xdg's rule on Linux (paths_test.go holds it to
// adrg/xdg's), written out because on macOS adrg/xdg puts both under
// ~/Library/Application Support, where neither prchip nor gh keeps them.
func DefaultPaths(e env.Env) Paths {
	home := cmp.Or(e.Get("HOME"), "/")
	state, note := stateHome(home, e)
	return Paths{
		State:     filepath.Join(state, "prchip", "state"),
		Config:    filepath.Join(xdgDir(e, "XDG_CONFIG_HOME", home, ".config"), "prchip", "config.toml"),
		StateNote: note,
		Runtime:   runtimeDirs(e),
	}
}

// runtimeDirs are where the store's spare may live, in order:
// $XDG_RUNTIME_DIR/prchip (the user's, on another file system than a full
// home, emptied at logout: fine for records that matter for minutes),
// $TMPDIR/prchip-UID, and the cache directory's prchip for when another
// user made that name first (privdir refuses one not privately the user's).
func runtimeDirs(e env.Env) []string {
	var dirs []string
	if d := e.Get("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		dirs = append(dirs, filepath.Join(d, "prchip"))
	}
	tmp := cmp.Or(e.Get("TMPDIR"), "/tmp") // os.TempDir's rule
	dirs = append(dirs, filepath.Join(tmp, "prchip-"+strconv.Itoa(os.Geteuid())))
	if cache := xdgDir(e, "XDG_CACHE_HOME", e.Get("HOME"), ".cache"); filepath.IsAbs(cache) {
		dirs = append(dirs, filepath.Join(cache, "prchip"))
	}
	return dirs
}

// stateHome is $XDG_STATE_HOME, unless everyone can write it
// (XDG_STATE_HOME=/tmp) and its "prchip" is not already a private directory
// of the user's: anyone could make that first, and hold the user's state.
// The state then goes to the XDG default ~/.local/state, which is the
// user's and lasts ($XDG_RUNTIME_DIR is emptied at logout, and would take
// validation, backoff and known PRs with it); note says so, for `status`.
// It costs the render one stat, and only when XDG_STATE_HOME is set: $HOME
// is taken to be the user's (the store still refuses, and `status`
// reports, a state directory that is not).
func stateHome(home string, e env.Env) (dir, note string) {
	def := filepath.Join(home, ".local", "state")
	x := e.Get("XDG_STATE_HOME")
	if x == "" || !filepath.IsAbs(x) {
		return def, ""
	}
	var st syscall.Stat_t
	if syscall.Stat(x, &st) != nil || st.Mode&0o002 == 0 {
		return x, "" // missing (the store makes it) or not shared
	}
	mine := filepath.Join(x, "prchip")
	if d, err := privdir.Open(mine); err == nil {
		d.Close()
		return x, ""
	}
	return def, "XDG_STATE_HOME (" + x + ") can be written by everyone, and " + mine +
		" is not a private directory of yours: prchip keeps its state in " + filepath.Join(def, "prchip") +
		" instead; point XDG_STATE_HOME at a directory of your own"
}

func xdgDir(e env.Env, name, home string, def ...string) string {
	if d := e.Get(name); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(append([]string{home}, def...)...)
}
