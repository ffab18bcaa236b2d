package pull

import "testing"

// TestCauseWords: every cause a removal is shown with has its own words,
// and a cause no reviewed text gives (a planted state file) reads as an
// unknown reason.
func TestCauseWords(t *testing.T) {
	seen := map[string]string{}
	for _, c := range RemovalCauses {
		w := CauseWords(c)
		if w == "" || (c != "unknown" && w == CauseWords("unknown")) {
			t.Errorf("CauseWords(%q) = %q", c, w)
		}
		if prev, dup := seen[w]; dup {
			t.Errorf("CauseWords(%q) = CauseWords(%q) = %q", c, prev, w)
		}
		seen[w] = c
	}
	for _, c := range []string{"", "CI_FAILURE", "50% $(id)"} {
		if got := CauseWords(c); got != "unknown reason" {
			t.Errorf("CauseWords(%q) = %q, want unknown reason", c, got)
		}
	}
}
