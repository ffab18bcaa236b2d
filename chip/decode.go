package chip

import (
	"github.com/prchip/prchip/internal/jsonread"
)

// The state records are written by encode.go and read back by these
// walks, and gh's output is read by decodeGhPR: the render path decodes a
// record on every prompt, and encoding/json's reflection costs a cold
// process more than the rest of the render (see internal/jsonread).
// TestDecodeMatchesEncodingJSON fills every field of these types and fails
// when a field is added here but not below.

// decodeGlobal reads a global record; an error means the record is
// unreadable, and the caller uses the zero Global.
func decodeGlobal(b []byte) (Global, error) {
	var g Global
	r := jsonread.New(b)
	r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "validation"):
			s := string(g.Validation)
			r.String(&s)
			g.Validation = Validation(s)
		case jsonread.KeyIs(k, "suppressed_setup"):
			r.String(&g.SuppressedSetup)
		case jsonread.KeyIs(k, "suppressed_at"):
			r.Time(&g.SuppressedAt)
		case jsonread.KeyIs(k, "gh_version"):
			r.String(&g.GhVersion)
		case jsonread.KeyIs(k, "gh_version_of"):
			r.String(&g.GhVersionOf)
		}
	})
	if err := r.Finish(); err != nil {
		return Global{}, err
	}
	return g, nil
}

// decodeRepoState reads a repository record; on error the caller uses the
// zero RepoState.
func decodeRepoState(b []byte) (RepoState, error) {
	var rs RepoState
	r := jsonread.New(b)
	r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "root"):
			r.String(&rs.Root)
		case jsonread.KeyIs(k, "invalidations"):
			r.IntOf(&rs.Invalidations)
		case jsonread.KeyIs(k, "chips"):
			m := rs.Chips
			if m == nil {
				m = map[string]*ChipState{}
			}
			if r.Object(func(name []byte) {
				n := string(name)
				blk := new(chipBlock)
				if decodeChipState(r, blk) {
					m[n] = &blk.st
				} else {
					m[n] = nil // null
				}
			}) {
				rs.Chips = m
			} else {
				rs.Chips = nil
			}
		}
	})
	if err := r.Finish(); err != nil {
		return RepoState{}, err
	}
	return rs, nil
}

// chipBlock is one allocation for a chip's state and what it points to:
// fewer allocations of fewer sizes keep a cold render from touching fresh
// memory (see rawfile's bufSize).
type chipBlock struct {
	st      ChipState
	outcome Outcome
	pr, opr PR
}

func decodeChipState(r *jsonread.Reader, blk *chipBlock) bool {
	st := &blk.st
	return r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "branch"):
			r.String(&st.Branch)
		case jsonread.KeyIs(k, "fingerprint"):
			r.String(&st.Fingerprint)
		case jsonread.KeyIs(k, "checked_at"):
			r.Time(&st.CheckedAt)
		case jsonread.KeyIs(k, "outcome"):
			blk.outcome = Outcome{}
			if decodeOutcome(r, &blk.outcome, &blk.opr) {
				st.Outcome = &blk.outcome
			} else {
				st.Outcome = nil
			}
		case jsonread.KeyIs(k, "failure_fp"):
			r.String(&st.FailureFP)
		case jsonread.KeyIs(k, "failures"):
			r.IntOf(&st.Failures)
		case jsonread.KeyIs(k, "next_attempt"):
			r.Time(&st.NextAttempt)
		case jsonread.KeyIs(k, "pr"):
			st.PR = decodePR(r, &blk.pr)
		case jsonread.KeyIs(k, "value"):
			r.String(&st.Value)
		case jsonread.KeyIs(k, "stale"):
			r.Bool(&st.Stale)
		}
	})
}

func decodeOutcome(r *jsonread.Reader, o *Outcome, pr *PR) bool {
	return r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "class"):
			s := string(o.Class)
			r.String(&s)
			o.Class = Class(s)
		case jsonread.KeyIs(k, "category"):
			r.String(&o.Category)
		case jsonread.KeyIs(k, "exit_code"):
			r.IntOf(&o.ExitCode)
		case jsonread.KeyIs(k, "timed_out"):
			r.Bool(&o.TimedOut)
		case jsonread.KeyIs(k, "detail"):
			r.String(&o.Detail)
		case jsonread.KeyIs(k, "at"):
			r.Time(&o.At)
		case jsonread.KeyIs(k, "duration_ms"):
			r.Int(&o.DurationMS)
		case jsonread.KeyIs(k, "recovery_actions"):
			var list []string
			if r.Array(func() {
				var s string
				r.String(&s)
				list = append(list, s)
			}) {
				if list == nil {
					list = []string{}
				}
				o.Recovery = list
			} else {
				o.Recovery = nil
			}
		case jsonread.KeyIs(k, "retry_at"):
			r.Time(&o.RetryAt)
		case jsonread.KeyIs(k, "pr"):
			o.PR = decodePR(r, pr)
		case jsonread.KeyIs(k, "value"):
			r.String(&o.Value)
		}
	})
}

// decodePR reads a PR object into p; nil for null.
func decodePR(r *jsonread.Reader, p *PR) *PR {
	*p = PR{}
	if !r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "number"):
			r.IntOf(&p.Number)
		case jsonread.KeyIs(k, "url"):
			r.String(&p.URL)
		case jsonread.KeyIs(k, "state"):
			r.String(&p.State)
		case jsonread.KeyIs(k, "draft"):
			r.Bool(&p.Draft)
		case jsonread.KeyIs(k, "title"):
			r.String(&p.Title)
		case jsonread.KeyIs(k, "review"):
			r.String(&p.Review)
		case jsonread.KeyIs(k, "checks"):
			r.String(&p.Checks)
		}
	}) {
		return nil
	}
	return p
}

// ghPR is what `gh pr view --json` prints, as far as the chip reads it.
// The json tags are for the tests, which hold decodeGhPR to encoding/json.
type ghPR struct {
	Number         int       `json:"number"`
	URL            string    `json:"url"`
	State          string    `json:"state"`
	IsDraft        bool      `json:"isDraft"`
	Title          string    `json:"title"`
	ReviewDecision string    `json:"reviewDecision"`
	Checks         []ghCheck `json:"statusCheckRollup"`
}

// ghCheck is one entry of statusCheckRollup: a CheckRun (status,
// conclusion) or a StatusContext (state).
type ghCheck struct {
	Type       string `json:"__typename"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
	State      string `json:"state"`
}

func decodeGhPR(b []byte) (ghPR, error) {
	var p ghPR
	r := jsonread.New(b)
	r.Object(func(k []byte) {
		switch {
		case jsonread.KeyIs(k, "number"):
			r.IntOf(&p.Number)
		case jsonread.KeyIs(k, "url"):
			r.String(&p.URL)
		case jsonread.KeyIs(k, "state"):
			r.String(&p.State)
		case jsonread.KeyIs(k, "isDraft"):
			r.Bool(&p.IsDraft)
		case jsonread.KeyIs(k, "title"):
			r.String(&p.Title)
		case jsonread.KeyIs(k, "reviewDecision"):
			r.String(&p.ReviewDecision)
		case jsonread.KeyIs(k, "statusCheckRollup"):
			var list []ghCheck
			if r.Array(func() {
				var c ghCheck
				r.Object(func(k []byte) {
					switch {
					case jsonread.KeyIs(k, "__typename"):
						r.String(&c.Type)
					case jsonread.KeyIs(k, "status"):
						r.String(&c.Status)
					case jsonread.KeyIs(k, "conclusion"):
						r.String(&c.Conclusion)
					case jsonread.KeyIs(k, "state"):
						r.String(&c.State)
					}
				})
				list = append(list, c)
			}) {
				if list == nil {
					list = []ghCheck{}
				}
				p.Checks = list
			} else {
				p.Checks = nil
			}
		}
	})
	if err := r.Finish(); err != nil {
		return ghPR{}, err
	}
	return p, nil
}
