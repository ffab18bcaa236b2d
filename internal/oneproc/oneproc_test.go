package oneproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The test binary links this package, so its initialiser has run.
func TestDefaultBecomesOne(t *testing.T) {
	if os.Getenv("ONEPROC_REPORT") != "" {
		os.Stdout.WriteString("procs=" + strconv.Itoa(runtime.GOMAXPROCS(0)) + "\n")
		return
	}
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: the default is already one processor")
	}
	cases := []struct {
		env  string
		want int
	}{
		{"", 1},
		{"GOMAXPROCS=" + strconv.Itoa(runtime.NumCPU()+1), runtime.NumCPU() + 1},
		{"GOMAXPROCS=2", 1}, // equal to the CPU count on two CPUs
	}
	for _, c := range cases {
		if c.env == "GOMAXPROCS=2" && runtime.NumCPU() != 2 {
			continue
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestDefaultBecomesOne$")
		cmd.Env = append(withoutGOMAXPROCS(os.Environ()), "ONEPROC_REPORT=1")
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.env, err, out)
		}
		want := "procs=" + strconv.Itoa(c.want) + "\n"
		if !strings.HasPrefix(string(out), want) {
			t.Errorf("with %q: got %q, want %q", c.env, out, want)
		}
	}
}

func withoutGOMAXPROCS(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			out = append(out, kv)
		}
	}
	return out
}
