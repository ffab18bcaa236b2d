package format

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"

	"github.com/prchip/prchip/internal/sanitize"

	"github.com/prchip/prchip/chip/pull"
)

// The model's names as the cases spell them.
type (
	PR          = pull.PR
	CheckCounts = pull.CheckCounts
	Queue       = pull.Queue
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
	{"long title", PR{Number: 6, State: "open", Title: "Cut a long plain ASCII title at forty columns, with an ellipsis", URL: "https://github.com/o/r/pull/6"}, false},
	{"hash title", PR{Number: 4, State: "open", Title: "Fix #12: #(id) #{host} #[fg=red]", URL: "https://github.com/o/r/pull/4"}, false},
	{"wide title", PR{Number: 6, State: "open", Title: "🚀⌚ チップを修正 ❤️❤️ 👨\u200d👩\u200d👧\u200d👦 🇯🇵 👍🏽 e\u0301 and a few more words", URL: "https://github.com/o/r/pull/6"}, false},
	{"conflicts-auto", PR{Number: 8, State: "open", Title: "t", MergeState: "conflicts", AutoMerge: ptr(true),
		Counts: &CheckCounts{Passing: 3, Failing: 1, Pending: 2}, FailingCheck: "build / test (ubuntu-latest, go 1.26, race)", HeadOid: oid, Sync: "ahead"}, false},
	{"clean-queued", PR{Number: 8, State: "open", Title: "t", MergeState: "clean", AutoMerge: ptr(false),
		Counts: &CheckCounts{Passing: 5}, HeadOid: oid, Sync: "same", Queue: &Queue{Position: 2, State: "awaiting_checks"}}, false},
	{"behind-behind", PR{Number: 8, State: "open", Title: "t", MergeState: "behind", Counts: &CheckCounts{Pending: 1}, HeadOid: oid, Sync: "behind"}, false},
	{"blocked-diverged", PR{Number: 8, State: "open", Title: "t", MergeState: "blocked", Counts: &CheckCounts{}, HeadOid: oid, Sync: "diverged"}, false},
	{"unstable-notfetch", PR{Number: 8, State: "open", Title: "t", MergeState: "unstable", HeadOid: oid, Sync: "not_fetched"}, false},
	{"unknown-sync", PR{Number: 8, State: "open", Title: "t", MergeState: "clean", HeadOid: oid, Sync: "unknown"}, false},
	{"hooks", PR{Number: 8, State: "open", Title: "t", MergeState: "has_hooks"}, false},
	{"draft-merge-state", PR{Number: 8, State: "open", Draft: true, Title: "t", MergeState: "draft"}, false},
	{"unknown-merge", PR{Number: 8, State: "open", Title: "t", MergeState: "unknown", Queue: &Queue{Position: 1, State: "queued"}}, false},
	{"hostile check", PR{Number: 8, State: "open", Title: "t", Counts: &CheckCounts{Failing: 1},
		FailingCheck: "50% $(id) `id` \\[ %F{red} !x"}, false},
	{"rebasing", PR{Number: 11, State: "open", Title: "t", Rebasing: true}, false},
	{"another", PR{Number: 12, State: "open", Title: "t", Base: "main", Others: []int{13}}, false},
	{"rebasing-another-merged", PR{Number: 14, State: "merged", Title: "t", Rebasing: true, Others: []int{15, 16}}, false},
	{"dequeued-checks", PR{Number: 8, State: "open", Title: "t", MergeState: "clean", HeadOid: oid, Queue: removedQueue("checks_failed")}, false},
	{"dequeued-conflict", PR{Number: 8, State: "open", Title: "t", Queue: removedQueue("conflict")}, false},
	{"dequeued-unknown", PR{Number: 8, State: "open", Title: "t", Queue: removedQueue("unknown")}, false},
	// A cause no reviewed text gives (a planted state file) shows as unknown.
	{"dequeued-planted", PR{Number: 8, State: "open", Title: "t", Queue: removedQueue("50% $(id) #(id) `id` %F{red}")}, false},
}

// removedQueue is a removal from the merge queue for cause, whose
// GitHub reason is hostile: only the cause may ever show.
func removedQueue(cause string) *Queue {
	return &Queue{RemovalCause: cause, RemovalReason: "50% $(id) #(id) `id` \\[ %F{red}", RemovalHeadOid: oid}
}

const oid = "0123456789abcdef0123456789abcdef01234567"

func ptr[T any](v T) *T { return &v }

const fullFormat = "#{number} {title}( {state_symbol})( {review_symbol})( {checks_symbol})( {stale})"

// mergeFormat shows every merge and sync field, words and symbols.
const mergeFormat = "#{number}( {merge_state})( {merge_state_symbol})( {auto_merge})( {checks_counts})( {failing_check})( {sync})( {sync_symbol})( {queue} {queue_state})"

// TestGolden renders every state with each preset's default template and
// a full template, with and without colour, for every shell.
func TestGolden(t *testing.T) {
	for _, preset := range []string{"plain", "nerd"} {
		var b strings.Builder
		for _, tmpl := range []string{"", fullFormat, mergeFormat} {
			for _, sh := range []sanitize.Shell{sanitize.Zsh, sanitize.Bash, sanitize.Fish, sanitize.Tmux, sanitize.Statusline, sanitize.Plain} {
				for _, color := range []bool{false, true} {
					for _, s := range states {
						o := Options{Format: tmpl, Symbols: mustPreset(preset), Color: color, Shell: sh, TitleWidth: 40,
							StyleOf: styles(map[string]Style{"number": "1", "state.merged": "35", "checks.failing": "31", "checks.passing": "32", "review.approved": "32", "stale": "90",
								"merge_state.conflicts": "31", "sync.diverged": "33", "failing_check": "31", "queue.dequeued": "31", "queue_state.dequeued": "31"})}
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

// An open PR shows no state, and no state symbol unless the user set
// [symbols] open: both presets leave it empty, so the defaults read #42.
func TestOpenShowsOnlyTheUsersSymbol(t *testing.T) {
	for _, preset := range []string{"plain", "nerd"} {
		pr := PR{Number: 42, State: "open"}
		o := &Options{Symbols: mustPreset(preset), Format: "#{number}( {state})( {state_symbol})"}
		if got := Chip(&pr, false, o); got != "#42" {
			t.Errorf("%s: %q", preset, got)
		}
		o.Symbols.Open = "o"
		if got := Chip(&pr, false, o); got != "#42 o" {
			t.Errorf("%s with [symbols] open: %q", preset, got)
		}
		pr.Draft = true
		if got := Chip(&pr, false, o); got != "#42 draft "+o.Symbols.Draft {
			t.Errorf("%s draft: %q", preset, got)
		}
	}
}

var (
	zshZeroWidth  = regexp.MustCompile(`%\{[^%]*%\}`)
	bashZeroWidth = regexp.MustCompile("\x01[^\x02]*\x02")
)

// Colours use each shell's zero-width markers, so the prompt's width is
// right: outside them no escape byte remains (tmux has none at all).
func TestEscapesAreZeroWidth(t *testing.T) {
	for _, s := range states {
		for _, link := range []bool{false, true} {
			o := Options{Format: fullFormat, Symbols: mustPreset("nerd"), Color: true, Hyperlink: link, Host: "github.com",
				StyleOf: styles(map[string]Style{"chip": "1", "number": "32", "state.merged": "35"})}
			o.Shell = sanitize.Zsh
			if z := zshZeroWidth.ReplaceAllString(Chip(&s.pr, s.stale, &o), ""); strings.ContainsAny(z, "\x1b\x07") {
				t.Errorf("zsh %s: escape outside %%{ %%}: %q", s.name, z)
			}
			o.Shell = sanitize.Bash
			if b := bashZeroWidth.ReplaceAllString(Chip(&s.pr, s.stale, &o), ""); strings.ContainsAny(b, "\x1b\x07") {
				t.Errorf("bash %s: escape outside \\001 \\002: %q", s.name, b)
			}
			// tmux draws its status line itself: #[...] styles and no link,
			// so not one escape byte.
			o.Shell = sanitize.Tmux
			if x := Chip(&s.pr, s.stale, &o); strings.ContainsAny(x, "\x1b\x07") {
				t.Errorf("tmux %s: escape %q", s.name, x)
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
		want := "pull/1%24(id)%60id%60%21"
		if sh == sanitize.Zsh { // zsh expands % inside %{ %} too
			want = "pull/1%%24(id)%%60id%%60%%21"
		}
		if !strings.Contains(out, want) {
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
		"#{number}( {checks_counts})": "number,url,state,isDraft,title,statusCheckRollup",
		"#{number}( {failing_check})": "number,url,state,isDraft,title,statusCheckRollup",
		"#{number}( {merge_state})":   "number,url,state,isDraft,title,mergeStateStatus",
		"#{number}( {auto_merge})":    "number,url,state,isDraft,title,autoMergeRequest",
		"#{number}( {sync_symbol})":   "number,url,state,isDraft,title,headRefOid",
		"#{number}( {queue})":         "number,url,state,isDraft,title,headRefOid,id",
		"#{number}( {queue_state})":   "number,url,state,isDraft,title,headRefOid,id",
		mergeFormat:                   "number,url,state,isDraft,title,statusCheckRollup,mergeStateStatus,autoMergeRequest,headRefOid,id",
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

// Titles are cut to whole grapheme clusters and counted in the columns a
// terminal gives them: East Asian wide and fullwidth characters and emoji
// two, combining marks none, an emoji sequence (ZWJ family, flag, skin
// tone, VS16) one glyph of two.
func TestTruncateWidth(t *testing.T) {
	const family = "👨‍👩‍👧‍👦" // 👨‍👩‍👧‍👦
	cases := []struct {
		name, in string
		w        int
		want     string
	}{
		{"ASCII fits", "short", 10, "short"},
		{"ASCII exactly", "exactly ten", 11, "exactly ten"},
		{"ASCII cut", "a longer title here", 10, "a longer …"},
		{"ASCII, width 1", "abc", 1, "…"},
		{"no bound", "anything", 0, "anything"},
		{"CJK", "日本語のタイトルです", 7, "日本語…"},
		{"CJK, odd width left", "日本語のタイトルです", 6, "日本…"},
		{"fullwidth", "ＡＢＣＤ", 5, "ＡＢ…"},
		{"Hangul", "한국어 제목입니다", 8, "한국어 …"},
		{"CJK fits", "修正", 4, "修正"},
		{"combining acute", "éééé", 3, "éé…"},
		{"combining acute fits", "éééé", 4, "éééé"},
		{"Thai vowel signs take no column", "กิกิกิกิ", 4, "กิกิกิกิ"},
		{"Devanagari conjunct is one cluster", "क्षि क्षि", 2, "क्षि…"},
		{"ZWJ family is one glyph", family + " family", 6, family + " fa…"},
		{"ZWJ family fits", family + family, 4, family + family},
		{"flags are pairs", "🇯🇵🇫🇷🇩🇪", 4, "🇯🇵…"},
		{"flags fit", "🇯🇵🇫🇷", 4, "🇯🇵🇫🇷"},
		{"skin tone stays on its hand", "👍🏽 yes", 4, "👍🏽 …"},
		{"VS16 makes emoji presentation", "❤️❤️❤️", 4, "❤️…"},
		{"emoji outside the old ranges", "🚀🚀🚀", 4, "🚀…"},
		{"wide by default (watch)", "⌚⌚⌚", 4, "⌚…"},
		{"mixed", "Fix 日本 🚀 now", 9, "Fix 日本…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TruncateWidth(c.in, c.w)
			if got != c.want {
				t.Errorf("TruncateWidth(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
			}
			if c.w > 0 && displaywidth.String(got) > c.w {
				t.Errorf("%q is %d columns wide, bound %d", got, displaywidth.String(got), c.w)
			}
		})
	}
}

// For every bound, the cut keeps whole grapheme clusters (the part before
// the ellipsis ends on a boundary Unicode's segmentation gives) within the
// bound, and plain ASCII (the fast path) is cut exactly as the library
// would cut it.
func TestTruncateWidthNeverSplitsAGrapheme(t *testing.T) {
	for _, s := range []string{
		"Fix the prompt chip for detached HEAD",
		"👨‍👩‍👧‍👦👩🏽‍💻🏳️‍🌈🇯🇵🇫🇷 é क्षि 日本語 ❤️ ok",
		"각각각 각 ＡＢ 🚀⌚ ä́b",
	} {
		var bounds []int
		for g := graphemes.FromString(s); g.Next(); {
			bounds = append(bounds, g.End())
		}
		for w := 1; w <= displaywidth.String(s)+1; w++ {
			got := TruncateWidth(s, w)
			if n := displaywidth.String(got); n > w {
				t.Errorf("TruncateWidth(%q, %d) is %d columns", s, w, n)
			}
			kept, cut := strings.CutSuffix(got, "…")
			if !cut {
				if got != s {
					t.Errorf("TruncateWidth(%q, %d) = %q: changed without an ellipsis", s, w, got)
				}
				continue
			}
			if !strings.HasPrefix(s, kept) || kept != "" && !slices.Contains(bounds, len(kept)) {
				t.Errorf("TruncateWidth(%q, %d) = %q: cut inside a grapheme cluster", s, w, got)
			}
			if ascii := strings.Map(func(r rune) rune { return r%0x5f + 0x20 }, s); TruncateWidth(ascii, w) != displaywidth.TruncateString(ascii, w, "…") {
				t.Errorf("fast path: TruncateWidth(%q, %d) = %q, the library %q", ascii, w, TruncateWidth(ascii, w), displaywidth.TruncateString(ascii, w, "…"))
			}
		}
	}
}

// BenchmarkTruncateWidth is the title's cut on the render path: ASCII
// titles that fit or not (the fast path), and titles that need the
// tables.
func BenchmarkTruncateWidth(b *testing.B) {
	for _, c := range []struct{ name, title string }{
		{"ascii-fits", "Fix the prompt chip"},
		{"ascii-cut", "Fix the prompt chip for repositories with a detached HEAD and more"},
		{"cjk-cut", "プロンプトのチップを修正して、切り離された HEAD のリポジトリに対応する"},
		{"emoji-cut", "🚀 Ship it 👨‍👩‍👧‍👦 with flags 🇯🇵🇫🇷 and thumbs 👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽 up"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				TruncateWidth(c.title, 40)
			}
		})
	}
}

func styles(m map[string]Style) func(string) Style {
	return func(key string) Style { return m[key] }
}

func mustPreset(name string) Symbols {
	p, ok := Preset(name)
	if !ok {
		panic("unknown preset " + name)
	}
	return p
}

// TestEveryFieldHasAValue fails when a field is added to Fields but not to
// value.
func TestEveryFieldHasAValue(t *testing.T) {
	pr := PR{Number: 5, URL: "https://github.com/o/r/pull/5", State: "merged", Title: "t", Review: "approved", Checks: "passing",
		MergeState: "clean", AutoMerge: ptr(true), Counts: &CheckCounts{Passing: 1}, FailingCheck: "lint", HeadOid: oid,
		Sync: "same", Queue: &Queue{Position: 1, State: "queued"}, Rebasing: true, Others: []int{6}}
	o := Options{Symbols: mustPreset("nerd")}
	for _, f := range Fields {
		if v, _ := value(f, &pr, true, &o); v == "" {
			t.Errorf("field %q has no value", f)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for in, want := range map[string]string{"bold green": "1;32", "bright-red": "91", "dimmed italic underline": "2;3;4",
		"purple bright-white": "35;97", "BOLD Black": "1;30", "": ""} {
		if got, ok := ParseStyle(in); !ok || string(got) != want {
			t.Errorf("ParseStyle(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"bright-bold", "pink", "bold 31", "bright-"} {
		if got, ok := ParseStyle(in); ok {
			t.Errorf("ParseStyle(%q) = %q, ok; want an unknown word", in, got)
		}
	}
}
