package chip

import (
	"bytes"
	"encoding/json"
)

// JSON is `status --json`'s output (SPEC 6): indented by two spaces, as
// the contract's examples are, with a final newline. '<', '>' and '&'
// stay as they are (no HTML here): a chip's command reads as written.
func (s *Status) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(s)
	return b.Bytes(), err
}
