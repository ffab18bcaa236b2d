package cmd

import (
	"testing"
)

// The XDG rules as SPEC 5 has them: variables first, relative values
// ignored, defaults under HOME.
func TestDefaultPaths(t *testing.T) {
	cases := []struct {
		name, home, state, config string
		wantState, wantConfig     string
	}{
		{"defaults", "/h", "", "", "/h/.local/state/prchip/state", "/h/.config/prchip/config.toml"},
		{"set", "/h", "/x/state", "/y/config", "/x/state/prchip/state", "/y/config/prchip/config.toml"},
		{"relative values are ignored", "/h", "rel/state", "rel/config", "/h/.local/state/prchip/state", "/h/.config/prchip/config.toml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", c.home)
			t.Setenv("XDG_STATE_HOME", c.state)
			t.Setenv("XDG_CONFIG_HOME", c.config)
			if p := DefaultPaths(); p.State != c.wantState || p.Config != c.wantConfig {
				t.Errorf("got %+v, want state %s config %s", p, c.wantState, c.wantConfig)
			}
		})
	}
	// A change of the environment counts at the next call (the worker).
	t.Setenv("HOME", "/a")
	t.Setenv("XDG_STATE_HOME", "")
	first := DefaultPaths().State
	t.Setenv("HOME", "/b")
	if second := DefaultPaths().State; first == second {
		t.Errorf("HOME changed, state stayed %s", second)
	}
}
