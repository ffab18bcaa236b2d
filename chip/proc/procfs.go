package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/prchip/prchip/internal/rawfile"
)

// prchip's one /proc reader. Without /proc (macOS) every read fails and
// reports nothing known; what a number names may change between two reads,
// so a caller that acts on a process reads after opening its pidfd and
// finds it alive after.

// Stat is what /proc/PID/stat says of a process.
type Stat struct {
	PPID  int
	State byte
	// Start is when the process started, in clock ticks since boot (its
	// 22nd field, as written): with the pid, it names one process.
	Start string
}

// ReadStat reads /proc/PID/stat: "pid (comm) state ppid ...", where comm
// may hold spaces and parentheses, so the fields are after the last ')'.
func ReadStat(pid int) (Stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return Stat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return Stat{}, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	st := Stat{PPID: ppid, State: f[0][0]}
	if len(f) > 19 {
		st.Start = string(f[19])
	}
	return st, err == nil
}

// Cmdline is pid's command line, NUL-separated; nil when unknown.
func Cmdline(pid int) []byte {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return b
}

// Exe is the identity of the executable pid runs (an exec changes it),
// zero when unknown.
func Exe(pid int) rawfile.ID { return rawfile.Identity("/proc/" + strconv.Itoa(pid) + "/exe") }

// Catches reports whether pid has a handler for sig (SigCgt in
// /proc/PID/status).
func Catches(pid int, sig syscall.Signal) bool {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status") // nil: not found below
	_, rest, ok := bytes.Cut(b, []byte("\nSigCgt:\t"))
	if !ok {
		return false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	mask, err := strconv.ParseUint(string(line), 16, 64)
	return err == nil && sig >= 1 && sig <= 64 && mask&(1<<(uint(sig)-1)) != 0
}
