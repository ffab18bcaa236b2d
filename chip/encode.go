package chip

import (
	"encoding/json"

	"github.com/prchip/prchip/internal/jsonwrite"
)

// The state records and `status --json` are written by hand (see package
// jsonwrite for why), following the types' json tags: omitempty and
// omitzero fields are left out exactly when encoding/json leaves them out.
// TestEncodeMatchesEncodingJSON holds every writer here to json.Marshal's
// bytes and fails when a field is added to a type but not below.

func encodeGlobal(g *Global) ([]byte, error) {
	w := jsonwrite.New()
	w.BeginObject()
	if g.Validation != "" {
		w.Key("validation")
		w.String(string(g.Validation))
	}
	if g.SuppressedSetup != "" {
		w.Key("suppressed_setup")
		w.String(g.SuppressedSetup)
	}
	if !g.SuppressedAt.IsZero() {
		w.Key("suppressed_at")
		w.Time(g.SuppressedAt)
	}
	if g.GhVersion != "" {
		w.Key("gh_version")
		w.String(g.GhVersion)
	}
	if g.GhVersionOf != "" {
		w.Key("gh_version_of")
		w.String(g.GhVersionOf)
	}
	w.EndObject()
	return w.Bytes()
}

func encodeRepoState(rs *RepoState) ([]byte, error) {
	w := jsonwrite.New()
	w.BeginObject()
	w.Key("root")
	w.String(rs.Root)
	if rs.Invalidations != 0 {
		w.Key("invalidations")
		w.Int(int64(rs.Invalidations))
	}
	if len(rs.Chips) > 0 {
		w.Key("chips")
		w.BeginObject()
		for _, name := range jsonwrite.SortedKeys(rs.Chips) {
			w.Key(name)
			writeChipState(w, rs.Chips[name])
		}
		w.EndObject()
	}
	w.EndObject()
	return w.Bytes()
}

func writeChipState(w *jsonwrite.Writer, st *ChipState) {
	if st == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.Key("branch")
	w.String(st.Branch)
	w.Key("fingerprint")
	w.String(st.Fingerprint)
	w.Key("checked_at")
	w.Time(st.CheckedAt)
	if st.Outcome != nil {
		w.Key("outcome")
		writeOutcome(w, st.Outcome)
	}
	if st.FailureFP != "" {
		w.Key("failure_fp")
		w.String(st.FailureFP)
	}
	if st.Failures != 0 {
		w.Key("failures")
		w.Int(int64(st.Failures))
	}
	if !st.NextAttempt.IsZero() {
		w.Key("next_attempt")
		w.Time(st.NextAttempt)
	}
	if st.PR != nil {
		w.Key("pr")
		writePR(w, st.PR)
	}
	if st.Value != "" {
		w.Key("value")
		w.String(st.Value)
	}
	if st.Stale {
		w.Key("stale")
		w.Bool(true)
	}
	w.EndObject()
}

func writeOutcome(w *jsonwrite.Writer, o *Outcome) {
	w.BeginObject()
	writeOutcomeHead(w, &StatusOutcome{Class: o.Class, Category: o.Category, ExitCode: &o.ExitCode,
		TimedOut: o.TimedOut, Detail: o.Detail, At: o.At, DurationMS: o.DurationMS})
	if len(o.Recovery) > 0 {
		w.Key("recovery_actions")
		w.Strings(o.Recovery)
	}
	if !o.RetryAt.IsZero() {
		w.Key("retry_at")
		w.Time(o.RetryAt)
	}
	if o.PR != nil {
		w.Key("pr")
		writePR(w, o.PR)
	}
	if o.Value != "" {
		w.Key("value")
		w.String(o.Value)
	}
	w.EndObject()
}

// writePR writes a PR, or null for nil (status's "pr" is never omitted).
func writePR(w *jsonwrite.Writer, pr *PR) {
	if pr == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.Key("number")
	w.Int(int64(pr.Number))
	w.Key("url")
	w.String(pr.URL)
	w.Key("state")
	w.String(pr.State)
	w.Key("draft")
	w.Bool(pr.Draft)
	w.Key("title")
	w.String(pr.Title)
	if pr.Review != "" {
		w.Key("review")
		w.String(pr.Review)
	}
	if pr.Checks != "" {
		w.Key("checks")
		w.String(pr.Checks)
	}
	w.EndObject()
}

// JSON is `status --json`'s output (SPEC 6): indented by two spaces, as
// the contract's examples are, with a final newline.
func (s *Status) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}

// writeOutcomeHead writes the members a stored outcome and status's
// last_outcome share, in their order.
func writeOutcomeHead(w *jsonwrite.Writer, o *StatusOutcome) {
	w.Key("class")
	w.String(string(o.Class))
	w.Key("category")
	w.String(o.Category)
	w.Key("exit_code")
	if o.ExitCode == nil {
		w.Null()
	} else {
		w.Int(int64(*o.ExitCode))
	}
	w.Key("timed_out")
	w.Bool(o.TimedOut)
	w.Key("detail")
	w.String(o.Detail)
	w.Key("at")
	w.Time(o.At)
	w.Key("duration_ms")
	w.Int(o.DurationMS)
}
