package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/proc"
)

// EndStuck kills the worker the hook names, and nothing that only has its
// number: a process with another command line, or a worker of other FIFOs.
func TestEndWorkerOnlyEndsThatWorker(t *testing.T) {
	dir := t.TempDir()
	// A stand-in worker: sh running the script "worker" (it waits for a
	// line that never comes), with the command line the hook gives a worker.
	os.WriteFile(filepath.Join(dir, "worker"), []byte("read x\n"), 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	t.Cleanup(func() { w.Close() })
	start := func(args ...string) *exec.Cmd {
		c := &exec.Cmd{Path: "/bin/sh", Args: args, Dir: dir, Stdin: r}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	worker := start("prchip", "worker", "--shell", "zsh", "--pid", "1", "--fifos", dir)
	other := start("sh", "-c", "read x", "worker", "--fifos", dir)
	time.Sleep(50 * time.Millisecond) // both have exec'd
	gone := func(c *exec.Cmd) bool {
		st, ok := proc.ReadStat(c.Process.Pid)
		return !ok || st.State == 'Z'
	}

	EndStuck(itoa(other.Process.Pid) + ":" + dir)
	EndStuck(itoa(worker.Process.Pid) + ":" + dir + "-not")
	EndStuck(itoa(worker.Process.Pid))
	time.Sleep(50 * time.Millisecond)
	if gone(other) || gone(worker) {
		t.Fatalf("a process that is not the named worker was killed (other gone %v, worker gone %v)", gone(other), gone(worker))
	}
	EndStuck(itoa(worker.Process.Pid) + ":" + dir)
	if err := worker.Wait(); err == nil || worker.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the named worker was not killed: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
