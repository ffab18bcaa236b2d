package chip

import "encoding/json"

// JSON is `status --json`'s output (SPEC 6): indented by two spaces, as
// the contract's examples are, with a final newline.
func (s *Status) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}
