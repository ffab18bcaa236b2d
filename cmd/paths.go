package cmd

import (
	"path/filepath"

	"github.com/adrg/xdg"
)

// DefaultPaths are where prchip keeps its files (SPEC 5), by the XDG base
// directory spec: state in $XDG_STATE_HOME (default ~/.local/state), config
// in $XDG_CONFIG_HOME (default ~/.config). adrg/xdg reads the environment
// again each time: the worker takes each request's variables.
func DefaultPaths() Paths {
	xdg.Reload()
	return Paths{
		State:  filepath.Join(xdg.StateHome, "prchip", "state"),
		Config: filepath.Join(xdg.ConfigHome, "prchip", "config.toml"),
	}
}
