package worker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/testenv"
)

// The tests run in a home of their own (testenv.Isolate). The background
// refresh a test's render starts runs this binary as `prchip __refresh
// ROOT` (render.BackgroundCmd): render.Refresh, with the files testRequest
// names, as prchip's own would. Run as `prchip worker SHELL FIFOS`, it is
// a real worker (Run) of its parent, for the tests that need the whole
// process (startWorker).
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "worker" {
		Run(Options{Shell: sanitize.Shell(os.Args[2]), ShellPID: os.Getppid(), FIFOs: os.Args[3], Env: env.Process(), Request: testRequest})
		os.Exit(0)
	}
	if len(os.Args) == 3 && os.Args[1] == render.BackgroundCmd {
		q := testRequest(env.Process())
		q.Dir = os.Args[2]
		if render.Refresh(q) != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	testenv.Main(m)
}

// testRequest is cmd's DefaultPaths for e, for the homes these tests
// make (XDG_STATE_HOME and XDG_CONFIG_HOME set and private).
func testRequest(e env.Env) render.Request {
	return render.Request{Env: e, State: filepath.Join(e.Get("XDG_STATE_HOME"), "prchip", "state"),
		Config: filepath.Join(e.Get("XDG_CONFIG_HOME"), "prchip", "config.toml")}
}
