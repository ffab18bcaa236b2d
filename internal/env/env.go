// Package env is the one place prchip reads environment variables. A
// command reads the process's where it needs them; the worker answers
// each request with the variables the shell sent in it over its own, and
// never changes its own environment, so two answers in a row cannot see
// each other's variables, and a child (gh, git, a shell chip, the
// background refresh) gets the environment of the request that started
// it (Environ).
package env

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/prchip/prchip/internal/rawfile"
)

// Names are the variables an answer depends on that a shell may change
// after its worker started: a worker's request carries them (shellhooks),
// and only they (with the GitConfigPairs) differ between two answers of
// one worker. Everything else is read as it was when the worker started
// (SSH_AUTH_SOCK, LANG, SUDO_UID). Values travel only over the pipe.
var Names = []string{
	"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
	"GH_HOST", "GH_CONFIG_DIR", "GH_REPO", "PATH", "HOME", "NO_COLOR",
	"XDG_CONFIG_HOME", "XDG_STATE_HOME",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
	"http_proxy", "https_proxy", "no_proxy", "all_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "GIT_DIR", "GIT_WORK_TREE",
	// git's configuration from the environment (direnv, git -c): which
	// files git reads, and safe.directory and the rest set directly
	// (with GitConfigPairs).
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
}

// GitConfigPairs bounds the GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n (n
// below GIT_CONFIG_COUNT) an answer depends on besides Names: git reads
// its configuration from them, so they decide the answer as much as the
// fixed names do (a safe.directory set there makes another user's
// repository one prchip may show).
const GitConfigPairs = 64

// IsName reports whether an answer depends on variable k: one of Names,
// or GIT_CONFIG_KEY_n or GIT_CONFIG_VALUE_n for n below GitConfigPairs.
func IsName(k string) bool {
	return nameSet[k] || IsGitConfigPair(k)
}

// nameSet is Names for Lookup, which the worker's render calls for every
// variable it reads.
var nameSet = func() map[string]bool {
	m := make(map[string]bool, len(Names))
	for _, n := range Names {
		m[n] = true
	}
	return m
}()

// IsGitConfigPair reports whether k is GIT_CONFIG_KEY_n or
// GIT_CONFIG_VALUE_n with n (in git's decimal form) below GitConfigPairs.
func IsGitConfigPair(k string) bool {
	n, ok := strings.CutPrefix(k, "GIT_CONFIG_KEY_")
	if !ok {
		if n, ok = strings.CutPrefix(k, "GIT_CONFIG_VALUE_"); !ok {
			return false
		}
	}
	i, err := strconv.Atoi(n)
	return err == nil && i >= 0 && i < GitConfigPairs && strconv.Itoa(i) == n
}

// Env is one environment, read-only. The zero Env is the process's, read
// where a variable is needed: a one-shot command makes no copy at start,
// which the render path would pay for at every prompt (prchip never
// changes its own environment, so reading late reads the same).
type Env struct {
	vars map[string]string // nil: the process's
	// req holds, when not nil, the variables IsName names, as a request
	// has them (a name missing is unset); the others are vars'.
	req map[string]string
	// files is how a render in e reads files: its tracker travels with
	// the environment the render is passed everywhere (Tracked).
	files rawfile.Reader
}

// Process is the environment prchip was started with.
func Process() Env { return Env{} }

// Of is an environment of exactly the variables in vars.
func Of(vars map[string]string) Env {
	m := maps.Clone(vars)
	if m == nil {
		m = map[string]string{} // a nil vars is the process's environment
	}
	return Env{vars: m}
}

// Request is e with the variables an answer depends on (IsName) taken
// from vars instead: set as vars has them, unset when vars has not. On the
// worker's own environment it is what a one-shot `prchip prompt` started
// by the shell that sent vars would see. Nothing is copied: the worker
// answers many requests, and vars is not changed afterwards.
func (e Env) Request(vars map[string]string) Env {
	if vars == nil {
		vars = map[string]string{}
	}
	e.req = vars
	return e
}

// Without is e with the variables names unset (a handed-over descriptor's
// number must not reach the children, which do not have it).
func (e Env) Without(names ...string) Env {
	m := map[string]string{}
	for _, kv := range e.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && !slices.Contains(names, k) {
			m[k] = v
		}
	}
	return Env{vars: m, files: e.files}
}

// Tracked is e with its files read through a Reader that tells seen of
// every path (the worker's answer memory watches them).
func (e Env) Tracked(seen func(path string, entries bool)) Env {
	e.files = rawfile.Reader{Seen: seen}
	return e
}

// Files is the Reader every file read in e goes through.
func (e Env) Files() rawfile.Reader { return e.files }

// Lookup is os.LookupEnv in e.
func (e Env) Lookup(name string) (string, bool) {
	if e.req != nil && IsName(name) {
		v, ok := e.req[name]
		return v, ok
	}
	if e.vars == nil {
		return os.LookupEnv(name)
	}
	v, ok := e.vars[name]
	return v, ok
}

// Get is os.Getenv in e.
func (e Env) Get(name string) string {
	v, _ := e.Lookup(name)
	return v
}

// Environ is e as a child process's environment ("NAME=value"): every
// child is given it, since an exec.Cmd without one would get the
// process's, which in the worker is not the request's.
func (e Env) Environ() []string {
	if e.vars == nil && e.req == nil {
		return os.Environ()
	}
	var out []string
	if e.vars == nil {
		out = os.Environ()
	} else {
		out = make([]string, 0, len(e.vars)+len(e.req))
		for k, v := range e.vars {
			out = append(out, k+"="+v)
		}
	}
	if e.req != nil {
		out = slices.DeleteFunc(out, func(kv string) bool { k, _, _ := strings.Cut(kv, "="); return IsName(k) })
		for k, v := range e.req {
			if IsName(k) {
				out = append(out, k+"="+v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// NoColor is the no-color.org rule: NO_COLOR set and not empty turns
// colours off, whatever the configuration says.
func (e Env) NoColor() bool { return e.Get("NO_COLOR") != "" }
