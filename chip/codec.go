package chip

import "encoding/json"

// The state records and gh's output go through encoding/json. A record
// that does not decode is read as the zero value: the caller reports it
// (status), and the next write repairs it.

func decodeGlobal(b []byte) (Global, error) { return decode[Global](b) }

func decodeRepoState(b []byte) (RepoState, error) { return decode[RepoState](b) }

func decodeGhPR(b []byte) (ghPR, error) { return decode[ghPR](b) }

func decode[T any](b []byte) (T, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

func encodeGlobal(g *Global) ([]byte, error) { return json.Marshal(g) }

func encodeRepoState(rs *RepoState) ([]byte, error) { return json.Marshal(rs) }

// JSON is `status --json`'s output (SPEC 6): indented by two spaces, as
// the contract's examples are, with a final newline.
func (s *Status) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}

// ghPR is what `gh pr view --json` prints, as far as the chip reads it.
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
