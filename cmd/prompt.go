package cmd

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/sanitize"
)

// backgroundCmd is the hidden command a render starts to refresh a
// repository; it is not part of the CLI contract.
const backgroundCmd = "__refresh"

// lockFDEnv tells the background refresh which inherited descriptor holds
// the repository's refresh lock.
const lockFDEnv = "PRCHIP_LOCK_FD"

// runPrompt is the render path: parse flags by hand, read state, print,
// maybe start one background refresh. It never prints an error and always
// exits 0.
//
// Two hidden flags serve the zsh and fish redraw: --async adds a second line
// "refreshing" when a background refresh is in flight, and --wait only waits
// (bounded) for that refresh to end and prints nothing: the hooks render
// again themselves, where the shell is by then.
func runPrompt(o *IO, paths Paths, args []string) int {
	shell, noRefresh, async, wait := sanitize.Plain, false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--no-refresh":
			noRefresh = true
		case a == "--async":
			async = true
		case a == "--wait":
			wait = true
		case a == "--shell" && i+1 < len(args):
			i++
			a = "--shell=" + args[i]
			fallthrough
		case len(a) > 8 && a[:8] == "--shell=":
			s, ok := sanitize.ParseShell(a[8:])
			if !ok {
				return ExitOK
			}
			shell = s
		default:
			return ExitOK
		}
	}
	defer func() {
		// The prompt must survive anything, including a bug of ours.
		recover()
	}()
	// Outside a repository nothing is shown: the configuration and gh's
	// setup are read only inside one.
	s := o.sessionWithoutConfig(paths)
	env := &s.env
	if env.Dir == "" {
		return ExitOK
	}
	f := s.gather()
	if f.Repo == nil {
		return ExitOK
	}
	config.LoadInto(&s.cfg, paths.Config)
	if wait {
		waitForRefresh(env, f)
		return ExitOK
	}
	v := chip.LoadView(env.Store, f.Key)
	text, refresh := env.Render(f, &v, shell)
	if text != "" { // no write call for an empty chip
		o.print(text)
	}
	inFlight := false
	if refresh && !noRefresh {
		inFlight = spawnRefresh(env, f)
	}
	if async && inFlight {
		o.print("\nrefreshing")
	}
	return ExitOK
}

// print writes the render's output. A *os.File is written to directly:
// io.WriteString's assertion to io.StringWriter would fill a type-assertion
// cache at run time, two more page faults in a cold process.
func (o *IO) print(s string) {
	if f, ok := o.Stdout.(*os.File); ok {
		f.WriteString(s)
		return
	}
	io.WriteString(o.Stdout, s)
}

// waitForRefresh blocks while a refresh holds the repository's lock. It
// writes nothing: a waiter may outlive its shell. Not inlined, like
// spawnRefresh: it keeps the render's own stack frame small.
//
//go:noinline
func waitForRefresh(env *chip.Env, f *chip.Facts) {
	env.Store.WaitUnlocked(f.Key, refreshBudget(env)+2*time.Second)
}

// refreshBudget is the longest a refresh of env's chips can run: every
// chip's timeout and a second each. --wait and the background refresh's
// hard stop add their margins to it.
func refreshBudget(env *chip.Env) time.Duration {
	var d time.Duration
	for _, p := range chip.Policies(env.Config) {
		d += p.Timeout + time.Second
	}
	return d
}

// spawnRefresh starts one detached background refresh unless another
// process already holds the repository's refresh lock. The lock is taken
// here and handed to the child, so of many renders at once exactly one
// starts a refresh.
// It reports whether a refresh is in flight (started now or already
// running). Not inlined: its exec.Cmd would otherwise widen the render's
// stack frame, and a render that outgrows its first goroutine stack pays
// for a copy.
//
//go:noinline
func spawnRefresh(env *chip.Env, f *chip.Facts) bool {
	lock, err := env.Store.TryLock(f.Key)
	if err != nil {
		return false
	}
	if lock == nil {
		return true
	}
	defer lock.Close()
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	c := exec.Command(exe, backgroundCmd, f.Repo.Root)
	c.Dir = f.Repo.Root
	// The hooks run the render with GOMAXPROCS=1 to start faster; gh gets
	// the runtime's default again (prchip itself takes one processor anyway,
	// see internal/oneproc).
	env2 := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			env2 = append(env2, kv)
		}
	}
	c.Env = append(env2, lockFDEnv+"=3")
	c.ExtraFiles = []*os.File{lock}
	// A new session: no terminal, no job control signals, not waited for by
	// the shell's command substitution (stdio is /dev/null).
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return false
	}
	c.Process.Release()
	return true
}

// inheritedLock returns the refresh lock handed over by spawnRefresh.
func inheritedLock() *os.File {
	fd, err := strconv.Atoi(os.Getenv(lockFDEnv))
	if err != nil || fd < 3 {
		return nil
	}
	os.Unsetenv(lockFDEnv)
	// Not for gh: the lock is ours until this process ends.
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "refresh-lock")
}
