package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts in testdata/script run `prchip` (this package's Main, in a
// re-executed test binary) in an isolated HOME and XDG directories.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"prchip": func() { os.Exit(Main(os.Args[1:])) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, "state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "config"))
			env.Setenv("GH_CONFIG_DIR", filepath.Join(env.WorkDir, "gh"))
			return nil
		},
	})
}
