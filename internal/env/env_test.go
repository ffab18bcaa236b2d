package env

import (
	"slices"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// A request's environment is the base's, but for the variables an answer
// depends on, which are exactly the request's: one the request does not
// carry is unset, even when the base has it, and a GIT_CONFIG pair of the
// base does not survive a request without it.
func TestRequestOverlay(t *testing.T) {
	t.Setenv("GH_TOKEN", "process-token")
	t.Setenv("GH_HOST", "process.example")
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "safe.directory")
	t.Setenv("GIT_CONFIG_VALUE_0", "/srv/x")
	t.Setenv("LANG", "C.UTF-8")
	req := map[string]string{
		"GH_HOST": "ghe.example", "NO_COLOR": "",
		"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_1": "user.name", "GIT_CONFIG_VALUE_1": "x",
		"LANG": "de_DE", "NOT_OURS": "y", "GIT_CONFIG_KEY_64": "beyond",
	}
	bases := map[string]Env{
		"process": Process(),
		"of": Of(map[string]string{"GH_TOKEN": "process-token", "GH_HOST": "process.example",
			"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "/srv/x", "LANG": "C.UTF-8"}),
	}
	cases := []struct {
		name, want string
		set        bool
	}{
		{"GH_HOST", "ghe.example", true},  // the request's value wins
		{"NO_COLOR", "", true},            // set empty is set
		{"GH_TOKEN", "", false},           // listed, missing from the request: unset
		{"GIT_CONFIG_COUNT", "2", true},   // listed
		{"GIT_CONFIG_KEY_0", "", false},   // the base's pair is gone
		{"GIT_CONFIG_VALUE_0", "", false}, //
		{"GIT_CONFIG_KEY_1", "user.name", true},
		{"GIT_CONFIG_VALUE_1", "x", true},
		{"LANG", "C.UTF-8", true},        // not listed: the base's
		{"NOT_OURS", "", false},          // not listed: never the request's
		{"GIT_CONFIG_KEY_64", "", false}, // beyond GitConfigPairs: the base's (none)
	}
	for bn, base := range bases {
		e := base.Request(req)
		for _, c := range cases {
			if v, ok := e.Lookup(c.name); v != c.want || ok != c.set {
				t.Errorf("%s: %s: got %q %v, want %q %v", bn, c.name, v, ok, c.want, c.set)
			}
			if e.Get(c.name) != c.want {
				t.Errorf("%s: Get(%s) = %q", bn, c.name, e.Get(c.name))
			}
		}
		got := e.Environ()
		for _, c := range cases {
			if has := slices.Contains(got, c.name+"="+c.want); has != c.set {
				t.Errorf("%s: Environ has %s=%q: %v, want %v", bn, c.name, c.want, has, c.set)
			}
		}
		if !slices.IsSorted(got) {
			t.Errorf("%s: Environ not sorted: %q", bn, got)
		}
		for _, kv := range got {
			if k, _, _ := strings.Cut(kv, "="); k == "GH_TOKEN" || k == "GIT_CONFIG_KEY_0" {
				t.Errorf("%s: Environ keeps the base's %s", bn, kv)
			}
		}
	}
	// The process's own environment is untouched.
	if v := Process().Get("GH_HOST"); v != "process.example" {
		t.Errorf("process GH_HOST %q", v)
	}
	// No variables in the request: every listed one is unset.
	if _, ok := Process().Request(nil).Lookup("GH_TOKEN"); ok {
		t.Error("a request without variables keeps the process's GH_TOKEN")
	}
}

func TestOfWithoutAndNoColor(t *testing.T) {
	t.Setenv("HOME", "/home/process")
	t.Setenv("PRCHIP_LOCK_FD", "3")
	cases := []struct {
		vars    map[string]string
		home    string
		noColor bool
	}{
		{map[string]string{}, "", false},
		{map[string]string{"NO_COLOR": ""}, "", false},
		{map[string]string{"NO_COLOR": "1", "HOME": "/h"}, "/h", true},
	}
	for _, c := range cases {
		e := Of(c.vars)
		if e.Get("HOME") != c.home || e.NoColor() != c.noColor {
			t.Errorf("%v: HOME %q NoColor %v", c.vars, e.Get("HOME"), e.NoColor())
		}
		if len(e.Environ()) != len(c.vars) {
			t.Errorf("%v: Environ %q", c.vars, e.Environ())
		}
	}
	if Process().Get("HOME") != "/home/process" {
		t.Error("the zero Env is not the process's")
	}
	w := Process().Without("PRCHIP_LOCK_FD")
	if _, ok := w.Lookup("PRCHIP_LOCK_FD"); ok || slices.Contains(w.Environ(), "PRCHIP_LOCK_FD=3") || w.Get("HOME") != "/home/process" {
		t.Errorf("Without: %q", w.Environ())
	}
	if Process().Get("PRCHIP_LOCK_FD") != "3" {
		t.Error("Without changed the process's environment")
	}
}

func TestIsName(t *testing.T) {
	for k, want := range map[string]bool{
		"GH_TOKEN": true, "PATH": true, "GIT_CONFIG_KEY_0": true, "GIT_CONFIG_VALUE_63": true,
		"GIT_CONFIG_KEY_64": false, "GIT_CONFIG_KEY_01": false, "GIT_CONFIG_KEY_-1": false, "GIT_CONFIG_KEY_": false,
		"LANG": false, "SUDO_UID": false,
	} {
		if IsName(k) != want {
			t.Errorf("IsName(%q) = %v", k, !want)
		}
	}
}
