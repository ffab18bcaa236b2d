// Package format turns a pull request into a chip: the template language,
// presets, styles, per-shell colour escapes, OSC 8 links and width-aware
// truncation. config validates templates with it; chip renders with it.
package format

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clipperhouse/displaywidth"

	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/internal/sanitize"
)

// A format template has literal text, fields in braces and conditional
// groups in parentheses: a group is shown only when a field inside it is
// not empty. A backslash takes the next character literally.
//
//	"#{number}( {state})( {stale})"          the default (plain preset)
//	"#{number}( {state_symbol})( {stale})"   the nerd preset's default
//	"#{number} {title}( {checks_symbol})"    with title and checks
//
// Fields: number, title, state (draft, merged, closed; empty when open),
// state_symbol, review, review_symbol, checks, checks_symbol,
// checks_counts, failing_check, merge_state, merge_state_symbol, auto_merge, sync, sync_symbol, queue, queue_state,
// url, stale, rebasing (a rebase of the branch is under way) and another
// (other open PRs from the same head: "+1"). rebasing and another are
// added at the end when a template does not place them, as the state of a
// merged or closed PR is: the chip never hides them.
const DefaultFormat = "#{number}( {state})( {stale})"

// Fields lists every field a template may use.
var Fields = []string{"number", "title", "state", "state_symbol", "review", "review_symbol", "checks", "checks_symbol",
	"checks_counts", "failing_check", "merge_state", "merge_state_symbol", "auto_merge", "sync", "sync_symbol",
	"queue", "queue_state", "url", "stale", "rebasing", "another"}

// Symbols is a preset's vocabulary, and its default template.
type Symbols struct {
	Format                                      string
	Open, Draft, Merged, Closed                 string
	Approved, ChangesRequested, ReviewRequired  string
	ChecksPassing, ChecksFailing, ChecksPending string
	// Merge states (mergeStateStatus).
	MergeClean, MergeBehind, MergeBlocked, MergeConflicts, MergeUnstable, MergeDraft, MergeHasHooks string
	AutoMerge                                                                                       string
	// Sync with the PR's head.
	SyncSame, SyncAhead, SyncBehind, SyncDiverged, SyncNotFetched string
	// Queue comes before a merge queue position, Dequeued before the
	// cause of a removal from the queue.
	Queue, Dequeued string
	Stale           string
	// Rebasing marks a PR shown during a rebase of its branch; Another
	// comes before the count of other open PRs from the same head.
	Rebasing, Another string
}

// symbols are the values state, review, checks, merge_state and sync
// show, each with its symbol. Others show nothing: unknown (GitHub still
// computing a merge state, a repository beyond what sync reads) has no
// room in a prompt; status says it.
var symbols = map[string]func(*Symbols) string{
	"state.open":               func(s *Symbols) string { return s.Open },
	"state.draft":              func(s *Symbols) string { return s.Draft },
	"state.merged":             func(s *Symbols) string { return s.Merged },
	"state.closed":             func(s *Symbols) string { return s.Closed },
	"review.approved":          func(s *Symbols) string { return s.Approved },
	"review.changes_requested": func(s *Symbols) string { return s.ChangesRequested },
	"review.review_required":   func(s *Symbols) string { return s.ReviewRequired },
	"checks.passing":           func(s *Symbols) string { return s.ChecksPassing },
	"checks.failing":           func(s *Symbols) string { return s.ChecksFailing },
	"checks.pending":           func(s *Symbols) string { return s.ChecksPending },
	"merge_state.clean":        func(s *Symbols) string { return s.MergeClean },
	"merge_state.behind":       func(s *Symbols) string { return s.MergeBehind },
	"merge_state.blocked":      func(s *Symbols) string { return s.MergeBlocked },
	"merge_state.conflicts":    func(s *Symbols) string { return s.MergeConflicts },
	"merge_state.unstable":     func(s *Symbols) string { return s.MergeUnstable },
	"merge_state.draft":        func(s *Symbols) string { return s.MergeDraft },
	"merge_state.has_hooks":    func(s *Symbols) string { return s.MergeHasHooks },
	"sync.same":                func(s *Symbols) string { return s.SyncSame },
	"sync.ahead":               func(s *Symbols) string { return s.SyncAhead },
	"sync.behind":              func(s *Symbols) string { return s.SyncBehind },
	"sync.diverged":            func(s *Symbols) string { return s.SyncDiverged },
	"sync.not_fetched":         func(s *Symbols) string { return s.SyncNotFetched },
}

// PresetNames are the presets Preset knows.
var PresetNames = []string{"plain", "nerd"}

// Preset returns a preset by name (one of PresetNames).
func Preset(name string) (Symbols, bool) {
	p, ok := presets[name]
	return p, ok
}

var presets = map[string]Symbols{
	"plain": {
		Format: DefaultFormat,
		Draft:  "draft", Merged: "merged", Closed: "closed",
		Approved: "approved", ChangesRequested: "changes", ReviewRequired: "review",
		ChecksPassing: "ok", ChecksFailing: "fail", ChecksPending: "...",
		MergeClean: "clean", MergeBehind: "behind", MergeBlocked: "blocked", MergeConflicts: "conflicts",
		MergeUnstable: "unstable", MergeDraft: "draft", MergeHasHooks: "hooks",
		AutoMerge: "auto",
		// git's own prompt (git-prompt.sh) marks upstream sync so.
		SyncSame: "=", SyncAhead: ">", SyncBehind: "<", SyncDiverged: "<>", SyncNotFetched: "<?",
		Queue: "queue:", Dequeued: "dequeued:",
		Stale:    "?",
		Rebasing: "rebasing", Another: "+",
	},
	"nerd": {
		Format: "#{number}( {state_symbol})( {stale})",
		Draft:  "\uf4dd", Merged: "\uf419", Closed: "\uf4dc",
		Approved: "\uf42e", ChangesRequested: "\uf467", ReviewRequired: "\uf41b",
		ChecksPassing: "\uf00c", ChecksFailing: "\uf00d", ChecksPending: "\uf444",
		// check_circle, sync (GitHub's "update branch"), circle_slash,
		// git_compare, alert, draft, check_circle.
		MergeClean: "\uf49e", MergeBehind: "\uf46a", MergeBlocked: "\uf468", MergeConflicts: "\uf47f",
		MergeUnstable: "\uf421", MergeDraft: "\uf4dd", MergeHasHooks: "\uf49e",
		AutoMerge: "\uf49b", // zap
		// check, arrow_up, arrow_down, arrow_switch, question.
		SyncSame: "\uf42e", SyncAhead: "\uf431", SyncBehind: "\uf433", SyncDiverged: "\uf443", SyncNotFetched: "\uf420",
		Queue: "\uf4db", // git_merge_queue
		// git_merge_queue and the failing checks' times: out of the queue.
		Dequeued: "\uf4db\uf00d",
		Stale:    "\uf254",
		// history; a plus before the count.
		Rebasing: "\uf464", Another: "+",
	},
}

// Style is an ANSI SGR parameter list per field ("1;32"), built from names
// such as "bold green" by ParseStyle.
type Style string

// attributes and colours in SGR order: bold is 1, black 30 (bright 90).
var (
	attributes = []string{"bold", "dimmed", "italic", "underline"}
	colours    = []string{"black", "red", "green", "yellow", "blue", "purple", "cyan", "white"}
)

func styleWord(w string) (string, bool) {
	if i := slices.Index(attributes, w); i >= 0 {
		return strconv.Itoa(1 + i), true
	}
	c, bright := strings.CutPrefix(w, "bright-")
	if i := slices.Index(colours, c); i >= 0 && bright {
		return strconv.Itoa(90 + i), true
	} else if i >= 0 {
		return strconv.Itoa(30 + i), true
	}
	return "", false
}

// ParseStyle turns "bold green" into an SGR list; ok is false for unknown words.
func ParseStyle(s string) (Style, bool) {
	var codes []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		c, ok := styleWord(w)
		if !ok {
			return "", false
		}
		codes = append(codes, c)
	}
	return Style(strings.Join(codes, ";")), true
}

// Options say how a PR becomes a chip.
type Options struct {
	Format  string
	Symbols Symbols
	// StyleOf is the style of a field ("number"), a field and value
	// ("state.merged") or the whole chip ("chip"), asked only when a field
	// shows; nil: no styles.
	StyleOf func(key string) Style
	Color   bool
	// Hyperlink wraps the chip in an OSC 8 link to the PR when its URL is
	// http(s) on Host.
	Hyperlink bool
	Host      string
	// TitleWidth bounds the title's display width (wide characters count 2).
	TitleWidth int
	Shell      sanitize.Shell
}

// GhFields is the --json field list for a template: what the chip and
// `status` always need (SPEC 3), plus each field only when the template
// shows something made from it (statusCheckRollup is an expensive query).
// The installed gh may not know every one: the caller drops those
// (chip.ghFieldsFor).
func GhFields(format string) string {
	f := "number,url,state,isDraft,title"
	for _, g := range ghFieldUses {
		if slices.ContainsFunc(g.uses, func(use string) bool { return usesField(format, use) }) {
			f += "," + g.gh
		}
	}
	return f
}

// ghFieldUses says which template fields each gh field is asked for.
// queue needs the PR's node id for its own query (gh pr view has no
// field for the merge queue), and the head, which a removal from the
// queue is shown only while it is.
var ghFieldUses = []struct {
	gh   string
	uses []string
}{
	{"reviewDecision", []string{"review", "review_symbol"}},
	{"statusCheckRollup", []string{"checks", "checks_symbol", "checks_counts", "failing_check"}},
	{"mergeStateStatus", []string{"merge_state", "merge_state_symbol"}},
	{"autoMergeRequest", []string{"auto_merge"}},
	{"headRefOid", []string{"sync", "sync_symbol", "queue", "queue_state"}},
	{"id", []string{"queue", "queue_state"}},
}

// ShowsSync reports whether a template shows sync: the head is asked for
// the merge queue too, which needs no sync computed nor the branch read.
func ShowsSync(format string) bool {
	return usesField(format, "sync") || usesField(format, "sync_symbol")
}

// Template bounds: a chip is a few words, and rendering a template costs
// its length times its nesting, on every prompt.
const (
	MaxFormatLen   = 1024
	MaxFormatDepth = 8
)

// Validate reports the first problem in a template.
func Validate(format string) error {
	if len(format) > MaxFormatLen {
		return fmt.Errorf("longer than %d bytes", MaxFormatLen)
	}
	depth := 0
	for i := 0; i < len(format); i++ {
		switch format[i] {
		case '\\':
			i++
		case '(':
			if depth++; depth > MaxFormatDepth {
				return fmt.Errorf("groups nested deeper than %d at byte %d", MaxFormatDepth, i)
			}
		case ')':
			if depth == 0 {
				return fmt.Errorf("unbalanced ')' at byte %d", i)
			}
			depth--
		case '{':
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				return fmt.Errorf("unclosed '{' at byte %d", i)
			}
			name := format[i+1 : i+end]
			if !slices.Contains(Fields, name) {
				return fmt.Errorf("unknown field {%s}; fields: %s", name, strings.Join(Fields, ", "))
			}
			i += end
		}
	}
	if depth != 0 {
		return fmt.Errorf("unclosed '('")
	}
	return nil
}

// usesField reports whether a template names field (escaped braces do
// not count).
func usesField(format, field string) bool {
	for i := 0; i < len(format); i++ {
		switch format[i] {
		case '\\':
			i++
		case '{':
			if end := strings.IndexByte(format[i:], '}'); end > 0 {
				if format[i+1:i+end] == field {
					return true
				}
				i += end
			}
		}
	}
	return false
}

// MaxCheckName bounds the columns of failing_check.
const MaxCheckName = 32

// value is a template field's plain (sanitized) value, and the word that
// picks its style by value ("state.merged", "queue.dequeued"); "" for an
// unknown field. Only the fields a template shows are computed.
func value(field string, pr *pull.PR, stale bool, o *Options) (string, string) {
	s := &o.Symbols
	switch q := pr.Queue; field {
	case "number":
		return strconv.Itoa(pr.Number), ""
	case "title":
		return TruncateWidth(sanitize.Text(pr.Title, pull.MaxTitle), o.TitleWidth), ""
	case "url":
		return pr.URL, ""
	case "checks_counts":
		if pr.Counts != nil {
			return counts(pr.Counts, s), ""
		}
	case "failing_check":
		return TruncateWidth(sanitize.Text(pr.FailingCheck, 256), MaxCheckName), ""
	case "auto_merge":
		if pr.AutoMerge != nil && *pr.AutoMerge {
			return s.AutoMerge, ""
		}
	case "queue", "queue_state":
		switch {
		case q != nil && q.Position > 0 && field == "queue":
			return s.Queue + strconv.Itoa(q.Position), ""
		case q != nil && q.Position > 0:
			return strings.ReplaceAll(sanitize.Text(q.State, 32), "_", " "), ""
		// Only prchip's own words: GitHub's reason text never reaches a shell.
		case q.Removed() && field == "queue":
			return s.Dequeued + pull.KnownCause(q.RemovalCause), "dequeued"
		case q.Removed():
			return "dequeued: " + pull.CauseWords(q.RemovalCause), "dequeued"
		}
	case "stale":
		if stale {
			return s.Stale, ""
		}
	case "rebasing":
		if pr.Rebasing {
			return s.Rebasing, ""
		}
	case "another":
		if len(pr.Others) > 0 {
			return s.Another + strconv.Itoa(len(pr.Others)), ""
		}
	default:
		return word(field, pr, o)
	}
	return "", ""
}

// word is a state, review, checks, merge_state or sync field: the value in
// words or its symbol, and the value, which picks the style. An open PR
// shows no state: open is the usual case, and a prompt has little room;
// its state_symbol is the user's [symbols] open (empty in both presets).
func word(field string, pr *pull.PR, o *Options) (string, string) {
	base, symbol := strings.CutSuffix(field, "_symbol")
	var v string
	switch base {
	case "state":
		if v = pr.State; pr.Draft && v == "open" {
			v = "draft"
		}
		if v == "open" && (!symbol || o.Symbols.Open == "") {
			return "", ""
		}
	case "review":
		v = pr.Review
	case "checks":
		v = pr.Checks
	case "merge_state":
		v = pr.MergeState
	case "sync":
		v = pr.Sync
	default:
		return "", ""
	}
	sym, known := symbols[base+"."+v]
	switch {
	case symbol && known:
		return sym(&o.Symbols), v
	case symbol:
		return "", ""
	case base == "state": // gh's word, even one prchip has no symbol for
		return v, v
	case known:
		return strings.ReplaceAll(v, "_", " "), v
	}
	return "", ""
}

// counts is checks_counts: each non-zero count after its checks symbol
// ("ok3 fail1").
func counts(c *pull.CheckCounts, s *Symbols) string {
	var parts []string
	for _, n := range []struct {
		sym string
		n   int
	}{{s.ChecksPassing, c.Passing}, {s.ChecksFailing, c.Failing}, {s.ChecksPending, c.Pending}} {
		if n.n > 0 {
			parts = append(parts, n.sym+strconv.Itoa(n.n))
		}
	}
	return strings.Join(parts, " ")
}

func (o *Options) style(key string) Style {
	if o.StyleOf == nil {
		return ""
	}
	return o.StyleOf(key)
}

// styleFor picks a field's style: its own, or for state, review, checks,
// merge_state, sync and queue the style named after the value ("merged",
// "failing", "conflicts", "dequeued"...).
func (o *Options) styleFor(field, value string) Style {
	base := strings.TrimSuffix(field, "_symbol")
	if s := o.style(base + "." + value); s != "" {
		return s
	}
	return o.style(base)
}

// Chip renders pr with o, escaped and coloured for o.Shell. Options go by
// pointer: the struct is large, and the render path keeps its stack small
// enough never to grow (a growth copies the whole stack).
func Chip(pr *pull.PR, stale bool, o *Options) string {
	tmpl := o.Format
	if tmpl == "" {
		tmpl = DefaultFormat
	}
	render := func(field string) string {
		val, kind := value(field, pr, stale, o)
		if val == "" {
			return ""
		}
		out := sanitize.ForShell(sanitize.Text(val, 1024), o.Shell)
		if o.Color {
			// state/review/checks/merge_state/sync are styled by value too.
			out = paint(out, o.styleFor(field, kind), o.Shell)
		}
		return out
	}
	out, _ := expand(tmpl, render, o.Shell)
	out = strings.TrimSpace(out)
	// A merged or closed PR never looks open, whatever the template says.
	if !usesField(tmpl, "state") && !usesField(tmpl, "state_symbol") && (pr.State == "merged" || pr.State == "closed") {
		out += " " + cmp.Or(render("state_symbol"), render("state"))
	}
	// Marks the template does not place come last: a rebase under way,
	// another open PR from the same head.
	for _, mark := range []string{"rebasing", "another"} {
		if !usesField(tmpl, mark) {
			if m := render(mark); m != "" {
				out += " " + m
			}
		}
	}
	if o.Color {
		out = paint(out, o.style("chip"), o.Shell)
	}
	if o.Hyperlink && LinkAllowed(pr.URL, o.Host) {
		out = link(out, sanitize.Text(pr.URL, 512), o.Shell)
	}
	return out
}

// expand renders a template; the bool is whether any field was non-empty.
func expand(t string, field func(string) string, shell sanitize.Shell) (string, bool) {
	var b strings.Builder
	any := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch c {
		case '\\':
			if i+1 < len(t) {
				i++
				b.WriteString(sanitize.ForShell(string(t[i]), shell))
			}
		case '{':
			end := strings.IndexByte(t[i:], '}')
			if end < 0 {
				b.WriteString(sanitize.ForShell(t[i:], shell))
				i = len(t)
				continue
			}
			if s := field(t[i+1 : i+end]); s != "" {
				b.WriteString(s)
				any = true
			}
			i += end
		case '(':
			// Find the matching ')'.
			depth, j := 0, i
			for ; j < len(t); j++ {
				if t[j] == '\\' {
					j++
					continue
				}
				if t[j] == '(' {
					depth++
				} else if t[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			inner, ok := expand(t[i+1:min(j, len(t))], field, shell)
			if ok {
				b.WriteString(inner)
				any = true
			}
			i = j
		default:
			// Literal text: sanitized and escaped like any other text.
			start := i
			for i+1 < len(t) && !strings.ContainsRune(`\{()`, rune(t[i+1])) {
				i++
			}
			b.WriteString(sanitize.ForShell(sanitize.Text(t[start:i+1], 0), shell))
		}
	}
	return b.String(), any
}

// paint wraps s in an SGR colour (a style in tmux, which draws its status
// line itself); a plain chip has none.
func paint(s string, st Style, shell sanitize.Shell) string {
	switch {
	case st == "" || s == "":
		return s
	case shell == sanitize.Tmux:
		return "#[" + tmuxStyle(st) + "]" + s + "#[default]"
	case shell == sanitize.Zsh, shell == sanitize.Bash, shell == sanitize.Fish, shell == sanitize.Statusline:
		return zeroWidth(s, "\x1b["+string(st)+"m", "\x1b[0m", shell)
	}
	return s
}

// zeroWidth puts escapes on and off around s in the shell's own prompt
// markers, so the shell knows they take no width. fish measures escape
// sequences itself, as set_color's output; a status line shows them to the
// terminal as they come.
func zeroWidth(s, on, off string, shell sanitize.Shell) string {
	switch shell {
	case sanitize.Zsh:
		return "%{" + strings.ReplaceAll(on, "%", "%%") + "%}" + s + "%{" + off + "%}"
	case sanitize.Bash:
		// What \[ and \] in PS1 become: readline's invisible-text markers,
		// which it also honours inside an expanded variable.
		return "\x01" + on + "\x02" + s + "\x01" + off + "\x02"
	}
	return on + s + off
}

// tmuxStyle is st in tmux's style words ("1;35" is "bold,fg=magenta").
func tmuxStyle(st Style) string {
	var words []string
	for code := range strings.SplitSeq(string(st), ";") {
		switch n, _ := strconv.Atoi(code); {
		case n >= 1 && n <= 4:
			words = append(words, [...]string{"bold", "dim", "italics", "underscore"}[n-1])
		case n >= 30 && n <= 37:
			words = append(words, "fg="+tmuxColours[n-30])
		case n >= 90 && n <= 97:
			words = append(words, "fg=bright"+tmuxColours[n-90])
		}
	}
	return strings.Join(words, ",")
}

var tmuxColours = [8]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// link wraps s in an OSC 8 hyperlink, zero-width for the shell; tmux's
// status line cannot show one (the escape would be text).
func link(s, url string, shell sanitize.Shell) string {
	if shell == sanitize.Tmux {
		return s
	}
	return zeroWidth(s, "\x1b]8;;"+urlQuoter.Replace(url)+"\x1b\\", "\x1b]8;;\x1b\\", shell)
}

// urlQuoter percent-encodes what a shell would expand if a user pasted the
// chip into a prompt string (LinkAllowed refuses quotes, spaces and
// backslashes); the URL means the same to the terminal.
var urlQuoter = strings.NewReplacer("$", "%24", "`", "%60", "!", "%21")

// LinkAllowed: only http(s) URLs on the repository's GitHub host (or a
// subdomain of it) become links.
func LinkAllowed(url, host string) bool {
	rest, ok := strings.CutPrefix(url, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(url, "http://")
	}
	if !ok || host == "" {
		return false
	}
	h := rest
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if strings.ContainsAny(h, "@:") || strings.ContainsAny(url, " \"'<>\\\x1b\x07") {
		return false
	}
	h = strings.ToLower(h)
	host = strings.ToLower(host)
	return h == host || strings.HasSuffix(h, "."+host)
}

// TruncateWidth cuts s to at most w display columns, ending with "…" when
// cut; w <= 0: no cut. Columns and grapheme clusters are Unicode's, as
// displaywidth counts them: East Asian wide and fullwidth characters and
// emoji take two, combining marks none, and a cluster (👨‍👩‍👧, 🇯🇵, 👍🏽, e◌́)
// is kept or dropped whole.
func TruncateWidth(s string, w int) string {
	if w <= 0 {
		return s
	}
	if printableASCII(s) { // one column a byte: the common title needs no tables
		if len(s) <= w {
			return s
		}
		return s[:w-1] + "…"
	}
	return displaywidth.TruncateString(s, w, "…")
}

// printableASCII reports whether s is all printable ASCII. A byte before a
// non-ASCII one may start a cluster with it (e and U+0301), so the fast
// path is for text that has none.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
