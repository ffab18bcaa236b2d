package cmd

import (
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/testenv"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts in testdata/script run `prchip` (this package's Main, in a
// re-executed test binary) in an isolated HOME and XDG directories.
func TestMain(m *testing.M) {
	// The background refresh a test's render starts runs this
	// binary as `prchip __refresh ROOT` (render.Render): prchip, not the tests.
	if len(os.Args) > 1 && os.Args[1] == render.BackgroundCmd {
		os.Exit(Main(os.Args[1:]))
	}
	// The test binary, not prchip run by a script (which has the script's
	// HOME and XDG directories): a home of its own (testenv.Isolate).
	var tm testscript.TestingM = m
	if filepath.Base(os.Args[0]) != "prchip" {
		tm = isolatedM{m, testenv.Isolate()}
	}
	testscript.Main(tm, map[string]func(){
		"prchip": func() { os.Exit(Main(os.Args[1:])) },
	})
}

// isolatedM removes the isolated home after the tests (testscript.Main
// exits without returning).
type isolatedM struct {
	m       *testing.M
	cleanup func()
}

func (i isolatedM) Run() int {
	defer i.cleanup()
	return i.m.Run()
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
