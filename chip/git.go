package chip

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/repo"
)

// Sync and the base a branch was cut from walk the history: the real git
// does that, with its commit-graph and its own limits on alternates and
// delta chains, in the background refresh only. The render reads the
// branch's ref by hand (repo.BranchOid) and starts nothing. Not go-git:
// it inflates an object whole whatever its size and follows alternates
// without a cycle check, so a hostile repository could not be bounded.

// gitTimeout bounds one git run; the chip's RunBudget, through ctx,
// bounds them all (a variable for tests).
var gitTimeout = 2 * time.Second

// gitEnv is added to the request's environment for every git run, as a
// repository may be hostile.
var gitEnv = []string{
	// A partial clone must not fetch what it lacks (git 2.39.4 and
	// later; protocol.allow=never stops the fetch of older ones).
	"GIT_NO_LAZY_FETCH=1",
	// The history as committed, not as refs/replace rewrites it.
	"GIT_NO_REPLACE_OBJECTS=1",
	// git's largest single allocation: a commit of a gigabyte, or a delta
	// that expands to one, ends git at once instead of taking the
	// machine's memory; the object table of a million commits fits.
	"GIT_ALLOC_LIMIT=64m",
	"GIT_TERMINAL_PROMPT=0",
}

// git runs the installed git in the repository's root through the
// engine's runner (bounded). git finds the repository itself, so its
// safe.directory refusal applies, which --git-dir would skip; no pager,
// fsmonitor, hooks or transport. No git, or no time left: not run.
func (e *Engine) git(ctx context.Context, f *Facts, args ...string) proc.Result {
	path, _ := ghauth.LookPath("git", e.Env)
	if path == "" || ctx.Err() != nil {
		return proc.Result{ExitCode: -1, TimedOut: ctx.Err() != nil}
	}
	args = append([]string{"--no-pager", "-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null",
		"-c", "protocol.allow=never"}, args...)
	// Without the user's own tracing (GIT_TRACE, GIT_TRACE2...): on stderr,
	// sync would take it for git skipping object stores.
	env := slices.DeleteFunc(slices.Concat(f.Environ(e.Env.Environ()), gitEnv),
		func(kv string) bool { return strings.HasPrefix(kv, "GIT_TRACE") })
	return e.run(ctx, proc.Command{Path: path, Args: args, Dir: f.Repo.Root, Env: env, Timeout: gitTimeout})
}

// bounded reports whether a bound stopped git: the timeout, or
// GIT_ALLOC_LIMIT ("fatal: attempting to allocate N over limit M").
func bounded(r proc.Result) bool {
	return r.TimedOut || r.Overflowed || bytes.Contains(r.Stderr, []byte(" over limit "))
}

// leftRight is `git rev-list --left-right --count a...b`: the commits
// reachable from a and not from b, and the other way round.
func (e *Engine) leftRight(ctx context.Context, f *Facts, a, b string) (left, right int, r proc.Result, ok bool) {
	r = e.git(ctx, f, "rev-list", "--left-right", "--count", a+"..."+b)
	l, rt, found := strings.Cut(strings.TrimSpace(string(r.Stdout)), "\t")
	left, err1 := strconv.Atoi(l)
	right, err2 := strconv.Atoi(rt)
	return left, right, r, r.ExitCode == 0 && found && err1 == nil && err2 == nil
}

// shallow reports whether the history ends early: what git cannot reach
// there may still be an ancestor.
func shallow(f *Facts) bool {
	st, err := os.Stat(filepath.Join(f.Repo.CommonDir, "shallow"))
	return err == nil && st.Size() > 0
}

// addSync records how the local branch stands against the PR's head, which
// the history check needs (SPEC 3); the branch's commit is read as the
// render reads it, so both agree on whether it moved since.
func (e *Engine) addSync(ctx context.Context, f *Facts, pr *pull.PR) {
	if pr == nil || pr.HeadOid == "" {
		return
	}
	pr.SyncLocal = f.Repo.BranchOid()
	pr.Sync = e.sync(ctx, f, pr.SyncLocal, pr.HeadOid)
}

// sync compares the branch's commit local with the PR's head. SyncUnknown
// when a bound stopped git; "" when it cannot tell otherwise (no local
// commit, SHA-256 names where GitHub's heads are SHA-1, a shallow or
// broken history, git missing or refusing the repository).
func (e *Engine) sync(ctx context.Context, f *Facts, local, head string) string {
	local, head = strings.ToLower(local), strings.ToLower(head)
	switch {
	case local == "" || head == "":
		return ""
	case local == head:
		return repo.SyncSame
	case len(local) != 40 || len(head) != 40 || !repo.IsOid(local) || !repo.IsOid(head):
		return ""
	}
	mine, theirs, r, ok := e.leftRight(ctx, f, local, head)
	switch {
	case ok && mine > 0 && theirs == 0:
		return repo.SyncAhead
	case ok && mine == 0 && theirs > 0:
		return repo.SyncBehind
	case ok && mine > 0 && theirs > 0 && !shallow(f):
		return repo.SyncDiverged
	case ok:
		return ""
	case bounded(r):
		return repo.SyncUnknown
	}
	// git could not compare them: which of the two is there? (A partial
	// clone, with --missing, does not even try to fetch what it lacks.)
	r = e.git(ctx, f, "rev-list", "--missing=allow-any", "--no-walk", "--ignore-missing", local, head)
	has := strings.Fields(string(r.Stdout))
	switch {
	case bounded(r):
		return repo.SyncUnknown
	case r.ExitCode != 0 || slices.Contains(has, local) && slices.Contains(has, head):
		return ""
	case bytes.Contains(r.Stderr, []byte("ignoring alternate object stores")):
		// git skipped object stores (alternates nested too deep): what
		// it lacks may be in one. Any other warning says nothing of that.
		return repo.SyncUnknown
	case !slices.Contains(has, local):
		return ""
	}
	// Only a fetch can tell: the branch may be behind or diverged.
	return repo.SyncNotFetched
}

// cutFrom says which of bases (branch names on remote) the branch was cut
// from: the nearest remote-tracking ref; "" when it cannot tell (a ref
// missing, a shallow history, git failing, a tie).
func (e *Engine) cutFrom(ctx context.Context, f *Facts, remote string, bases []string) string {
	local := f.Repo.BranchOid()
	if local == "" || remote == "" || len(bases) == 0 || shallow(f) {
		return ""
	}
	// Nearest: fewest commits of the branch's own (base..branch); of
	// those as near, the base with fewest commits the branch lacks
	// (branch..base): a branch cut from main's tip is cut from main, not
	// from a release branch that forked from that same commit and moved on.
	best, bestN, bestM, tie := "", -1, -1, false
	for _, b := range bases {
		oid := f.Repo.RefOid("refs/remotes/" + remote + "/" + b)
		if oid == "" {
			return ""
		}
		n, m, _, ok := e.leftRight(ctx, f, local, oid)
		if !ok {
			return ""
		}
		switch {
		case bestN < 0 || n < bestN || n == bestN && m < bestM:
			best, bestN, bestM, tie = b, n, m, false
		case n == bestN && m == bestM:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}
