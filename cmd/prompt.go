package cmd

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/sanitize"
)

// backgroundCmd is the hidden command a render starts to refresh a
// repository; it is not part of the CLI contract.
const backgroundCmd = "__refresh"

// lockFDEnv tells the background refresh which inherited descriptor holds
// the repository's refresh lock.
const lockFDEnv = "PRCHIP_LOCK_FD"

// runPrompt is `prchip prompt`: print the chip, maybe start one background
// refresh. It never prints an error.
//
// Two hidden flags serve the one-shot hooks' redraw (zsh's fallback path,
// fish): async adds a second line "refreshing" when a background refresh
// is in flight, and wait only waits (bounded) for that refresh to end and
// prints nothing: the hooks render again themselves, where the shell is by
// then.
func runPrompt(o *IO, paths Paths, shell sanitize.Shell, noRefresh, async, wait bool) {
	defer func() {
		// The prompt must survive anything, including a bug of ours.
		recover()
	}()
	if wait {
		waitForRefresh(o, paths)
		return
	}
	r := render(o, paths, shell, noRefresh)
	if r.Text != "" { // no write call for an empty chip
		o.print(r.Text)
	}
	if r.Child != nil {
		r.Child.Release()
	}
	if async && r.InFlight {
		o.print("\nrefreshing")
	}
}

// rendered is what one render produced.
type rendered struct {
	Text string
	// InFlight: a refresh of this repository runs (started now or before).
	InFlight bool
	// Child is the refresh this render started, nil if none; the caller
	// waits for it or releases it.
	Child *os.Process
	// Key names the repository in the store; Config is the configuration
	// the render read (nil outside a repository).
	Key    string
	Config *config.Config
	Store  *cache.Store
	Budget time.Duration
	// Until is when time alone could change this render (StableUntil);
	// only the worker asks (withUntil).
	Until time.Time
}

// render is the one render of the chip, shared by `prchip prompt` and the
// worker: read state, decide, maybe start one background refresh. It
// reads the environment through o.Env only (the worker's is each
// request's), and the refresh it starts gets that environment.
func render(o *IO, paths Paths, shell sanitize.Shell, noRefresh bool) rendered {
	return renderUntil(o, paths, shell, noRefresh, false)
}

func renderUntil(o *IO, paths Paths, shell sanitize.Shell, noRefresh, withUntil bool) rendered {
	env := o.engine(paths)
	var none rendered // outside a repository: nothing, whatever the time
	if withUntil {
		none.Until = env.Time().Add(24 * time.Hour)
	}
	if env.Dir == "" {
		return none
	}
	f := env.Gather()
	if f.Repo == nil {
		return none
	}
	v := chip.LoadView(env.Store, f.Key)
	text, refresh := env.Render(f, &v, shell)
	r := rendered{Text: text, Key: f.Key, Config: env.Config, Store: env.Store}
	if withUntil {
		if r.Until = env.StableUntil(f, &v); r.Until.IsZero() {
			r.Until = env.Time().Add(24 * time.Hour)
		}
	}
	if refresh && !noRefresh {
		r.InFlight, r.Child = spawnRefresh(env, f)
		r.Budget = refreshBudget(env)
	}
	return r
}

func (o *IO) print(s string) { io.WriteString(o.Stdout, s) }

// at is o for a directory named by the caller (prompt --dir, the JSON of
// statusline) instead of the working directory: relative to the working
// directory, and nil, for nothing to be shown, when it is not a directory.
// The stat is needed: the repository search would walk up from a
// directory that is gone and show the chip of the repository above it.
func (o *IO) at(dir string) *IO {
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(o.dir(), dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	c := *o
	c.Dir = dir
	return &c
}

// waitForRefresh blocks while a refresh holds the repository's lock. It
// writes nothing: a waiter may outlive its shell.
func waitForRefresh(o *IO, paths Paths) {
	env := o.engine(paths)
	f := env.Gather()
	if f.Repo == nil {
		return
	}
	env.Store.WaitUnlocked(f.Key, refreshBudget(env)+2*time.Second)
}

// refreshBudget is the longest a refresh of env's chips can run
// (chip.RunBudget of each); --wait and the background refresh's hard stop
// add their margins to it.
func refreshBudget(env *chip.Engine) time.Duration {
	var d time.Duration
	for _, p := range chip.Policies(env.Config) {
		d += chip.RunBudget(p)
	}
	return d
}

// spawnRefresh starts one detached background refresh unless another
// process already holds the repository's refresh lock. The lock is taken
// here and handed to the child, so of many renders at once exactly one
// starts a refresh.
// It reports whether a refresh is in flight (started now or already
// running), and the process it started, if any.
func spawnRefresh(env *chip.Engine, f *chip.Facts) (bool, *os.Process) {
	lock, err := env.Store.TryLock(f.Key)
	if err != nil {
		return false, nil
	}
	if lock == nil {
		return true, nil
	}
	defer lock.Close()
	exe, err := os.Executable()
	if err != nil {
		return false, nil
	}
	c := exec.Command(exe, backgroundCmd, f.Repo.Root)
	c.Dir = f.Repo.Root
	c.Env = append(f.Environ(env.Env.Environ()), lockFDEnv+"=3")
	c.ExtraFiles = []*os.File{lock}
	// A new session: no terminal, no job control signals, not waited for by
	// the shell's command substitution (stdio is /dev/null).
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return false, nil
	}
	return true, c.Process
}

// inheritedLock returns the refresh lock handed over by spawnRefresh, and
// e without the variable that named it: the children get e, and not the
// descriptor.
func inheritedLock(e env.Env) (*os.File, env.Env) {
	fd, err := strconv.Atoi(e.Get(lockFDEnv))
	if err != nil || fd < 3 {
		return nil, e
	}
	e = e.Without(lockFDEnv)
	// Not for gh: the lock is ours until this process ends.
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "refresh-lock"), e
}
