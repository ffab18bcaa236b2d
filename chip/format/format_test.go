package format

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prchip/prchip/sanitize"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var states = []struct {
	name  string
	pr    PR
	stale bool
}{
	{"open", PR{Number: 42, State: "open", Title: "Add the chip", URL: "https://github.com/o/r/pull/42"}, false},
	{"draft", PR{Number: 42, State: "open", Draft: true, Title: "WIP: chip", URL: "https://github.com/o/r/pull/42"}, false},
	{"merged", PR{Number: 42, State: "merged", Title: "Add the chip", URL: "https://github.com/o/r/pull/42"}, false},
	{"closed", PR{Number: 42, State: "closed", Title: "Add the chip", URL: "https://github.com/o/r/pull/42"}, false},
	{"approved-passing", PR{Number: 7, State: "open", Review: "approved", Checks: "passing", Title: "Ready", URL: "https://github.com/o/r/pull/7"}, false},
	{"changes-failing", PR{Number: 7, State: "open", Review: "changes_requested", Checks: "failing", Title: "Not yet", URL: "https://github.com/o/r/pull/7"}, false},
	{"required-pending", PR{Number: 7, State: "open", Review: "review_required", Checks: "pending", Title: "Waiting", URL: "https://github.com/o/r/pull/7"}, false},
	{"stale", PR{Number: 9, State: "open", Title: "Offline", URL: "https://github.com/o/r/pull/9"}, true},
	{"hostile title", PR{Number: 5, State: "open", Title: "50% $(id) `id` \\[ %F{red}", URL: "https://github.com/o/r/pull/5"}, false},
}

const fullFormat = "#{number} {title}( {state_symbol})( {review_symbol})( {checks_symbol})( {stale})"

// TestGolden renders every state with each preset's default template and
// a full template, with and without colour, for every shell.
func TestGolden(t *testing.T) {
	for _, preset := range []string{"plain", "nerd"} {
		var b strings.Builder
		for _, tmpl := range []string{"", fullFormat} {
			for _, sh := range []sanitize.Shell{sanitize.Zsh, sanitize.Bash, sanitize.Fish, sanitize.Plain} {
				for _, color := range []bool{false, true} {
					for _, s := range states {
						o := Options{Format: tmpl, Symbols: mustPreset(preset), Color: color, Shell: sh, TitleWidth: 40,
							Styles: map[string]Style{"number": "1", "state.merged": "35", "checks.failing": "31", "checks.passing": "32", "review.approved": "32", "stale": "90"}}
						if o.Format == "" {
							o.Format = o.Symbols.Format
						}
						fmt.Fprintf(&b, "%-5s color=%-5v %-40q %-17s %q\n", sh, color, tmpl, s.name, Chip(&s.pr, s.stale, &o))
					}
				}
			}
		}
		path := filepath.Join("testdata", "chip-"+preset+".golden")
		if *update {
			os.WriteFile(path, []byte(b.String()), 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./chip/format -update)", err)
		}
		if b.String() != string(want) {
			t.Errorf("%s differs from the rendering; run go test ./chip/format -update and review the diff", path)
		}
	}
}

// Merged and closed PRs never look open, even with a template without a
// state field.
func TestMergedAndClosedShown(t *testing.T) {
	for _, st := range []string{"merged", "closed"} {
		pr := PR{Number: 3, State: st, Title: "t"}
		if got := Chip(&pr, false, &Options{Format: "#{number} {title}", Symbols: mustPreset("plain")}); got != "#3 t "+st {
			t.Errorf("template without state, %s: %q", st, got)
		}
	}
	for _, preset := range []string{"plain", "nerd"} {
		for _, st := range []string{"merged", "closed"} {
			pr := PR{Number: 42, State: st}
			got := Chip(&pr, false, &Options{Symbols: mustPreset(preset), Format: mustPreset(preset).Format})
			if preset == "plain" && got != "#42 "+st {
				t.Errorf("plain %s: %q", st, got)
			}
			if preset == "nerd" && !strings.Contains(got, map[string]string{"merged": mustPreset("nerd").Merged, "closed": mustPreset("nerd").Closed}[st]) {
				t.Errorf("nerd %s: %q", st, got)
			}
		}
	}
}

var (
	zshZeroWidth  = regexp.MustCompile(`%\{[^%]*%\}`)
	bashZeroWidth = regexp.MustCompile("\x01[^\x02]*\x02")
)

// Colours use each shell's zero-width markers, so the prompt's width is
// right: outside them no escape byte remains.
func TestEscapesAreZeroWidth(t *testing.T) {
	for _, s := range states {
		for _, link := range []bool{false, true} {
			o := Options{Format: fullFormat, Symbols: mustPreset("nerd"), Color: true, Hyperlink: link, Host: "github.com",
				Styles: map[string]Style{"chip": "1", "number": "32", "state.merged": "35"}}
			o.Shell = sanitize.Zsh
			if z := zshZeroWidth.ReplaceAllString(Chip(&s.pr, s.stale, &o), ""); strings.ContainsAny(z, "\x1b\x07") {
				t.Errorf("zsh %s: escape outside %%{ %%}: %q", s.name, z)
			}
			o.Shell = sanitize.Bash
			if b := bashZeroWidth.ReplaceAllString(Chip(&s.pr, s.stale, &o), ""); strings.ContainsAny(b, "\x1b\x07") {
				t.Errorf("bash %s: escape outside \\001 \\002: %q", s.name, b)
			}
			o.Shell = sanitize.Plain
			o.Color = false
			o.Hyperlink = false
			if p := Chip(&s.pr, s.stale, &o); strings.ContainsAny(p, "\x1b\x07") {
				t.Errorf("plain %s: escape %q", s.name, p)
			}
		}
	}
}

func TestOSC8OnlyForAllowedURLs(t *testing.T) {
	cases := []struct {
		url, host string
		ok        bool
	}{
		{"https://github.com/o/r/pull/1", "github.com", true},
		{"http://ghe.corp.example/o/r/pull/1", "ghe.corp.example", true},
		{"https://api.github.com/o/r", "github.com", true},
		{"https://evil.example/o/r/pull/1", "github.com", false},
		{"https://github.com.evil.example/x", "github.com", false},
		{"https://github.com@evil.example/x", "github.com", false},
		{"https://github.com:8443/x", "github.com", false},
		{"javascript:alert(1)", "github.com", false},
		{"file:///etc/passwd", "github.com", false},
		{"https://github.com/x\x1b]8;;evil\x07", "github.com", false},
		{"https://github.com/o/r", "", false},
	}
	for _, c := range cases {
		if got := LinkAllowed(c.url, c.host); got != c.ok {
			t.Errorf("LinkAllowed(%q, %q) = %v", c.url, c.host, got)
		}
		pr := PR{Number: 1, State: "open", URL: c.url}
		out := Chip(&pr, false, &Options{Format: DefaultFormat, Hyperlink: true, Host: c.host, Shell: sanitize.Fish})
		if has := strings.Contains(out, "\x1b]8;;"); has != c.ok {
			t.Errorf("%q: link emitted %v, allowed %v: %q", c.url, has, c.ok, out)
		}
	}
	pr := PR{Number: 1, State: "open", URL: "https://github.com/o/r/pull/1"}
	if out := Chip(&pr, false, &Options{Format: DefaultFormat, Host: "github.com"}); strings.Contains(out, "\x1b") {
		t.Errorf("link without hyperlinks on: %q", out)
	}
}

// A link's URL holds nothing a shell would expand if the chip were pasted
// into a prompt string: it is percent-encoded, and means the same.
func TestLinkURLIsInertWhenPasted(t *testing.T) {
	pr := PR{Number: 1, State: "open", URL: "https://github.com/o/r/pull/1$(id)`id`!"}
	for _, sh := range []sanitize.Shell{sanitize.Zsh, sanitize.Bash, sanitize.Fish} {
		out := Chip(&pr, false, &Options{Format: DefaultFormat, Hyperlink: true, Host: "github.com", Shell: sanitize.Shell(sh)})
		if !strings.Contains(out, "pull/1%24(id)%60id%60%21") && !strings.Contains(out, "pull/1%%24(id)%%60id%%60%%21") {
			t.Errorf("%s: URL not encoded: %q", sh, out)
		}
		if strings.ContainsAny(out, "$`!") {
			t.Errorf("%s: expansion character left: %q", sh, out)
		}
	}
}

func TestGhFieldsAskOnlyWhatTheFormatShows(t *testing.T) {
	cases := map[string]string{
		DefaultFormat:                 "number,url,state,isDraft,title",
		"#{number} {title}":           "number,url,state,isDraft,title",
		"#{number}( {review_symbol})": "number,url,state,isDraft,title,reviewDecision",
		"#{number}( {checks})":        "number,url,state,isDraft,title,statusCheckRollup",
		fullFormat:                    "number,url,state,isDraft,title,reviewDecision,statusCheckRollup",
		"\\{checks\\} #{number}":      "number,url,state,isDraft,title",
	}
	for f, want := range cases {
		if got := GhFields(f); got != want {
			t.Errorf("GhFields(%q) = %q, want %q", f, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, ok := range []string{DefaultFormat, fullFormat, "plain text", "\\{literal\\}", "((#{number}))"} {
		if err := Validate(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"{nope}", "#{number", "(#{number}", "#{number})"} {
		if err := Validate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTruncateWidth(t *testing.T) {
	cases := []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a longer title here", 10, "a longer …"},
		{"日本語のタイトルです", 7, "日本語…"},
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"},
		{"anything", 0, "anything"},
	}
	for _, c := range cases {
		got := TruncateWidth(c.in, c.w)
		if got != c.want {
			t.Errorf("TruncateWidth(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		if c.w > 0 && runeWidthString(got) > c.w {
			t.Errorf("%q is %d columns wide, bound %d", got, runeWidthString(got), c.w)
		}
	}
}

func mustPreset(name string) Symbols {
	p, ok := Preset(name)
	if !ok {
		panic("unknown preset " + name)
	}
	return p
}

// TestEveryFieldHasAValue fails when a field is added to Fields but not to
// values.get.
func TestEveryFieldHasAValue(t *testing.T) {
	pr := PR{Number: 5, URL: "https://github.com/o/r/pull/5", State: "merged", Title: "t", Review: "approved", Checks: "passing"}
	o := Options{Symbols: mustPreset("nerd")}
	v := fieldValues(&pr, true, &o)
	for _, f := range Fields {
		if v.get(f) == "" {
			t.Errorf("field %q has no value", f)
		}
	}
}
