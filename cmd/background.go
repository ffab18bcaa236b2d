package cmd

import (
	"context"
	"os"
	"time"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/render"
)

// runBackground is the detached refresh a render started. It holds the
// repository's refresh lock for its whole life, decides again under it
// (another refresh may just have finished), runs what is due and records
// the outcomes. It prints nothing: its stdio is /dev/null.
func runBackground(o *IO, paths Paths, args []string) int {
	lock, e := render.InheritedLock(o.Env)
	if len(args) != 1 {
		return ExitUsage
	}
	proc.BecomeSubreaper()
	io := &IO{Dir: args[0], Env: e}
	env := io.engine(paths)
	f := env.Gather()
	if f.Repo == nil {
		return ExitOK
	}
	if lock == nil {
		// Started by hand: take the lock like a render would.
		l, err := env.Store.TryLock(f.Key)
		if err != nil || l == nil {
			return ExitOK
		}
		lock = l
	}
	defer lock.Close()
	// A hard stop in case anything below hangs despite the run timeouts.
	time.AfterFunc(render.Budget(env.Config)+10*time.Second, func() { os.Exit(ExitRetryable) })
	if _, err := env.Refresh(context.Background(), f, chip.RefreshOptions{}); err != nil {
		return ExitRetryable
	}
	return ExitOK
}
