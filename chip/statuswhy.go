package chip

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/ghauth"
)

// tokenAdvice rewrites advice that gh refuses while a token variable is
// set: `gh auth login` and `gh auth refresh` both stop with "The value of
// the GH_TOKEN environment variable is being used for authentication", so
// with the token from a variable the advice is to fix or unset it, by
// name. source is StatusGh.TokenSource.
func tokenAdvice(actions []string, source string) []string {
	if !slices.Contains(ghauth.TokenVars, source) {
		return actions
	}
	fix := "fix or unset " + source + " (gh auth login refuses while it is set)"
	var out []string
	for _, a := range actions {
		if a == "gh auth login" || strings.HasPrefix(a, "gh auth refresh") {
			a = fix
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// whyLine is the first line of the human status: what the chip shows and
// the one reason for it, in plain words; the rows below give the facts.
func (s *Status) whyLine() string {
	shows := "the chip is empty"
	if s.Chip != "" {
		shows = "the chip shows " + s.Chip
	}
	branch := ""
	if s.Repo != nil && s.Repo.Branch != "" {
		branch = " " + s.Repo.Branch
	}
	o := s.LastOutcome
	switch {
	case o != nil && o.Class == classify.NotApplicable:
		return shows + ": " + notApplicableWords(o.Category)
	case s.Mode == "off":
		return shows + ": mode is off, so prchip never asks GitHub"
	case s.Skipped == state.ReasonSuppressed:
		if !s.Gh.Found {
			return shows + ": gh is not on PATH; prchip asks again once it is"
		}
		return shows + ": a refresh found gh not logged in or its token rejected" + s.tokenFrom() +
			"; prchip stops asking GitHub until gh's setup changes"
	case s.FailureCached:
		return shows + ": gh's login failed with this setup" + s.tokenFrom() + "; prchip does not ask again until it changes"
	case o == nil:
		return shows + ": no refresh has run for branch" + branch + " yet; the next prompt starts one"
	case o.Class == classify.Validated && s.PR != nil:
		state := s.PR.State
		if s.PR.Draft && state == "open" {
			state = "draft"
		}
		return fmt.Sprintf("%s: pull request #%d (%s) of branch%s", shows, s.PR.Number, state, branch)
	case o.Class == classify.Validated:
		return shows + ": GitHub has no pull request for branch" + branch
	case o.Class == classify.AuthFailure:
		return shows + ": gh is not logged in or its token is rejected" + s.tokenFrom()
	case o.Class == classify.MissingGh:
		return shows + ": gh is not on PATH"
	}
	return shows + ": the last refresh failed (" + strings.ReplaceAll(o.Category, "_", " ") + "); prchip tries again by itself"
}

// tokenFrom names where gh takes its token from, for an auth problem.
func (s *Status) tokenFrom() string {
	if s.Gh.TokenSource == "" {
		return ""
	}
	return " (the token comes from " + s.Gh.TokenSource + ")"
}

// notApplicableWords says why there is nothing to show.
func notApplicableWords(category string) string {
	return cmp.Or(map[string]string{
		classify.CatNotRepository:  "not inside a git repository",
		classify.CatDetachedHead:   "HEAD is detached, so there is no branch to look up",
		classify.CatNoGitHubRemote: "no remote points at a GitHub host gh knows (see remotes seen)",
		classify.CatUnsafe:         "the repository belongs to another user and git refuses it (safe.directory)",
	}[category], "nothing to show here ("+strings.ReplaceAll(category, "_", " ")+")")
}
