package chip

import "github.com/prchip/prchip/internal/jsonwrite"

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
	w := jsonwrite.NewIndented("  ")
	w.BeginObject()
	w.Key("dir")
	w.String(s.Dir)
	w.Key("repo")
	if r := s.Repo; r == nil {
		w.Null()
	} else {
		w.BeginObject()
		w.Key("root")
		w.String(r.Root)
		w.Key("branch")
		w.String(r.Branch)
		w.Key("remote_url")
		w.String(r.RemoteURL)
		w.Key("host")
		w.String(r.Host)
		w.EndObject()
	}
	w.Key("gh")
	w.BeginObject()
	w.Key("found")
	w.Bool(s.Gh.Found)
	w.Key("path")
	w.String(s.Gh.Path)
	w.Key("version")
	if s.Gh.Version == nil {
		w.Null()
	} else {
		w.String(*s.Gh.Version)
	}
	w.EndObject()
	w.Key("mode")
	w.String(s.Mode)
	w.Key("validation")
	w.String(string(s.Validation))
	w.Key("fingerprint")
	w.String(s.Fingerprint)
	w.Key("failure_cached")
	w.Bool(s.FailureCached)
	w.Key("chip")
	w.String(s.Chip)
	w.Key("pr")
	writePR(w, s.PR)
	w.Key("last_outcome")
	writeStatusOutcome(w, s.LastOutcome)
	w.Key("next_attempt_at")
	if s.NextAttemptAt == nil {
		w.Null()
	} else {
		w.Time(*s.NextAttemptAt)
	}
	w.Key("invalidation_count")
	w.Int(int64(s.InvalidationCount))
	w.Key("recovery_actions")
	w.Strings(s.RecoveryActions)
	w.Key("state_file")
	w.String(s.StateFile)
	w.Key("config_file")
	w.String(s.ConfigFile)
	w.Key("problems")
	w.Strings(s.Problems)
	if s.Skipped != "" {
		w.Key("skipped")
		w.String(s.Skipped)
	}
	w.Key("consecutive_failures")
	w.Int(int64(s.ConsecutiveFailures))
	if len(s.Chips) > 0 {
		w.Key("chips")
		w.BeginArray()
		for i := range s.Chips {
			c := &s.Chips[i]
			w.BeginObject()
			w.Key("name")
			w.String(c.Name)
			w.Key("value")
			w.String(c.Value)
			w.Key("failure_cached")
			w.Bool(c.FailureCached)
			w.Key("last_outcome")
			writeStatusOutcome(w, c.LastOutcome)
			w.EndObject()
		}
		w.EndArray()
	}
	w.EndObject()
	return w.Bytes()
}

func writeStatusOutcome(w *jsonwrite.Writer, o *StatusOutcome) {
	if o == nil {
		w.Null()
		return
	}
	w.BeginObject()
	writeOutcomeHead(w, o)
	w.EndObject()
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
