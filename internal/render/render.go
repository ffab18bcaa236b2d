// Package render is the one render of the chip, shared by `prchip prompt`,
// `prchip statusline` and the worker: a request in, the chip out. It prints
// nothing and starts at most one detached background refresh. The request
// carries the environment the render reads (env.Env), and with it the
// Reader every file is read through (env.Env.Files): the worker's answer
// memory learns what an answer depends on from the request it made, and
// no read of the render's can pass it by.
package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/sanitize"
)

const (
	// BackgroundCmd is the hidden command a render starts to refresh a
	// repository; it is not part of the CLI contract.
	BackgroundCmd = "__refresh"
	// lockFDEnv names the inherited descriptor that holds the refresh lock.
	lockFDEnv = "PRCHIP_LOCK_FD"
)

// Request is one render's question.
type Request struct {
	Dir string // the directory to render for; "" renders nothing
	// Env is what the render reads and a refresh it starts gets: the
	// process's, or a worker request's, Tracked when the worker watches
	// the files the render reads.
	Env           env.Env
	State, Config string   // the state and configuration files
	Runtime       []string // where the store keeps a spare of the state
	Shell         sanitize.Shell
	NoRefresh     bool // start no background refresh
	Until         bool // asks for Chip.Until (the worker's answer memory)
	Now           func() time.Time
	Run           func(context.Context, proc.Command) proc.Result // runs gh and sh; nil is proc.Run
}

// Chip is what one render produced.
type Chip struct {
	Text     string
	InFlight bool        // a refresh of this repository runs (started now or before)
	Child    *os.Process // the refresh this render started, if any: the caller waits for it or releases it
	// Key names the repository in Store; Config is the configuration the
	// render read (nil outside a repository).
	Key    string
	Config *config.Config
	Store  *cache.Store
	// Until is when time alone could change this render (StableUntil);
	// set only when the request asks.
	Until time.Time
}

// Engine is the engine r's questions are answered with: the directory,
// the store, the configuration, the clock and the environment.
func Engine(r Request) *chip.Engine {
	files := r.Env.Files()
	return &chip.Engine{Dir: r.Dir, Store: &cache.Store{Path: r.State, Now: r.Now, Spare: r.Runtime, Files: files},
		Config: config.Load(r.Config, files), Now: r.Now, Run: r.Run, Env: r.Env}
}

// Render reads state, decides, and maybe starts one background refresh.
func Render(r Request) Chip {
	eng := Engine(r)
	var c Chip
	if r.Until { // a day, outside a repository and where time alone changes nothing
		c.Until = eng.Time().Add(24 * time.Hour)
	}
	if eng.Dir == "" {
		return c
	}
	f := eng.Gather()
	if f.Repo == nil {
		return c
	}
	v := chip.LoadView(eng.Store, f.Key)
	text, refresh := eng.Render(f, &v, r.Shell)
	c.Text, c.Key, c.Config, c.Store = text, f.Key, eng.Config, eng.Store
	if r.Until {
		if stable := eng.StableUntil(f, &v); !stable.IsZero() {
			c.Until = stable
		}
	}
	if refresh && !r.NoRefresh {
		c.InFlight, c.Child = spawnRefresh(eng, f)
	}
	return c
}

// Wait blocks while a refresh holds the lock of r's repository (bounded).
// It writes nothing: a waiter may outlive its shell.
func Wait(r Request) {
	eng := Engine(r)
	f := eng.Gather()
	if f.Repo == nil {
		return
	}
	eng.Store.WaitUnlocked(f.Key, Budget(eng.Config)+2*time.Second)
}

// Budget is the longest a refresh of cfg's chips can run (chip.RunBudget
// of each); waiters and the background refresh's hard stop add their
// margins to it.
func Budget(cfg *config.Config) time.Duration {
	var d time.Duration
	for _, p := range chip.Policies(cfg) {
		d += chip.RunBudget(p)
	}
	return d
}

// spawnRefresh starts one detached background refresh unless another
// process already holds the repository's refresh lock. The lock is taken
// here and handed to the child, so of many renders at once exactly one
// starts a refresh. It reports whether a refresh is in flight (started
// now or already running), and the process it started, if any.
func spawnRefresh(eng *chip.Engine, f *chip.Facts) (bool, *os.Process) {
	lock, err := eng.Store.TryLock(f.Key)
	if err != nil || lock == nil {
		return err == nil, nil // no error: another process holds it
	}
	defer lock.Close()
	exe, err := os.Executable()
	if err != nil {
		return false, nil
	}
	c := exec.Command(exe, BackgroundCmd, f.Repo.Root)
	c.Dir = f.Repo.Root
	c.Env = append(f.Environ(eng.Env.Environ()), lockFDEnv+"=3")
	c.ExtraFiles = []*os.File{lock}
	// A new session: no terminal, no job control signals, not waited for by
	// the shell's command substitution (stdio is /dev/null).
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return false, nil
	}
	return true, c.Process
}

// Refresh is the detached refresh a render started (BackgroundCmd), for
// the repository at q.Dir. It holds the repository's refresh lock for its
// whole life (the one handed over, else its own), decides again under it
// (another refresh may just have finished), runs what is due and records
// the outcomes. It prints nothing: its stdio is /dev/null. A refresh that
// outlives its budget ends the process with exit code 1 (SPEC 2's
// retryable failure).
func Refresh(q Request) error {
	// The lock spawnRefresh handed over; the children get the environment
	// without the variable that named it, and not the descriptor.
	var lock *os.File
	if fd, err := strconv.Atoi(q.Env.Get(lockFDEnv)); err == nil && fd >= 3 {
		q.Env = q.Env.Without(lockFDEnv)
		syscall.CloseOnExec(fd) // not for gh: the lock is ours until this process ends
		lock = os.NewFile(uintptr(fd), "refresh-lock")
	}
	proc.BecomeSubreaper()
	eng := Engine(q)
	f := eng.Gather()
	if f.Repo == nil {
		return nil
	}
	if lock == nil { // started by hand: take the lock like a render would
		if lock, _ = eng.Store.TryLock(f.Key); lock == nil {
			return nil
		}
	}
	defer lock.Close()
	// A hard stop in case anything below hangs despite the run timeouts.
	time.AfterFunc(Budget(eng.Config)+10*time.Second, func() { os.Exit(1) })
	if _, err := eng.Refresh(context.Background(), f, chip.RefreshOptions{}); err != nil {
		return fmt.Errorf("refresh %s: %w", q.Dir, err)
	}
	return nil
}
