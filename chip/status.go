package chip

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/format"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/sanitize"
)

// Status is `prchip status --json` (SPEC 6). Field names are the contract.
type Status struct {
	Dir               string           `json:"dir"`
	Repo              *StatusRepo      `json:"repo"`
	Gh                StatusGh         `json:"gh"`
	Mode              string           `json:"mode"`
	Validation        state.Validation `json:"validation"`
	Fingerprint       string           `json:"fingerprint"`
	FailureCached     bool             `json:"failure_cached"`
	Chip              string           `json:"chip"`
	PR                *StatusPR        `json:"pr"`
	LastOutcome       *StatusOutcome   `json:"last_outcome"`
	NextAttemptAt     *time.Time       `json:"next_attempt_at"`
	InvalidationCount int              `json:"invalidation_count"`
	RecoveryActions   []string         `json:"recovery_actions"`
	StateFile         string           `json:"state_file"`
	ConfigFile        string           `json:"config_file"`
	Problems          []string         `json:"problems"`
	Worker            *StatusWorker    `json:"worker"`
	// Beyond the contract: why the render path would not run the chip now,
	// and the user's shell chips.
	Skipped             string       `json:"skipped,omitempty"`
	ConsecutiveFailures int          `json:"consecutive_failures"`
	Chips               []StatusChip `json:"chips,omitempty"`
}

// StatusPR is `pr` (SPEC 6): every key present, null when unknown (not
// asked for because no template shows it, or the installed gh cannot
// tell).
type StatusPR struct {
	Number int    `json:"number"`
	URL    string `json:"url"`
	State  string `json:"state"`
	Draft  bool   `json:"draft"`
	Title  string `json:"title"`
	// MergeState is "unknown" while GitHub computes it (the chip then
	// shows none).
	MergeState   *string             `json:"merge_state"`
	AutoMerge    *bool               `json:"auto_merge"`
	ChecksCounts *format.CheckCounts `json:"checks_counts"`
	FailingCheck *string             `json:"failing_check"`
	// Sync is null too while the branch has moved since it was computed.
	Sync    *string `json:"sync"`
	HeadOid *string `json:"head_oid"`
	// Beyond the contract.
	Review string        `json:"review,omitempty"`
	Checks string        `json:"checks,omitempty"`
	Queue  *format.Queue `json:"queue,omitempty"`
}

// statusPR is pr as status shows it; moved says the branch moved since
// sync was computed.
func statusPR(pr *classify.PR, moved bool) *StatusPR {
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	sp := &StatusPR{Number: pr.Number, URL: pr.URL, State: pr.State, Draft: pr.Draft, Title: pr.Title,
		MergeState: str(pr.MergeState), AutoMerge: pr.AutoMerge, ChecksCounts: pr.Counts,
		FailingCheck: str(pr.FailingCheck), HeadOid: str(pr.HeadOid),
		Review: pr.Review, Checks: pr.Checks, Queue: pr.Queue}
	if !moved {
		sp.Sync = str(pr.Sync)
	}
	return sp
}

// StatusRepo describes the repository.
type StatusRepo struct {
	Root      string `json:"root"`
	Branch    string `json:"branch"`
	RemoteURL string `json:"remote_url"`
	Host      string `json:"host"`
}

// StatusGh describes gh.
type StatusGh struct {
	Found   bool    `json:"found"`
	Path    string  `json:"path"`
	Version *string `json:"version"`
	// TokenSource is where gh would take a token for the host from (see
	// ghauth.TokenSource): never the token.
	TokenSource string `json:"token_source"`
}

// StatusWorker is the calling shell's worker (SPEC 6, `worker`).
type StatusWorker struct {
	PID    int    `json:"pid"`
	Binary string `json:"binary"`
	IdleS  int64  `json:"idle_s"`
}

// StatusOutcome is last_outcome.
type StatusOutcome struct {
	Class      classify.Class `json:"class"`
	Category   string         `json:"category"`
	ExitCode   *int           `json:"exit_code"`
	TimedOut   bool           `json:"timed_out"`
	Detail     string         `json:"detail"`
	At         time.Time      `json:"at"`
	DurationMS int64          `json:"duration_ms"`
}

// StatusChip summarises a shell chip.
type StatusChip struct {
	Name          string         `json:"name"`
	Value         string         `json:"value"`
	FailureCached bool           `json:"failure_cached"`
	LastOutcome   *StatusOutcome `json:"last_outcome"`
}

func statusOutcome(o *classify.Outcome) *StatusOutcome {
	if o == nil {
		return nil
	}
	so := &StatusOutcome{Class: o.Class, Category: o.Category, TimedOut: o.TimedOut, Detail: o.Detail, At: o.At.UTC(), DurationMS: o.DurationMS}
	if o.ExitCode >= 0 {
		c := o.ExitCode
		so.ExitCode = &c
	}
	return so
}

// Status explains what the chip shows at f and why. It runs nothing; gh's
// version is not known without running it and is reported as null.
func (e *Engine) Status(f *Facts) *Status {
	v := LoadView(e.Store, f.Key)
	now := e.now()
	s := &Status{
		Dir:             sanitize.Text(f.Dir, 4096),
		Gh:              StatusGh{Found: f.Setup.GhPath != "", Path: sanitize.Text(f.Setup.GhPath, 4096)},
		Mode:            e.Config.Mode,
		Validation:      v.Global.Effective(f.Setup.Identity()),
		RecoveryActions: []string{},
		StateFile:       sanitize.Text(e.Store.Path, 4096),
		ConfigFile:      sanitize.Text(e.Config.Path, 4096),
		Problems:        []string{},
	}
	// Stored records are clean once decoded (state.DecodeRepoState); a
	// problem may quote a file's text, so it is cleaned as it is added.
	problem := func(p string) { s.Problems = append(s.Problems, sanitize.Text(sanitize.Redact(p), 2048)) }
	if err := e.Store.DirProblem(); err != nil {
		problem(err.Error())
	}
	if v.Problem != nil {
		problem(v.Problem.Error())
	}
	if f.Setup.GhPath != "" && v.Global.GhVersionOf == f.Setup.GhIdentity && v.Global.GhVersion != "" {
		ver := v.Global.GhVersion
		s.Gh.Version = &ver
	}
	for _, p := range e.Config.Problems {
		problem("config " + p.String())
	}
	if err := f.Setup.HostsErr(); err != nil {
		problem("gh hosts file: " + err.Error())
	}
	host := os.Getenv("GH_HOST")
	if f.Remote.Host != "" {
		host = f.Remote.Host
	} else if host == "" {
		host = "github.com"
	}
	s.Gh.TokenSource = f.Setup.TokenSource(host)
	if f.Repo != nil {
		// Everything from the repository is untrusted: no control
		// characters, no credentials from a remote URL.
		s.Repo = &StatusRepo{Root: sanitize.Text(f.Repo.Root, 4096), Branch: sanitize.Text(f.Repo.Branch, 1024),
			RemoteURL: sanitize.Text(sanitize.Redact(f.Remote.URL), 1024)}
		if f.Remote.URL != "" {
			s.Repo.Host = f.Remote.Host
		}
		s.InvalidationCount = v.Repo.Invalidations
	}
	s.Chip, _ = e.Render(f, &v, sanitize.Plain)
	if f.NA != nil {
		s.LastOutcome = statusOutcome(f.NA)
		s.RecoveryActions = append(s.RecoveryActions, f.NA.Recovery...)
	}
	for _, ce := range e.entries(f, v.Repo.Invalidations) {
		in := e.decideInput(ce, f, &v, now)
		st := in.State
		if ce.Policy.Kind != state.KindPR {
			sc := StatusChip{Name: ce.Policy.Name}
			if st != nil {
				sc.Value = st.Value
				sc.FailureCached = st.FailureCached(ce.Fingerprint)
				sc.LastOutcome = statusOutcome(st.Outcome)
			}
			s.Chips = append(s.Chips, sc)
			continue
		}
		s.Fingerprint = ce.Fingerprint
		if d := state.Decide(in); !d.Run {
			s.Skipped = d.Reason
		}
		if t := state.NextAttemptAt(in); !t.IsZero() {
			t = t.UTC()
			s.NextAttemptAt = &t
		}
		if st == nil {
			continue
		}
		s.FailureCached = st.FailureCached(ce.Fingerprint)
		if st.Fingerprint == ce.Fingerprint {
			s.ConsecutiveFailures = st.Failures
		}
		if shows(ce, in, f) {
			s.PR = statusPR(st.PR, e.syncMoved(f, st))
		}
		if st.Outcome != nil {
			s.LastOutcome = statusOutcome(st.Outcome)
			s.RecoveryActions = append(s.RecoveryActions, st.Outcome.Recovery...)
		}
	}
	if s.Fingerprint == "" && f.Repo != nil {
		s.Fingerprint = f.PRFingerprint(v.Repo.Invalidations)
	}
	if s.Validation == state.Suppressed && len(s.RecoveryActions) == 0 {
		s.RecoveryActions = append(s.RecoveryActions, "gh auth login", "prchip reset")
	}
	if len(s.RecoveryActions) > 3 {
		s.RecoveryActions = s.RecoveryActions[:3]
	}
	return s
}

// WriteHuman prints the status as a few aligned lines.
func (s *Status) WriteHuman(w io.Writer) {
	row := func(k, v string) { fmt.Fprintf(w, "%-15s %s\n", k+":", v) }
	row("directory", s.Dir)
	if s.Repo == nil {
		row("repository", "none")
	} else {
		row("repository", s.Repo.Root)
		branch := s.Repo.Branch
		if branch == "" {
			branch = "(detached HEAD)"
		}
		row("branch", branch)
		remote := s.Repo.RemoteURL
		if remote == "" {
			remote = "(no GitHub remote)"
		}
		row("remote", remote)
	}
	if s.Gh.Found {
		gh := s.Gh.Path
		if s.Gh.Version != nil {
			gh += " (version " + *s.Gh.Version + ")"
		}
		if s.Gh.TokenSource != "" {
			gh += ", token from " + s.Gh.TokenSource
		} else {
			gh += ", no token in the environment or hosts.yml (gh may keep one in the system keyring)"
		}
		row("gh", gh)
	} else {
		row("gh", "not found on PATH")
	}
	row("mode", s.Mode)
	row("validation", string(s.Validation))
	chip := s.Chip
	if chip == "" {
		chip = "(empty)"
	}
	row("chip", chip)
	if s.PR != nil {
		row("pull request", fmt.Sprintf("#%d %s (%s) %s", s.PR.Number, s.PR.Title, s.PR.State, s.PR.URL))
	}
	if o := s.LastOutcome; o != nil {
		line := fmt.Sprintf("%s / %s", o.Class, o.Category)
		if !o.At.IsZero() && o.Class != classify.NotApplicable || o.DurationMS > 0 {
			line += fmt.Sprintf(" at %s (%d ms)", o.At.Local().Format(time.DateTime), o.DurationMS)
		}
		row("last outcome", line)
		if o.Detail != "" {
			row("detail", o.Detail)
		}
	} else {
		row("last outcome", "none yet")
	}
	if s.FailureCached {
		row("failure cached", "yes: not run again until gh's setup, the branch or the remote changes (or prchip refresh --force)")
	}
	if s.Skipped != "" {
		row("not running", s.Skipped)
	}
	if s.NextAttemptAt != nil {
		row("next refresh", s.NextAttemptAt.Local().Format(time.DateTime))
	}
	if s.Repo != nil {
		row("invalidations", fmt.Sprint(s.InvalidationCount))
	}
	for _, c := range s.Chips {
		v := c.Value
		if c.LastOutcome != nil && c.LastOutcome.Class != classify.Validated {
			v += fmt.Sprintf(" (%s: %s)", c.LastOutcome.Category, c.LastOutcome.Detail)
		}
		row("chip "+c.Name, strings.TrimSpace(v))
	}
	if len(s.RecoveryActions) > 0 {
		row("try", strings.Join(s.RecoveryActions, "; "))
	}
	if w := s.Worker; w != nil {
		row("worker", fmt.Sprintf("pid %d, %s, idle %s", w.PID, w.Binary, time.Duration(w.IdleS)*time.Second))
	} else {
		row("worker", "none for this shell (zsh and bash start one at their second prompt)")
	}
	row("state file", s.StateFile)
	row("config file", s.ConfigFile)
	for _, p := range s.Problems {
		row("problem", p)
	}
}
