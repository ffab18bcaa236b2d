package proc

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prchip/prchip/internal/rawfile"
)

// The one /proc reader on live children of this test: a command name
// with ") " in it (the fields are after the last ')'), the command line,
// the executable's identity through a link, and SigCgt.
func TestProcReader(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "x) S 1 (y")
	if err := os.Symlink("/bin/sleep", odd); err != nil {
		t.Fatal(err)
	}
	start := func(path string, args ...string) (*exec.Cmd, *bufio.Reader) {
		c := &exec.Cmd{Path: path, Args: args}
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c, bufio.NewReader(out)
	}
	sleeper, _ := start(odd, "sleep", "30")
	trapper, out := start("/bin/sh", "sh", "-c", `trap 'echo urg' URG; echo ready; while :; do sleep 1; done`)
	if line, err := out.ReadString('\n'); line != "ready\n" {
		t.Fatalf("the trapping shell said %q, %v", line, err)
	}
	for _, c := range []struct {
		name    string
		pid     int
		cmdline string
		exe     string
		urg     bool
	}{
		{"sleep named x) S 1 (y", sleeper.Process.Pid, "sleep\x0030\x00", "/bin/sleep", false},
		{"sh trapping SIGURG", trapper.Process.Pid, "sh\x00-c\x00trap 'echo urg' URG; echo ready; while :; do sleep 1; done\x00", "/bin/sh", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, ok := ReadStat(c.pid)
			if !ok || st.PPID != os.Getpid() || !strings.ContainsRune("RSD", rune(st.State)) {
				t.Errorf("ReadStat: %+v %v, want parent %d, running or sleeping", st, ok, os.Getpid())
			}
			if got := string(Cmdline(c.pid)); got != c.cmdline {
				t.Errorf("Cmdline: %q, want %q", got, c.cmdline)
			}
			if got, want := Exe(c.pid), rawfile.Identity(c.exe); got != want || got == (rawfile.ID{}) {
				t.Errorf("Exe: %v, want %v (%s)", got, want, c.exe)
			}
			if got := Catches(c.pid, syscall.SIGURG); got != c.urg {
				t.Errorf("Catches SIGURG: %v, want %v", got, c.urg)
			}
			if Catches(c.pid, syscall.SIGUSR2) {
				t.Error("Catches SIGUSR2, which nothing handles")
			}
		})
	}
	sleeper.Process.Kill()
	sleeper.Wait()
	pid := sleeper.Process.Pid
	if st, ok := ReadStat(pid); ok || Cmdline(pid) != nil || Exe(pid) != (rawfile.ID{}) || Catches(pid, syscall.SIGURG) {
		t.Errorf("a reaped process still reads as %+v %v, %q, %v", st, ok, Cmdline(pid), Exe(pid))
	}
}
