// Package proc runs a chip's command: bounded in time and output, stdin
// from /dev/null, and the whole process tree gone when it ends.
package proc

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Capture limits: a PR's JSON is a few hundred bytes. Stderr past its limit
// is read and dropped so the child never blocks on a full pipe; stdout past
// its limit cannot be a PR any more, so the run is stopped there.
const (
	MaxStdout = 1 << 20
	MaxStderr = 64 << 10
)

// pipeGrace bounds how long output is awaited after the child exited, for
// when a grandchild keeps the pipes open.
const pipeGrace = 250 * time.Millisecond

// Result is how a chip command's process ended: everything the
// classifier may look at.
type Result struct {
	ExitCode int // -1 when killed by a signal or never started
	TimedOut bool
	Signaled bool
	// Overflowed: stdout passed MaxStdout and the run was stopped.
	Overflowed bool
	// StartErr is set when the program could not be started at all.
	StartErr error
	Stdout   []byte
	Stderr   []byte
	Duration time.Duration
}

// Command describes one run.
type Command struct {
	Path    string
	Args    []string
	Dir     string
	Env     []string
	Timeout time.Duration
}

// removedEnv must not reach gh: they would colour, page or debug-print its
// output and break parsing; ghSet replaces the user's values.
var (
	removedEnv = []string{"GH_FORCE_TTY", "CLICOLOR_FORCE", "GH_DEBUG", "DEBUG"}
	ghSet      = []string{"GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PAGER=cat"}
)

// GhEnv is the user's environment adjusted for a non-interactive gh run:
// tokens, hosts, config dir and proxies pass through unchanged.
func GhEnv(environ []string) []string {
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		isSet := func(set string) bool { return strings.HasPrefix(set, k+"=") }
		return slices.Contains(removedEnv, k) || slices.ContainsFunc(ghSet, isSet)
	})
	return append(out, ghSet...)
}

// boundedBuffer keeps the first max bytes written and drops the rest. Only
// exec's copying goroutine writes it, and Run reads it after Wait.
type boundedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped bool
	// full, when set, is closed the first time something is dropped.
	full chan struct{}
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	keep := min(len(p), max(b.max-b.buf.Len(), 0))
	b.buf.Write(p[:keep])
	if keep < len(p) && !b.dropped {
		b.dropped = true
		if b.full != nil {
			close(b.full)
		}
	}
	return len(p), nil
}

// runMu keeps Runs apart in a subreaper, where the end of one takes every
// child of this process but its own leader for an orphan of its run.
var runMu sync.Mutex

// Run starts c in its own process group with stdin on /dev/null and waits at
// most c.Timeout (or until stdout overflows). However the leader ends, the
// run's whole process tree ends with it (endTree), and output still held
// open by an escaped grandchild is abandoned after pipeGrace (WaitDelay).
func Run(ctx context.Context, c Command) Result {
	if adoptsOrphans() {
		runMu.Lock()
		defer runMu.Unlock()
	}
	start := time.Now()
	res := Result{ExitCode: -1}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	stdout := &boundedBuffer{max: MaxStdout, full: make(chan struct{})}
	stderr := &boundedBuffer{max: MaxStderr}
	// Not CommandContext: its Cancel kills the leader alone; endTree ends
	// the tree. A nil Stdin is /dev/null.
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = pipeGrace
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		res.StartErr = err
		res.Duration = time.Since(start)
		return res
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() { waitExit(pid); close(exited) }()
	select {
	case <-exited:
	case <-ctx.Done():
		res.TimedOut = true
	case <-stdout.full:
		res.Overflowed = true
	}
	// The leader is not reaped before its tree has ended, so its pid and
	// its group's id cannot have been reused meanwhile.
	select {
	case <-exited:
		endTree(pid, true)
	default:
		endTree(pid, false)
		<-exited
	}
	cmd.Wait() // its error says no more than ProcessState
	res.Stdout = stdout.buf.Bytes()
	res.Stderr = stderr.buf.Bytes()
	res.Duration = time.Since(start)
	if ps := cmd.ProcessState; ps != nil { // nil: the wait itself failed
		res.ExitCode, res.Signaled = ps.ExitCode(), !ps.Exited()
	}
	return res
}
