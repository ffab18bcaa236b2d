package chip

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// Status is `prchip status --json` (SPEC 6). Field names are the contract.
type Status struct {
	ghHost            string              // GH_HOST, for the remotes' lines
	Dir               string              `json:"dir"`
	Repo              *StatusRepo         `json:"repo"`
	Gh                StatusGh            `json:"gh"`
	Mode              string              `json:"mode"`
	Validation        state.Validation    `json:"validation"`
	Fingerprint       string              `json:"fingerprint"`
	FailureCached     bool                `json:"failure_cached"`
	Chip              string              `json:"chip"`
	PR                *StatusPR           `json:"pr"`
	LastOutcome       *StatusOutcome      `json:"last_outcome"`
	NextAttemptAt     *time.Time          `json:"next_attempt_at"`
	InvalidationCount int                 `json:"invalidation_count"`
	RecoveryActions   []string            `json:"recovery_actions"`
	StateFile         string              `json:"state_file"`
	ConfigFile        string              `json:"config_file"`
	Problems          []string            `json:"problems"`
	Worker            *StatusWorker       `json:"worker"`
	Lookup            *classify.Lookup    `json:"lookup"`    // what the last refresh asked GitHub (SPEC 3)
	SetAside          []classify.SetAside `json:"set_aside"` // PRs of the branch's head not shown, and why
	Hook              *StatusHook         `json:"hook"`
	Probe             *StatusProbe        `json:"probe,omitempty"` // the PR chip's conditional probes (SPEC 4)
	ProbeRequests     int                 `json:"probe_requests"`  // git commands that asked for a probe at once
	// Beyond the contract: why the PR chip is not run now; shell chips.
	Skipped             string         `json:"skipped,omitempty"`
	ConsecutiveFailures int            `json:"consecutive_failures"`
	Chips               []StatusChip   `json:"chips,omitempty"`
	Now                 time.Time      `json:"now"`               // the times above are relative to it
	RefreshInFlight     bool           `json:"refresh_in_flight"` // another process holds the refresh lock
	SuppressedAt        *time.Time     `json:"suppressed_at"`     // while suppressed
	Remotes             []StatusRemote `json:"remotes,omitempty"` // why none counts, for want of a GitHub one
	liftedAt            time.Time      // when a suppression gh's changed setup lifted began
}

// StatusRemote is one remote that gh would not take, and why.
type StatusRemote struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Host  string `json:"host"`
	Alias string `json:"ssh_hostname,omitempty"` // the host an SSH alias stands for
	Why   string `json:"why"`
	Login string `json:"login_host,omitempty"` // the host for `gh auth login --hostname`
}

// StatusPR is `pr` (SPEC 6): every key present, null when unknown (no
// template shows it, so it was not asked for, or the installed gh cannot tell).
type StatusPR struct {
	Number       int               `json:"number"`
	URL          string            `json:"url"`
	State        string            `json:"state"`
	Draft        bool              `json:"draft"`
	Title        string            `json:"title"`
	MergeState   *string           `json:"merge_state"` // "unknown" while GitHub computes it
	AutoMerge    *bool             `json:"auto_merge"`
	ChecksCounts *pull.CheckCounts `json:"checks_counts"`
	FailingCheck *string           `json:"failing_check"`
	Sync         *string           `json:"sync"` // null too while the branch moved since it was computed
	HeadOid      *string           `json:"head_oid"`
	// Beyond the contract.
	Review string      `json:"review,omitempty"`
	Checks string      `json:"checks,omitempty"`
	Queue  *pull.Queue `json:"queue,omitempty"`
	Base   string      `json:"base,omitempty"`   // the branch the PR goes into
	Others []int       `json:"others,omitempty"` // other open PRs from the same head
}

// mergeLine is the merge facts known, in words, for the human form: merge
// state, auto-merge, the head commit's checks, sync, the merge queue.
func (p *StatusPR) mergeLine() string {
	var parts []string
	if p.MergeState != nil {
		parts = append(parts, "merge state "+*p.MergeState)
	}
	if p.AutoMerge != nil && *p.AutoMerge {
		parts = append(parts, "auto-merge on")
	}
	if c := p.ChecksCounts; c != nil {
		parts = append(parts, fmt.Sprintf("checks %d passing, %d failing, %d pending", c.Passing, c.Failing, c.Pending))
	}
	if p.FailingCheck != nil {
		parts = append(parts, "first failing: "+*p.FailingCheck)
	}
	if p.Sync != nil && *p.Sync == repo.SyncUnknown {
		parts = append(parts, "local branch against the PR unknown (the repository is beyond what prchip reads for it)")
	} else if p.Sync != nil {
		parts = append(parts, "local branch "+strings.ReplaceAll(*p.Sync, "_", " "))
	}
	if q := p.Queue; q != nil && q.Position > 0 {
		parts = append(parts, fmt.Sprintf("merge queue position %d (%s)", q.Position, strings.ReplaceAll(q.State, "_", " ")))
	}
	return strings.Join(parts, "; ")
}

// statusPR is pr as status shows it; moved: the branch moved since sync was computed.
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
		Review: pr.Review, Checks: pr.Checks, Queue: pr.Queue, Base: pr.Base, Others: pr.Others}
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
	Rebasing  bool   `json:"rebasing,omitempty"` // a rebase of Branch is under way
}

// StatusGh describes gh.
type StatusGh struct {
	Found       bool    `json:"found"`
	Path        string  `json:"path"`
	Version     *string `json:"version"`
	TokenSource string  `json:"token_source"` // where gh takes a token from, never the token
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
	lines      []string       // Detail cut where gh's lines were, for the human form
}

// StatusChip summarises a shell chip.
type StatusChip struct {
	Name            string         `json:"name"`
	Value           string         `json:"value"`
	FailureCached   bool           `json:"failure_cached"`
	LastOutcome     *StatusOutcome `json:"last_outcome"`
	Command         string         `json:"command"`          // sanitised, one line as Detail
	RecoveryActions []string       `json:"recovery_actions"` // about this chip, never gh
	NextAttemptAt   *time.Time     `json:"next_attempt_at"`
	commandLines    []string       // for the human form
}

func statusOutcome(o *classify.Outcome) *StatusOutcome {
	if o == nil {
		return nil
	}
	so := &StatusOutcome{Class: o.Class, Category: o.Category, TimedOut: o.TimedOut, Detail: o.Detail, At: o.At.UTC(), DurationMS: o.DurationMS,
		lines: sanitize.SplitLines(o.Detail, o.LineStarts)}
	if c := o.ExitCode; c >= 0 {
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
		ghHost:          e.Env.Get("GH_HOST"),
		ConfigFile:      sanitize.Text(e.Config.Path, 4096),
		Problems:        []string{},
		SetAside:        []classify.SetAside{},
		Now:             now.UTC(),
	}
	if s.Validation == state.Suppressed {
		s.SuppressedAt = utc(v.Global.SuppressedAt)
	} else if v.Global.Validation == state.Suppressed {
		s.liftedAt = v.Global.SuppressedAt
	}
	// Stored records are clean once decoded (state.DecodeRepoState); a
	// problem may quote a file's text, so it is cleaned as it is added.
	problem := func(p string) { s.Problems = append(s.Problems, sanitize.Text(sanitize.Redact(p), 2048)) }
	for _, err := range []error{e.Store.DirProblem(), v.Problem} {
		if err != nil {
			problem(err.Error())
		}
	}
	if f.Setup.GhPath != "" && v.Global.GhVersionOf == f.Setup.GhIdentity && v.Global.GhVersion != "" {
		s.Gh.Version = &v.Global.GhVersion
	}
	for _, p := range e.Config.Problems {
		problem("config " + p.String())
	}
	if err := f.Setup.HostsErr(); err != nil {
		problem("gh hosts file: " + err.Error())
	}
	s.Gh.TokenSource = f.Setup.TokenSource(cmp.Or(f.Remote.Host, s.ghHost, "github.com"))
	if f.Repo != nil {
		// Everything from the repository is untrusted: no control
		// characters, no credentials from a remote URL.
		s.Repo = &StatusRepo{Root: sanitize.Text(f.Repo.Root, 4096), Branch: sanitize.Text(f.Repo.Branch, 1024),
			RemoteURL: sanitize.Text(sanitize.Redact(f.Remote.URL), 1024), Rebasing: f.Repo.Rebasing}
		if f.Remote.URL != "" {
			s.Repo.Host = f.Remote.Host
		}
		s.InvalidationCount = v.Repo.Invalidations
		s.ProbeRequests = v.Repo.ProbeRequests
		s.RefreshInFlight = e.Store.Held(f.Key)
	}
	s.Chip, _ = e.Render(f, &v, sanitize.Plain)
	if f.NA != nil {
		s.LastOutcome = statusOutcome(f.NA)
		s.RecoveryActions = append(s.RecoveryActions, f.NA.Recovery...)
		if _, set, _ := f.Setup.GhRepo(); f.NA.Category == classify.CatNoGitHubRemote && f.Repo != nil && !set {
			s.explainRemotes(f)
		}
	}
	for _, ce := range e.entries(f, &v, now) {
		st := ce.State
		if ce.Policy.Kind != state.KindPR {
			sc := StatusChip{Name: ce.Policy.Name, Command: strings.TrimSpace(sanitize.Text(sanitize.Redact(ce.Shell.Command), 1024)),
				commandLines: textLines(ce.Shell.Command), RecoveryActions: []string{}}
			if st != nil {
				sc.Value = st.Value
				sc.FailureCached = st.FailureCached(ce.Fingerprint)
				sc.LastOutcome = statusOutcome(st.Outcome)
			}
			sc.NextAttemptAt = utc(state.NextAttemptAt(ce.DecideInput))
			if o := sc.LastOutcome; o != nil && o.Class != classify.Validated && o.Class != classify.NotApplicable {
				sc.RecoveryActions = shellAdvice(f.Repo.Root, ce.Shell.Command, sc.FailureCached)
			}
			s.Chips = append(s.Chips, sc)
			continue
		}
		s.Fingerprint = ce.Fingerprint
		if d := state.Decide(ce.DecideInput); !d.Run {
			s.Skipped = d.Reason
		}
		s.NextAttemptAt = utc(state.NextAttemptAt(ce.DecideInput))
		if st == nil {
			continue
		}
		s.Probe = statusProbe(ce.DecideInput)
		s.FailureCached = st.FailureCached(ce.Fingerprint)
		if st.Fingerprint == ce.Fingerprint {
			s.ConsecutiveFailures = st.Failures
		}
		if shows(ce.DecideInput) {
			s.PR = statusPR(st.PR, e.syncMoved(f, st))
		}
		if st.Outcome != nil {
			if l := st.Outcome.Lookup; l != nil {
				lk := *l
				lk.Tried = append([]string{}, l.Tried...) // [] in JSON, never null
				s.Lookup = &lk
			}
			if st.Outcome.SetAside != nil {
				s.SetAside = st.Outcome.SetAside
			}
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
	s.RecoveryActions = tokenAdvice(s.RecoveryActions, s.Gh.TokenSource)
	s.RecoveryActions = s.RecoveryActions[:min(len(s.RecoveryActions), 3)]
	return s
}

// utc is t in UTC for status's JSON, nil when zero (never set).
func utc(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

// explainRemotes lists the remotes gh would not take and why, with the
// `gh auth login --hostname` for a host that may be an unknown GHES.
func (s *Status) explainRemotes(f *Facts) {
	for _, v := range f.Setup.ExplainRemotes(f.Repo) {
		// From the repository's config: untrusted, a URL may hold a credential.
		r := StatusRemote{Name: sanitize.Text(v.Name, 256), URL: sanitize.Text(sanitize.Redact(v.URL), 1024),
			Host: sanitize.Text(v.Host, 256), Alias: sanitize.Text(v.Alias, 256), Why: sanitize.Text(v.Why, 1024)}
		if v.Login != "" {
			r.Login = sanitize.Text(v.Login, 256)
			login := "gh auth login --hostname " + classify.ShellQuote(r.Login)
			if !slices.Contains(s.RecoveryActions, login) {
				s.RecoveryActions = append(s.RecoveryActions, login)
			}
		}
		s.Remotes = append(s.Remotes, r)
	}
	if s.ghHost != "" && len(s.Remotes) > 0 {
		s.RecoveryActions = append(s.RecoveryActions, "unset GH_HOST")
	}
}

// shellAdvice is what to do about a failing shell chip: run its command as
// prchip does (sh -c in the root; a multi-line one is not pasted), refresh.
func shellAdvice(root, command string, cached bool) []string {
	refresh := "prchip refresh"
	if cached {
		refresh = "prchip refresh --force"
	}
	try := "cd " + classify.ShellQuote(sanitize.Text(root, 4096)) + " && sh -c " + classify.ShellQuote(sanitize.Text(sanitize.Redact(command), 4096))
	if strings.Contains(strings.TrimSpace(command), "\n") {
		try = "run its command with sh -c in " + sanitize.Text(root, 4096)
	}
	return []string{try, refresh}
}

// textLines are s's lines fit to show: each cleaned and redacted alone.
func textLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(sanitize.Text(sanitize.Redact(l), 1024), " ")
	}
	return lines
}

// JSON is `status --json`'s output (SPEC 6): indented by two spaces, as
// the contract's examples; '<', '>', '&' as written (no HTML here).
func (s *Status) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(s)
	return b.Bytes(), err
}

// WriteHuman prints the status as aligned rows; a row's further lines are
// indented under its value. Lines quoted from a command's output start
// with "| ": nothing a message holds can pass for a row of its own.
func (s *Status) WriteHuman(w io.Writer) {
	row := func(k string, lines ...string) {
		k += ":"
		for _, l := range lines {
			fmt.Fprintf(w, "%-15s %s\n", k, l)
			k = ""
		}
	}
	at := func(t time.Time) string { return t.Local().Format(time.DateTime) + " (" + Relative(t.Sub(s.Now)) + ")" }
	row("why", s.whyLine())
	row("directory", s.Dir)
	if s.Repo == nil {
		row("repository", "none")
	} else {
		row("repository", s.Repo.Root)
		row("branch", cmp.Or(s.Repo.Branch, "(detached HEAD)"))
		row("remote", cmp.Or(s.Repo.RemoteURL, "(no GitHub remote)"))
	}
	if len(s.Remotes) > 0 {
		row("remotes seen", s.remoteLines()...)
	}
	gh := "not found on PATH"
	if s.Gh.Found {
		gh = s.Gh.Path
		if s.Gh.Version != nil {
			gh += " (version " + *s.Gh.Version + ")"
		}
		if s.Gh.TokenSource != "" {
			gh += ", token from " + s.Gh.TokenSource
		} else {
			gh += ", no token in the environment or hosts.yml (gh may keep one in the system keyring)"
		}
	}
	row("gh", gh)
	row("mode", s.Mode)
	row("validation", s.validationLines(at)...)
	row("chip", cmp.Or(s.Chip, "(empty)"))
	if s.PR != nil {
		row("pull request", fmt.Sprintf("#%d %s (%s) %s", s.PR.Number, s.PR.Title, s.PR.State, s.PR.URL))
		if m := s.PR.mergeLine(); m != "" {
			row("merge", m)
		}
		if r := s.PR.queueRemovalLines(at); r != nil {
			row("merge queue", r...)
		}
	}
	if l := s.Lookup; l != nil {
		row("asked", s.lookupLines()...)
	}
	for _, a := range s.SetAside {
		row("set aside", fmt.Sprintf("#%d (%s): %s", a.Number, a.State, a.Reason))
	}
	if s.RefreshInFlight {
		row("refresh", "running now (a refresh of this repository holds its refresh lock; status waits for nothing)")
	}
	if o := s.LastOutcome; o != nil {
		line := fmt.Sprintf("%s / %s", o.Class, o.Category)
		if !o.At.IsZero() && o.Class != classify.NotApplicable || o.DurationMS > 0 {
			line += fmt.Sprintf(" at %s, took %d ms", at(o.At), o.DurationMS)
		}
		row("last outcome", line)
		if o.Detail != "" {
			row("detail", quoted(o.lines, false)...)
		}
	} else {
		row("last outcome", "none yet")
	}
	if s.FailureCached {
		row("failure cached", "yes: not run again until gh's setup, the branch or the remote changes (or prchip refresh --force)")
	}
	if s.Skipped != "" {
		row("not running", skipWords(s.Skipped, s.ConsecutiveFailures))
	}
	if s.NextAttemptAt != nil {
		row("next refresh", "at the first prompt after "+at(*s.NextAttemptAt))
	}
	if s.Probe != nil {
		row("probe", s.Probe.lines(at)...)
	}
	for _, c := range s.Chips {
		row("chip "+c.Name, c.lines(at)...)
	}
	if len(s.RecoveryActions) > 0 {
		row("try", strings.Join(s.RecoveryActions, "; "))
	}
	if w := s.Worker; w != nil {
		row("worker", fmt.Sprintf("pid %d, %s, idle %s", w.PID, w.Binary, time.Duration(w.IdleS)*time.Second))
	} else {
		row("worker", "none for this shell (zsh, bash and fish start one at their second prompt)")
	}
	if s.Hook != nil {
		row("hook", s.Hook.line())
	}
	row("state file", s.StateFile)
	row("config file", s.ConfigFile)
	for _, p := range s.Problems {
		row("problem", p)
	}
}

// lookupLines say which head and base the last refresh asked GitHub
// about, why those, and what it tried before.
func (s *Status) lookupLines() []string {
	l := s.Lookup
	if l.Head == "" {
		return []string{"nothing: " + l.Why}
	}
	out := []string{"head " + l.Head + " in " + l.Base + " (" + l.Why + ")"}
	if s.Repo != nil && s.Repo.Rebasing {
		out = append(out, "a rebase of "+s.Repo.Branch+" is under way: its PR is shown")
	}
	for _, t := range l.Tried {
		out = append(out, "tried before, found nothing: "+t)
	}
	if s.PR != nil && len(s.PR.Others) > 0 {
		var n []string
		for _, o := range s.PR.Others {
			n = append(n, fmt.Sprintf("#%d", o))
		}
		out = append(out, "another open PR from the same head: "+strings.Join(n, ", ")+" (the one into "+s.PR.Base+", the branch's base, is shown)")
	}
	return out
}

// remoteLines are the remotes gh would not take, each with why not.
func (s *Status) remoteLines() []string {
	out := []string{"none counts: gh takes a remote on github.com, a *.ghe.com host, GH_HOST or a host in gh's hosts.yml"}
	if gh := sanitize.Text(s.ghHost, 256); gh != "" {
		out[0] = "none counts: GH_HOST is " + gh + ", and gh then takes only a remote on " + gh + " (add one, or unset GH_HOST)"
	}
	for _, r := range s.Remotes {
		out = append(out, r.Name+" "+r.URL)
		if r.Alias != "" {
			out = append(out, "  an SSH alias: ~/.ssh/config sends "+r.Host+" to "+r.Alias)
		}
		out = append(out, "  "+r.Why)
		if r.Login != "" {
			out = append(out, "  if "+r.Login+" is a GitHub Enterprise Server, run: gh auth login --hostname "+classify.ShellQuote(r.Login))
		}
	}
	return out
}

// liftedBy is what lifts a suppression (SPEC 4).
var liftedBy = []string{
	"lifted by itself when gh appears on PATH or changes, gh's hosts.yml changes,",
	"or a token variable (GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN) is set, changed or unset;",
	"by hand: prchip reset (unvalidated again), or prchip refresh --force (runs gh anyway; validated if it works)",
}

// validationLines say what the validation is, that it is global, and,
// while suppressed, what it hides and what lifts it.
func (s *Status) validationLines(at func(time.Time) string) []string {
	const global = "global: one for the user, shared by every repository, not kept per repository"
	switch s.Validation {
	case state.Suppressed:
		first := "suppressed"
		if s.SuppressedAt != nil {
			first += " since " + at(*s.SuppressedAt)
		}
		first += ": a refresh found gh missing or not logged in"
		hides := "while suppressed the PR chip is hidden and gh is not run, in every repository"
		if s.Mode == "always" {
			hides = "mode is always: the PR chip runs anyway"
		}
		return append([]string{first, global, hides}, liftedBy...)
	case state.SetupValidated:
		return []string{"validated: gh worked with this setup", global}
	}
	first := "unvalidated: no PR refresh has shown yet that gh works with this setup"
	if !s.liftedAt.IsZero() {
		first = "unvalidated again: the suppression of " + at(s.liftedAt) + " was lifted, gh's setup has changed since"
	}
	return []string{first, global}
}

// skipWords says why the render path does not run the PR chip now.
func skipWords(reason string, failures int) string {
	if reason == state.ReasonBackoff && failures == 1 {
		return "backing off after 1 failure in a row"
	} else if reason == state.ReasonBackoff {
		return fmt.Sprintf("backing off after %d failures in a row", failures)
	}
	return cmp.Or(map[string]string{
		state.ReasonModeOff:       "mode is off",
		state.ReasonSuppressed:    "validation is suppressed (see validation)",
		state.ReasonFailureCached: "a failure is cached for this fingerprint",
		state.ReasonFresh:         "the last result is fresh",
		state.ReasonMissingGh:     "gh was missing, and the setup has not changed since",
	}[reason], reason)
}

// lines describe a shell chip: its value, or how it fails and what to do
// about it, which is about its command, never about gh.
func (c *StatusChip) lines(at func(time.Time) string) []string {
	o := c.LastOutcome
	switch {
	case o == nil:
		return []string{"not run yet"}
	case o.Class == classify.Validated:
		return []string{cmp.Or(c.Value, "(empty)") + ", at " + at(o.At)}
	}
	how := "failed"
	switch {
	case o.TimedOut:
		how = "timed out"
	case o.ExitCode != nil:
		how = fmt.Sprintf("exited with code %d", *o.ExitCode)
	}
	out := []string{fmt.Sprintf("failing: %s (%s) at %s", how, o.Category, at(o.At))}
	if o.Detail != "" && o.Detail != how {
		out = append(out, quoted(o.lines, true)...)
	}
	if c.FailureCached {
		out = append(out, "not run again (suppress_on_failure) until its command or the branch changes, or prchip invalidate (the hooks run it after the invalidate_on commands: git, gh, gt by default)")
	} else if c.NextAttemptAt != nil {
		out = append(out, "tried again at the first prompt after "+at(*c.NextAttemptAt))
	}
	if len(c.commandLines) == 1 {
		out = append(out, "its command: "+c.commandLines[0])
	} else {
		out = append(append(out, "its command:"), quoted(c.commandLines, true)...)
	}
	if len(c.RecoveryActions) == 2 {
		out = append(out, "test it as prchip runs it: "+c.RecoveryActions[0], "then: "+c.RecoveryActions[1])
	}
	return out
}

// quoted marks lines from a command's output with "| ", always when
// there are several (or always is set), so none reads as a row.
func quoted(lines []string, always bool) []string {
	if len(lines) == 1 && !always {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "| " + l
	}
	return out
}

// Relative says how far d is from now in words: "in 9 min", "2 min ago",
// "now". Rounded to a whole unit; hours past 100 min, days past 48 h.
func Relative(d time.Duration) string {
	a := d.Abs().Round(time.Second)
	var n string
	switch {
	case a == 0:
		return "now"
	case a < 100*time.Second:
		n = fmt.Sprintf("%d s", a/time.Second)
	case a < 100*time.Minute:
		n = fmt.Sprintf("%d min", a.Round(time.Minute)/time.Minute)
	case a < 48*time.Hour:
		n = fmt.Sprintf("%d h", a.Round(time.Hour)/time.Hour)
	default:
		n = fmt.Sprintf("%d days", a.Round(24*time.Hour)/(24*time.Hour))
	}
	if d > 0 {
		return "in " + n
	}
	return n + " ago"
}

// StatusHook is the binary the calling shell's hook runs: the path `prchip
// init` recorded, else prchip on PATH; a chip gone after an upgrade shows.
type StatusHook struct {
	Exe     string `json:"exe"`               // the path the hook recorded (its PRCHIP_HOOK_EXE)
	Missing string `json:"missing,omitempty"` // why Exe cannot run ("gone", ...), "" when it can
	// Runs is Exe, the prchip on PATH it falls back to, or "" when there is
	// none and the chip is off in that shell.
	Runs string `json:"runs"`
}

// line is the human status row.
func (h *StatusHook) line() string {
	switch {
	case h.Missing == "":
		return "runs " + h.Exe
	case h.Runs != "":
		return "runs " + h.Exe + ", which is " + h.Missing + "; it falls back to prchip on PATH (" + h.Runs + ")"
	}
	return "runs " + h.Exe + ", which is " + h.Missing + ", and there is no prchip on PATH: the chip is off in this shell " +
		"(put prchip on PATH, or load the hook again from where prchip is now)"
}

// StatusProbe is the conditional probes: the last and its answer, when the
// next (or the full refresh) is due and why, or plain refreshes instead.
type StatusProbe struct {
	Host     string     `json:"host"`
	Asks     []string   `json:"asks"`
	LastAt   *time.Time `json:"last_at"`
	Answer   string     `json:"answer"`
	NextAt   *time.Time `json:"next_at"`
	Why      string     `json:"why"`
	Quiet    int        `json:"quiet"`
	Fallback bool       `json:"fallback"` // plain refreshes on this host
}

func statusProbe(in state.DecideInput) *StatusProbe {
	st := in.State
	if st == nil || st.Probe == nil || in.Policy.Kind != state.KindPR {
		return nil
	}
	p := &StatusProbe{Host: st.Probe.Host, Asks: []string{}, Answer: st.Probe.Answer, Quiet: st.Probe.Quiet,
		Fallback: in.NoProbes, LastAt: utc(st.Probe.At)}
	for _, t := range st.Probe.Targets {
		p.Asks = append(p.Asks, t.Path)
	}
	next, why := state.NextProbe(in) // CadenceFallback on a host that fell back
	p.NextAt, p.Why = utc(next), why
	return p
}

// probeWhy says a cadence reason in words.
var probeWhy = map[string]string{
	state.CadencePending: "soon: checks are running or GitHub computes the merge state",
	state.CadenceQuiet:   "an open pull request that has not changed",
	state.CadenceSettled: "rarely: merged, closed or no pull request",
	state.CadenceWanted:  "at once: after your git command",
}

// lines are the human form.
func (p *StatusProbe) lines(at func(time.Time) string) []string {
	if p.Fallback {
		return []string{p.Host + " ignored conditional requests (a proxy or server that drops If-None-Match): plain refreshes, as before probes"}
	}
	last := "none since the last full refresh"
	if p.LastAt != nil {
		last = at(*p.LastAt)
		if p.Answer != "" {
			last += ": " + p.Answer
		}
	}
	out := []string{"asks GitHub whether " + strings.Join(p.Asks, ", ") + " changed (gh api, If-None-Match; a 304 costs no budget)",
		"last " + last}
	if p.NextAt != nil {
		out = append(out, "next at the first prompt after "+at(*p.NextAt)+"; "+cmp.Or(probeWhy[p.Why], p.Why))
	}
	return out
}

// removalWhy says a removal from the merge queue in words, and what gets
// the PR merged after it: a removal is what a queue's user must act on.
var removalWhy = map[string]struct{ why, todo string }{
	"checks_failed": {"the required checks failed on the queue's merge group",
		"push a fix; if the failure was flaky or came from a PR ahead of it, queue it again as it is: gh pr merge %d"},
	"checks_timed_out": {"the required checks did not finish in time",
		"queue it again: gh pr merge %d (or push a fix if the checks hang)"},
	"conflict": {"it conflicts with the base branch or a PR ahead of it in the queue",
		"merge or rebase onto the base branch and push, then queue it again: gh pr merge %d"},
	"manual": {"someone removed it by hand",
		"queue it again when it is ready: gh pr merge %d"},
	"branch_protection": {"a branch protection rule failed that the queue could not resolve",
		"satisfy the branch's rules (reviews, required checks), then queue it again: gh pr merge %d"},
	"unknown": {"GitHub gave a reason prchip does not know",
		"read the PR's timeline; push a fix, or queue it again: gh pr merge %d"},
}

// queueRemovalLines say when and why (GitHub's reason, sanitised when read,
// quoted) the PR was removed from the merge queue and what to do; or nil.
func (p *StatusPR) queueRemovalLines(at func(time.Time) string) []string {
	q := p.Queue
	if !q.Removed() {
		return nil
	}
	cause := pull.KnownCause(q.RemovalCause)
	w := removalWhy[cause]
	first := "removed at " + at(q.RemovedAt) + ": " + w.why
	if q.RemovalReason != "" {
		first += " (GitHub: " + strconv.Quote(q.RemovalReason) + ")"
	}
	return []string{first,
		"for this head (" + q.RemovalHeadOid[:min(len(q.RemovalHeadOid), 12)] + "); a new push clears it, and so does queueing it again",
		"to do: " + fmt.Sprintf(w.todo, p.Number)}
}

// tokenAdvice rewrites advice gh refuses while a token variable (source,
// StatusGh.TokenSource) is set: `gh auth login` and `gh auth refresh` stop
// with "The value of the GH_TOKEN environment variable is being used for
// authentication"; the advice is to fix or unset it.
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
