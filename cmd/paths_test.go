package cmd

import (
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
)

// TestPathsMatchAdrgXDG keeps prchip's two XDG directories identical to
// adrg/xdg's, which is not linked into the binary (see paths.go).
func TestPathsMatchAdrgXDG(t *testing.T) {
	home := t.TempDir()
	cases := []struct {
		name          string
		state, config string
		home          string
	}{
		{"defaults", "", "", home},
		{"set", "/x/state", "/y/config", home},
		{"relative values are ignored", "rel/state", "rel/config", home},
		{"HOME unset", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", c.home)
			t.Setenv("XDG_STATE_HOME", c.state)
			t.Setenv("XDG_CONFIG_HOME", c.config)
			xdg.Reload()
			p := DefaultPaths()
			if want := filepath.Join(xdg.StateHome, "prchip", "state"); p.State != want {
				t.Errorf("state %q, adrg/xdg says %q", p.State, want)
			}
			if want := filepath.Join(xdg.ConfigHome, "prchip", "config.toml"); p.Config != want {
				t.Errorf("config %q, adrg/xdg says %q", p.Config, want)
			}
		})
	}
}
