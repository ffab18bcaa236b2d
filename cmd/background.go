package cmd

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/state"
)

// runBackground is the detached refresh a render started. It holds the
// repository's refresh lock for its whole life, decides again under it
// (another refresh may just have finished), runs what is due and records
// the outcomes. It prints nothing: its stdio is /dev/null.
func runBackground(paths Paths, args []string) int {
	lock := inheritedLock()
	if len(args) != 1 {
		return ExitUsage
	}
	proc.BecomeSubreaper()
	io := &IO{Dir: args[0]}
	env := io.engine(paths)
	f := chip.Gather(env.Dir, env.Time())
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
	time.AfterFunc(refreshBudget(env)+10*time.Second, func() { os.Exit(ExitRetryable) })
	res, err := env.Refresh(context.Background(), f, chip.RefreshOptions{})
	hold := cache.Holdoff{Dirs: paths.Runtime}
	if errors.Is(err, chip.ErrStateWrite) {
		// Back off where it can be kept; the wait grows as it would in
		// the state file, by the first outcome that says how.
		now := env.Time()
		_, n := hold.Until(f.Key, now, state.BackoffMax)
		var o *classify.Outcome
		for _, r := range res {
			if r.Outcome != nil && (o == nil || r.Outcome.Class == classify.Retryable) {
				o = r.Outcome
			}
		}
		hold.Set(f.Key, now.Add(state.Backoff(n+1, o, nil)), n+1)
	} else if err == nil {
		hold.Clear(f.Key)
	}
	if err != nil {
		return ExitRetryable
	}
	return ExitOK
}
