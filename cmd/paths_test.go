package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"github.com/prchip/prchip/internal/env"
)

// TestPathsMatchAdrgXDG keeps prchip's two XDG directories identical to
// adrg/xdg's, which is not linked into the binary (see DefaultPaths).
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
			p := DefaultPaths(env.Process())
			if want := filepath.Join(xdg.StateHome, "prchip", "state"); p.State != want {
				t.Errorf("state %q, adrg/xdg says %q", p.State, want)
			}
			if want := filepath.Join(xdg.ConfigHome, "prchip", "config.toml"); p.Config != want {
				t.Errorf("config %q, adrg/xdg says %q", p.Config, want)
			}
		})
	}
}

// An XDG_STATE_HOME everyone can write (a /tmp) is used only where
// prchip's directory in it is already a private one of the user's;
// otherwise the state goes to ~/.local/state and StateNote says why. A
// directory that is not shared is used as it is.
func TestSharedStateHomeFallsBack(t *testing.T) {
	home := t.TempDir()
	fallback := filepath.Join(home, ".local", "state", "prchip", "state")
	cases := []struct {
		name     string
		mode     os.FileMode
		prchip   func(t *testing.T, p string)
		fallback bool
	}{
		{"shared, prchip missing", 0o777 | os.ModeSticky, func(*testing.T, string) {}, true},
		{"shared, prchip a link to a directory of yours", 0o777 | os.ModeSticky, func(t *testing.T, p string) { os.Symlink(t.TempDir(), p) }, true},
		{"shared, prchip writable by others", 0o777 | os.ModeSticky, func(t *testing.T, p string) { os.Mkdir(p, 0o777); os.Chmod(p, 0o777) }, true},
		{"shared, prchip another user's", 0o777 | os.ModeSticky, func(t *testing.T, p string) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to play another user")
			}
			os.Mkdir(p, 0o700)
			os.Chown(p, 65534, 65534)
		}, true},
		{"shared, prchip yours", 0o777 | os.ModeSticky, func(t *testing.T, p string) { os.Mkdir(p, 0o700) }, false},
		{"not shared, prchip missing", 0o755, func(*testing.T, string) {}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := filepath.Join(t.TempDir(), "tmp")
			os.Mkdir(x, 0o700)
			os.Chmod(x, c.mode)
			c.prchip(t, filepath.Join(x, "prchip"))
			t.Setenv("HOME", home)
			t.Setenv("XDG_STATE_HOME", x)
			p := DefaultPaths(env.Process())
			want := filepath.Join(x, "prchip", "state")
			if c.fallback {
				want = fallback
			}
			if p.State != want {
				t.Fatalf("state %q, want %q", p.State, want)
			}
			if c.fallback != (p.StateNote != "") || c.fallback && !strings.Contains(p.StateNote, x+") can be written by everyone") {
				t.Fatalf("note %q", p.StateNote)
			}
		})
	}
}
