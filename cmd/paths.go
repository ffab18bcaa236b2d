package cmd

import (
	"os"
	"path/filepath"
)

// DefaultPaths follows the XDG base directory spec (SPEC 5): state in
// $XDG_STATE_HOME (default ~/.local/state), config in $XDG_CONFIG_HOME
// (default ~/.config); relative values are ignored, as the spec says.
//
// This is adrg/xdg's rule on Linux (its tests are the oracle, see
// paths_test.go), written out because on macOS adrg/xdg puts both under
// ~/Library/Application Support, where neither prchip nor gh keeps them.
func DefaultPaths() Paths {
	home := os.Getenv("HOME")
	if home == "" {
		home = "/"
	}
	return Paths{
		State:  filepath.Join(xdgDir("XDG_STATE_HOME", home, ".local", "state"), "prchip", "state"),
		Config: filepath.Join(xdgDir("XDG_CONFIG_HOME", home, ".config"), "prchip", "config.toml"),
	}
}

func xdgDir(name, home string, def ...string) string {
	if d := os.Getenv(name); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(append([]string{home}, def...)...)
}
