// Package env looks environment variables up for the render path.
//
// os.Getenv's first call copies the whole environment into a map (three
// fresh memory spans, about six page faults, and a page fault costs 20 µs
// or more in the VMs prompts often run in). A render reads a dozen
// variables once, so after FromStart it scans the environment the process
// started with instead: same answers, nothing built.
package env

import (
	"os"
	"strings"
	_ "unsafe" // for go:linkname
)

// runtimeEnvs is the runtime's copy of the environment the process started
// with; package syscall reads its own copy through the same name.
//
//go:linkname runtimeEnvs syscall.runtime_envs
func runtimeEnvs() []string

var (
	fromStart bool
	start     []string
)

// FromStart makes Get and Lookup read the environment the process started
// with. Only for a process that never changes its own environment (the
// render): os.Setenv after it is not seen.
func FromStart() {
	start = runtimeEnvs()
	fromStart = true
}

// Get is os.Getenv.
func Get(key string) string {
	v, _ := Lookup(key)
	return v
}

// Lookup is os.LookupEnv: the first "key=value" entry wins, as in package
// syscall, which blanks later duplicates.
func Lookup(key string) (string, bool) {
	if !fromStart {
		return os.LookupEnv(key)
	}
	if key == "" || strings.IndexByte(key, '=') >= 0 {
		return "", false // os.LookupEnv cannot find such a key either
	}
	for _, kv := range start {
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			return kv[len(key)+1:], true
		}
	}
	return "", false
}
