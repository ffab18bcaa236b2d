// Package config reads $XDG_CONFIG_HOME/prchip/config.toml. A broken file
// never stops prchip: each bad key, and each line that is not TOML, falls
// back to its default alone and becomes a Problem naming file, line and
// key, with the fix when it is clear (mistakes.go), which `status` and
// `config` show and the render path ignores.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/prchip/prchip/chip/format"
	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/internal/sanitize"
)

// Modes (SPEC 4).
const (
	ModeAuto   = "auto"
	ModeAlways = "always"
	ModeOff    = "off"
)

// Config is the effective configuration.
type Config struct {
	Path            string
	Mode            string
	Timeout         time.Duration
	RefreshInterval time.Duration
	// SettledRefreshInterval is how long a merged or closed PR, or no PR,
	// stays fresh: they rarely change (git or gh still invalidate at once).
	SettledRefreshInterval time.Duration
	InvalidateOn           []string
	// WorkerIdle is how long a shell's worker waits for a prompt before it
	// ends (the next prompt starts a new one).
	WorkerIdle time.Duration
	// OnRetryable is "clear" (a transient failure empties the chip) or
	// "keep" (the last PR stays, marked stale).
	OnRetryable string
	// Look: template ("" for the preset's), preset, symbol overrides,
	// styles, links, width.
	Format     string
	Preset     string
	Symbols    map[string]string
	Styles     map[string]string
	Color      bool
	Hyperlinks bool
	TitleWidth int
	// Shells holds [shell.NAME] overrides of format, color, hyperlinks.
	Shells map[string]ShellOverride
	// Chips are user-defined shell chips, shown after the PR chip by name.
	Chips []ShellChip
	// Problems found while reading; empty for a good or missing file.
	Problems []Problem
	// Source is the "file:line" of each key the file sets, for `prchip config`.
	Source map[string]string
}

// ShellOverride is a [shell.NAME] table; nil fields keep the top level.
type ShellOverride struct {
	Format            *string
	Color, Hyperlinks *bool
}

// ShellChip is a [chips.NAME] table.
type ShellChip struct {
	Name                     string
	Command                  string
	Timeout, RefreshInterval time.Duration
	SuppressOnFailure        bool
}

// Problem is one error in the config file.
type Problem struct {
	File string
	Line int // 0 when the error is not tied to a line
	Key  string
	Msg  string
}

// String is the problem as status, config and warnings print it. A message
// may quote the file's own text (an unknown field's name, a value), which
// is untrusted like any other: it is sanitised and redacted here, once.
func (p Problem) String() string {
	s := p.File
	if p.Line > 0 {
		s = where(p.File, p.Line)
	}
	if p.Key != "" {
		s += fmt.Sprintf(": key %q", p.Key)
	}
	return sanitize.Text(sanitize.Redact(s+": "+p.Msg), 2048)
}

// defaultInvalidateOn is shared by every default configuration (capped, so
// an append copies it): the render path then allocates nothing for it.
var defaultInvalidateOn = [...]string{"git", "gh", "gt"}

// Defaults is the configuration when no file exists.
func Defaults(path string) *Config {
	return &Config{
		Path:                   path,
		Mode:                   ModeAuto,
		Timeout:                5 * time.Second,
		RefreshInterval:        30 * time.Second,
		SettledRefreshInterval: 5 * time.Minute,
		InvalidateOn:           defaultInvalidateOn[:len(defaultInvalidateOn):len(defaultInvalidateOn)],
		WorkerIdle:             10 * time.Minute,
		OnRetryable:            "clear",
		Preset:                 "plain",
		Color:                  true,
		TitleWidth:             40,
		// Symbols, Styles, Shells and Source stay nil (readable) until a
		// file sets something: the render path allocates nothing for them.
	}
}

// SymbolKeys are the keys of [symbols].
var SymbolKeys = []string{"open", "draft", "merged", "closed", "approved", "changes_requested", "review_required",
	"checks_passing", "checks_failing", "checks_pending", "stale"}

// StyleKeys are the keys of [styles]: a field, or a field and a value.
var StyleKeys = []string{"chip", "number", "title", "url", "stale",
	"state", "state_open", "state_draft", "state_merged", "state_closed",
	"review", "review_approved", "review_changes_requested", "review_review_required",
	"checks", "checks_passing", "checks_failing", "checks_pending",
	"merge_state", "merge_state_clean", "merge_state_behind", "merge_state_blocked", "merge_state_conflicts",
	"merge_state_unstable", "merge_state_draft", "merge_state_has_hooks", "auto_merge", "checks_counts", "failing_check",
	"sync", "sync_same", "sync_ahead", "sync_behind", "sync_diverged", "sync_not_fetched", "queue", "queue_dequeued",
	"queue_state", "queue_state_dequeued"}

// DefaultStyles colour what deserves attention; everything else keeps the
// prompt's own colour. (Pairs, not a map: a package-level map is built at
// every start.)
var DefaultStyles = [][2]string{
	{"state_merged", "purple"}, {"state_closed", "red"}, {"state_draft", "bright-black"},
	{"checks_passing", "green"}, {"checks_failing", "red"}, {"checks_pending", "yellow"},
	{"review_approved", "green"}, {"review_changes_requested", "red"}, {"stale", "bright-black"},
	{"merge_state_conflicts", "red"}, {"merge_state_clean", "green"}, {"failing_check", "red"},
	// Out of the merge queue: as loud as a failing check.
	{"queue_dequeued", "red"}, {"queue_state_dequeued", "red"},
}

// styleOf is the style of a [styles] key: the user's, else the default.
func (c *Config) styleOf(k string) (string, bool) {
	if v, ok := c.Styles[k]; ok {
		return v, true
	}
	for _, kv := range DefaultStyles {
		if kv[0] == k {
			return kv[1], true
		}
	}
	return "", false
}

// style resolves a format style key ("state.merged"), only when a field shows.
func (c *Config) style(key string) format.Style {
	v, _ := c.styleOf(strings.Replace(key, ".", "_", 1))
	st, _ := format.ParseStyle(v)
	return st
}

func preset(name string) format.Symbols {
	p, _ := format.Preset(name)
	return p
}

// ChipOptions is the look of the PR chip for shell, with [shell.NAME]
// overrides, NO_COLOR and the preset applied. host is the repository's
// GitHub host, the only one links may point to.
func (c *Config) ChipOptions(shell, host string, noColor bool) format.Options {
	o := format.Options{Symbols: preset(c.Preset), Host: host, TitleWidth: c.TitleWidth, StyleOf: c.style}
	o.Format = cmp.Or(c.Format, o.Symbols.Format)
	// starship (and any plain consumer) styles output itself, and its right
	// prompt miscounts escape sequences: no colour, links only on request.
	plain := shell == "plain"
	link := c.Hyperlinks && !plain
	ov := c.Shells[shell] // what it sets wins; nil fields when there is none
	o.Format = *cmp.Or(ov.Format, &o.Format)
	o.Color = *cmp.Or(ov.Color, &c.Color) && !noColor && !plain
	o.Hyperlink = *cmp.Or(ov.Hyperlinks, &link)
	if len(c.Symbols) > 0 {
		s := &o.Symbols // in the order of SymbolKeys
		for i, p := range []*string{&s.Open, &s.Draft, &s.Merged, &s.Closed, &s.Approved, &s.ChangesRequested,
			&s.ReviewRequired, &s.ChecksPassing, &s.ChecksFailing, &s.ChecksPending, &s.Stale} {
			if v, ok := c.Symbols[SymbolKeys[i]]; ok {
				*p = v
			}
		}
	}
	return o
}

// MaxSize bounds the config file read.
const MaxSize = 1 << 20

func validChipName(n string) bool {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
	return n != "" && len(n) <= 32 && n != "pr" && strings.Trim(n, chars) == ""
}

// Load reads the file at path through files; a missing file gives the defaults.
func Load(path string, files rawfile.Reader) *Config {
	c := Defaults(path)
	data, _, err := files.Read(path, MaxSize, syscall.O_NONBLOCK, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, rawfile.ErrTooLarge):
		c.problem(0, "", fmt.Sprintf("larger than %d bytes; using defaults", MaxSize))
	case err != nil && strings.Contains(err.Error(), "not a regular file"):
		c.problem(0, "", "not a regular file; using defaults")
	case err != nil:
		c.problem(0, "", "unreadable: "+err.Error()+"; using defaults")
	default:
		c.parse(string(data))
	}
	// In the file's order: keys are read in name order.
	slices.SortStableFunc(c.Problems, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	return c
}

func (c *Config) problem(line int, key, msg string) {
	c.Problems = append(c.Problems, Problem{File: c.Path, Line: line, Key: key, Msg: msg})
}

func (c *Config) parse(data string) {
	c.Symbols, c.Styles = map[string]string{}, map[string]string{}
	c.Shells, c.Source = map[string]ShellOverride{}, map[string]string{}
	doc, broken := parseTOML(data)
	for _, e := range broken {
		c.syntaxProblem(e)
	}
	if doc == nil {
		return
	}
	for _, k := range sortedKeys(doc.root) {
		if slices.Contains(doc.skipped, k) {
			continue // the keys under a broken header, reported with it
		}
		v := doc.root[k]
		switch k {
		case "symbols":
			c.parseLook(doc, k, c.table(doc, v, k, "must be a table"), SymbolKeys, c.Symbols, symbol)
		case "styles":
			c.parseLook(doc, k, c.table(doc, v, k, "must be a table"), StyleKeys, c.Styles, style)
		case "shell":
			c.parseShells(doc, c.table(doc, v, k, "must be a table of [shell.zsh], [shell.bash], [shell.fish], [shell.plain]"))
		case "chips":
			// After the top-level keys: chips inherit timeout and interval.
		default:
			if t := find(topFields, c, k); t != nil {
				c.take(doc, v, k, t)
			} else {
				c.problem(doc.lineOf(k), k, unknownTopLevel(doc, k))
			}
		}
	}
	if v, ok := doc.root["chips"]; ok {
		c.parseChips(doc, c.table(doc, v, "chips", "must be a table of [chips.NAME] tables"))
	}
}

// field is a key and the typed value it decodes into in a T, made only for
// a key the file has (a parse runs at every render).
type field[T any] struct {
	key string
	val func(T) value
}

// topFields are the top-level keys, in `prchip config`'s order.
var topFields = []field[*Config]{
	{"mode", func(c *Config) value { return &oneOf{&c.Mode, modes} }},
	{"timeout", func(c *Config) value { return &span{&c.Timeout, 100 * time.Millisecond, time.Minute} }},
	{"refresh_interval", func(c *Config) value { return &span{&c.RefreshInterval, time.Second, 24 * time.Hour} }},
	{"settled_refresh_interval", func(c *Config) value { return &span{&c.SettledRefreshInterval, time.Second, 24 * time.Hour} }},
	{"invalidate_on", func(c *Config) value { return (*words)(&c.InvalidateOn) }},
	{"worker_idle", func(c *Config) value { return &span{&c.WorkerIdle, time.Second, 7 * 24 * time.Hour} }},
	{"on_retryable", func(c *Config) value { return &oneOf{&c.OnRetryable, onRetryable} }},
	{"format", func(c *Config) value { return template(&c.Format) }},
	{"preset", func(c *Config) value { return &oneOf{&c.Preset, format.PresetNames} }},
	{"color", func(c *Config) value { return (*flag)(&c.Color) }},
	{"hyperlinks", func(c *Config) value { return (*flag)(&c.Hyperlinks) }},
	{"title_width", func(c *Config) value { return (*width)(&c.TitleWidth) }},
}

var modes, onRetryable = []string{ModeAuto, ModeAlways, ModeOff}, []string{"clear", "keep"}

// shellFields are a [shell.NAME] table's keys; one not set stays nil (the top level's).
var shellFields = []field[*ShellOverride]{
	{"format", func(o *ShellOverride) value { return set[string]{&o.Format, template} }},
	{"color", func(o *ShellOverride) value { return set[bool]{&o.Color, asFlag} }},
	{"hyperlinks", func(o *ShellOverride) value { return set[bool]{&o.Hyperlinks, asFlag} }},
}

// chipFields are a [chips.NAME] table's keys.
var chipFields = []field[*ShellChip]{
	{"command", func(ch *ShellChip) value { return &str{&ch.Command, "must be a non-empty string", checkCommand} }},
	{"timeout", func(ch *ShellChip) value { return &span{&ch.Timeout, 100 * time.Millisecond, time.Minute} }},
	{"refresh_interval", func(ch *ShellChip) value { return &span{&ch.RefreshInterval, time.Second, 24 * time.Hour} }},
	{"suppress_on_failure", func(ch *ShellChip) value { return (*flag)(&ch.SuppressOnFailure) }},
}

// find is the value key k decodes into in to, nil for none.
func find[T any](fields []field[T], to T, k string) value {
	for _, f := range fields {
		if f.key == k {
			return f.val(to)
		}
	}
	return nil
}

// keysOf are the keys of fields, for a suggestion.
func keysOf[T any](fields []field[T]) []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	return keys
}

// take hands v, the value of key, to t, which changes only when v is good:
// a bad one is a problem, a good one's line its source. It reports which.
func (c *Config) take(doc *document, v any, key string, t value) bool {
	line := doc.lineOf(key)
	if err := t.UnmarshalTOML(v); err != nil {
		c.problem(line, key, err.Error())
		return false
	}
	c.Source[key] = where(c.Path, line)
	return true
}

// table is v, the value of key, as a table; when it is none, msg is the
// problem and the table nil.
func (c *Config) table(doc *document, v any, key, msg string) map[string]any {
	tbl, ok := v.(map[string]any)
	if !ok {
		c.problem(doc.lineOf(key), key, msg)
	}
	return tbl
}

// parseLook reads [symbols] or [styles], whose keys are keys, into m.
func (c *Config) parseLook(doc *document, table string, tbl map[string]any, keys []string, m map[string]string, val func(*string) value) {
	for _, k := range sortedKeys(tbl) {
		full, s := table+"."+k, ""
		if !slices.Contains(keys, k) {
			c.problem(doc.lineOf(full), full, unknownIn(k, keys))
		} else if c.take(doc, tbl[k], full, val(&s)) {
			m[k] = s
		}
	}
}

// parseShells reads [shell.NAME] overrides.
func (c *Config) parseShells(doc *document, tbl map[string]any) {
	for _, name := range sortedKeys(tbl) {
		section := "shell." + name
		t, ok := tbl[name].(map[string]any)
		if !ok || !slices.Contains(shellNames, name) {
			msg := "shells are " + strings.Join(shellNames[:len(shellNames)-1], ", ") + " and " + shellNames[len(shellNames)-1] + ", each a table"
			if near, ok := nearest(name, shellNames); ok {
				msg += fmt.Sprintf("; did you mean [shell.%s]?", near)
			}
			c.problem(doc.lineOf(section), section, msg)
			continue
		}
		var ov ShellOverride
		takeFields(c, doc, section, t, shellFields, &ov)
		c.Shells[name] = ov
	}
}

// takeFields decodes tbl, the table at path, into to's fields, by name.
func takeFields[T any](c *Config, doc *document, path string, tbl map[string]any, fields []field[T], to T) {
	for _, k := range sortedKeys(tbl) {
		full := path + "." + k
		if t := find(fields, to, k); t != nil {
			c.take(doc, tbl[k], full, t)
		} else {
			c.problem(doc.lineOf(full), full, unknownIn(k, keysOf(fields)))
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// parseChips reads the [chips.NAME] tables, in name order.
func (c *Config) parseChips(doc *document, tbl map[string]any) {
	for _, name := range sortedKeys(tbl) {
		section := "chips." + name
		line := doc.lineOf(section)
		t := c.table(doc, tbl[name], section, "must be a table with a command")
		if t == nil {
			continue
		}
		if !validChipName(name) {
			c.problem(line, section, "chip names are 1 to 32 letters, digits, '-' or '_', and not \"pr\"")
			continue
		}
		ch := ShellChip{Name: name, Timeout: c.Timeout, RefreshInterval: c.RefreshInterval}
		takeFields(c, doc, section, t, chipFields, &ch)
		if ch.Command != "" {
			c.Chips = append(c.Chips, ch)
		} else if key := section + ".command"; !slices.ContainsFunc(c.Problems, func(p Problem) bool { return p.Key == key }) {
			// Not when a bad command, or a line the decoder refused, is reported already.
			c.problem(line, key, "missing; the chip is ignored")
		}
	}
}

// value is what a key decodes into, in place: it takes the value BurntSushi
// decoded or says what to write instead; asTOML writes it back for `prchip
// config` ("" when unset). take hands values over key by key, so a bad one
// costs only its key: decoding into a struct stops at the first bad value,
// and MetaData.PrimitiveDecode per key made every render's parse a third
// slower (52 against 39 µs).
type value interface {
	toml.Unmarshaler
	asTOML() string
}

type (
	// oneOf is one of a few words, kept in to.
	oneOf struct {
		to *string
		of []string
	}
	// span is a duration from lo to hi, kept in to.
	span struct {
		to     *time.Duration
		lo, hi time.Duration
	}
	flag  bool
	width int // title_width
	words []string
	// str is a string, kept in to as check takes it; want is what a value of
	// another kind is told.
	str struct {
		to    *string
		want  string
		check func(string) (string, error)
	}
	// set points to at a value of its own once the file sets one.
	set[T any] struct {
		to **T
		as func(*T) value
	}
)

func template(to *string) value {
	return &str{to, "must be a string such as \"" + format.DefaultFormat + "\"", func(s string) (string, error) { return s, format.Validate(s) }}
}

func symbol(to *string) value {
	return &str{to, "must be a string", func(s string) (string, error) { return sanitize.Text(s, 64), nil }}
}

func style(to *string) value {
	return &str{to, "must be a string", func(s string) (string, error) {
		if _, ok := format.ParseStyle(s); !ok {
			return "", fmt.Errorf("unknown style %q (use words such as \"bold green\")", s)
		}
		return s, nil
	}}
}

func checkCommand(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("must be a non-empty string")
	}
	return s, nil
}

func asFlag(b *bool) value { return (*flag)(b) }

func (o *oneOf) UnmarshalTOML(v any) error {
	if s, _ := v.(string); slices.Contains(o.of, s) {
		*o.to = s
		return nil
	}
	n := len(o.of) - 1 // words that need no escape
	return fmt.Errorf(`must be "%s" or %q, not %s`, strings.Join(o.of[:n], `", "`), o.of[n], show(v))
}

func (f *flag) UnmarshalTOML(v any) error {
	b, ok := v.(bool)
	if !ok {
		return fmt.Errorf("must be true or false, not %s", show(v))
	}
	*f = flag(b)
	return nil
}

func (w *width) UnmarshalTOML(v any) error {
	n, ok := v.(int64)
	if !ok || n < 0 || n > 200 {
		return errors.New("must be a whole number from 0 (no limit) to 200")
	}
	*w = width(n)
	return nil
}

func (w *words) UnmarshalTOML(v any) error {
	list, ok := v.([]any)
	out := make(words, 0, len(list))
	for _, e := range list {
		s, isStr := e.(string)
		ok = ok && isStr && s != "" && !strings.ContainsAny(s, " \t\n")
		out = append(out, s)
	}
	if !ok {
		return errors.New("must be a list of command names, such as [\"git\", \"gh\"]")
	}
	*w = out
	return nil
}

func (s *str) UnmarshalTOML(v any) error {
	t, ok := v.(string)
	if !ok {
		return errors.New(s.want)
	}
	t, err := s.check(t)
	if err == nil {
		*s.to = t
	}
	return err
}

func (s set[T]) UnmarshalTOML(v any) error {
	p := new(T)
	if err := s.as(p).UnmarshalTOML(v); err != nil {
		return err
	}
	*s.to = p
	return nil
}

func (o *oneOf) asTOML() string { return quote(*o.to) }
func (s *span) asTOML() string  { return quote(durationText(*s.to)) }
func (f *flag) asTOML() string  { return strconv.FormatBool(bool(*f)) }
func (w *width) asTOML() string { return strconv.Itoa(int(*w)) }
func (s *str) asTOML() string   { return quote(*s.to) }

func (w *words) asTOML() string {
	list := make([]string, len(*w))
	for i, s := range *w {
		list[i] = quote(s)
	}
	return "[" + strings.Join(list, ", ") + "]"
}

func (s set[T]) asTOML() string {
	if *s.to == nil {
		return ""
	}
	return s.as(*s.to).asTOML()
}

// quote is a value of the file as `prchip config` prints it: the text is
// untrusted, and a chip's command may hold a token.
func quote(s string) string { return strconv.Quote(sanitize.Redact(s)) }

// durationText writes d as a user would ("24h", "1h30m", "1m"), not as
// time.Duration's "24h0m0s" or "1m0s"; time.ParseDuration reads it back.
func durationText(d time.Duration) string {
	t := d.String()
	for _, zero := range []string{"m0s", "h0m"} {
		if strings.HasSuffix(t, zero) {
			t = t[:len(t)-2]
		}
	}
	return t
}

// UnmarshalTOML takes a Go duration string ("5s", "1m30s") or a number of
// seconds, whole or not (the README says a number means seconds, so
// timeout = 0.5 is half a second). A range is said as the README writes
// it ("1s to 24h"), never as time.Duration prints it ("24h0m0s").
func (s *span) UnmarshalTOML(v any) error {
	var d time.Duration
	var as string // the value as written, for a range error
	switch x := v.(type) {
	case string:
		p, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("%q is not a duration (use a form such as \"5s\" or \"2m\")", x)
		}
		d, as = p, strconv.Quote(x)
	case int64:
		d, as = time.Duration(x)*time.Second, strconv.FormatInt(x, 10)+" seconds"
		if x < 0 || x > int64(s.hi/time.Second) {
			d = -1 // out of range, without overflowing
		}
	case float64:
		d, as = time.Duration(x*float64(time.Second)), strconv.FormatFloat(x, 'g', -1, 64)+" seconds"
		if math.IsNaN(x) || x < 0 || x > s.hi.Seconds() {
			d = -1
		}
	default:
		return fmt.Errorf("must be a duration such as \"5s\" or a number of seconds, not %s", show(v))
	}
	if d < s.lo || d > s.hi {
		return fmt.Errorf("%s is outside %s to %s", as, durationText(s.lo), durationText(s.hi))
	}
	*s.to = d
	return nil
}

// show is a value as the file would write it, or its kind in words:
// never a Go type name such as "(float64)".
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "nothing"
	case bool, int64, float64:
		return fmt.Sprint(x)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date or time"
	}
	return "a value of another kind"
}

// Entry is one effective setting for `prchip config`.
type Entry struct {
	Key, Value, Source string
}

// Effective lists every setting with its value (as TOML) and where it came
// from: file and line, or "default". Values are the file's untrusted text:
// quote redacts them (a chip's command may hold a token) and escapes what
// does not print, so what `prchip config` prints is safe to show and paste.
func (c *Config) Effective() []Entry {
	var out []Entry
	add := func(k, v string) {
		src := "default"
		if s, ok := c.Source[k]; ok {
			src = sanitize.Text(s, 0) // the file's path
		} else if k == "format" {
			src = "preset " + c.Preset
		}
		out = append(out, Entry{k, v, src})
	}
	shown := *c // the preset's format where the file sets none
	shown.Format = cmp.Or(c.Format, preset(c.Preset).Format)
	for _, f := range topFields {
		add(f.key, f.val(&shown).asTOML())
	}
	for _, k := range SymbolKeys {
		if v, ok := c.Symbols[k]; ok {
			add("symbols."+k, quote(v))
		}
	}
	for _, k := range StyleKeys {
		if v, ok := c.styleOf(k); ok {
			add("styles."+k, quote(v))
		}
	}
	for _, sh := range shellNames {
		ov := c.Shells[sh] // a key the file does not set prints as ""
		for _, f := range shellFields {
			if v := f.val(&ov).asTOML(); v != "" {
				add("shell."+sh+"."+f.key, v)
			}
		}
	}
	for _, ch := range c.Chips {
		for _, f := range chipFields {
			add("chips."+ch.Name+"."+f.key, f.val(&ch).asTOML())
		}
	}
	return out
}

// where is "file:line" (fmt is kept off the path of a good config).
func where(file string, line int) string { return file + ":" + strconv.Itoa(line) }
