package chip

import (
	"cmp"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/state"
)

// StatusProbe is what `prchip status` says of the conditional probes: the
// last one and its answer, when the next one (or the full refresh) is due
// and why, and whether the host gets plain refreshes instead.
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
