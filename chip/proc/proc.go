// Package proc runs a chip's command: bounded in time and output, stdin
// from /dev/null, and the whole process tree gone when it ends.
package proc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
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

// ProcessResult is how a chip command's process ended: everything the
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
// output and break parsing.
var removedEnv = []string{"GH_FORCE_TTY", "CLICOLOR_FORCE", "GH_DEBUG", "DEBUG"}

// GhEnv is the user's environment adjusted for a non-interactive gh run:
// tokens, hosts, config dir and proxies pass through unchanged.
func GhEnv(environ []string) []string {
	out := make([]string, 0, len(environ)+4)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		skip := false
		for _, r := range append(removedEnv, "GH_PROMPT_DISABLED", "GH_NO_UPDATE_NOTIFIER", "NO_COLOR", "GH_PAGER") {
			if k == r {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, kv)
		}
	}
	return append(out, "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PAGER=cat")
}

// boundedBuffer keeps the first max bytes written and counts the rest.
type boundedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int64
	// full, when set, is closed the first time something is dropped.
	full chan struct{}
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	before := b.dropped
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) <= room {
			b.buf.Write(p)
		} else {
			b.buf.Write(p[:room])
			b.dropped += int64(len(p) - room)
		}
	} else {
		b.dropped += int64(len(p))
	}
	if before == 0 && b.dropped > 0 && b.full != nil {
		close(b.full)
	}
	return len(p), nil
}

func (b *boundedBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// runMu keeps Runs apart in a subreaper, where the end of one takes every
// child of this process but its own leader for an orphan of its run.
var runMu sync.Mutex

// Run starts c in its own process group with stdin on /dev/null and waits at
// most c.Timeout (or until stdout overflows). However the leader ends, the
// run's whole process tree ends with it (endTree), and output still held
// open by an escaped grandchild is abandoned after a short grace.
func Run(ctx context.Context, c Command) Result {
	if adoptsOrphans() {
		runMu.Lock()
		defer runMu.Unlock()
	}
	start := time.Now()
	res := Result{ExitCode: -1}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	devnull, err := os.Open(os.DevNull)
	if err != nil {
		res.StartErr = err
		return res
	}
	defer devnull.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		res.StartErr = err
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		res.StartErr = err
		return res
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdin = devnull
	cmd.Stdout = outW
	cmd.Stderr = errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout := &boundedBuffer{max: MaxStdout, full: make(chan struct{})}
	stderr := &boundedBuffer{max: MaxStderr}
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		res.StartErr = err
		res.Duration = time.Since(start)
		return res
	}
	pid := cmd.Process.Pid
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); io.Copy(stderr, errR) }()

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
	err = cmd.Wait()

	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(pipeGrace):
	}
	outR.Close()
	errR.Close()
	<-done

	res.Stdout = stdout.bytes()
	res.Stderr = stderr.bytes()
	res.Duration = time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signaled = true
			res.ExitCode = -1
		}
	default:
		res.ExitCode = -1
	}
	return res
}
