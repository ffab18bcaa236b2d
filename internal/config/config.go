// Package config reads $XDG_CONFIG_HOME/prchip/config.toml (TOML, decoded
// by BurntSushi/toml in toml.go, each value then taken by the typed value
// its key names). A broken file never stops prchip: each bad key, and each
// line that is not TOML, falls back to its default alone and becomes a
// Problem naming file, line and key, with the fix when it is clear
// (mistakes.go), which `status` and `config` show and the render path
// ignores.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
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
	// stays fresh: they rarely change (an invalidation after git or gh
	// still refreshes at once).
	SettledRefreshInterval time.Duration
	InvalidateOn           []string
	// WorkerIdle is how long a shell's worker waits for a prompt before it
	// ends (the next prompt starts a new one).
	WorkerIdle time.Duration
	// OnRetryable is "clear" (a transient failure empties the chip) or
	// "keep" (the last PR stays, marked stale).
	OnRetryable string
	// Look: template, preset, symbol overrides, styles, links, width.
	Format     string
	Preset     string
	Symbols    map[string]string
	Styles     map[string]string
	Color      bool
	Hyperlinks bool
	TitleWidth int
	// Shells holds [shell.NAME] overrides of format, color, hyperlinks.
	Shells map[string]ShellOverride
	// Chips are user-defined shell chips, rendered after the PR chip in
	// name order.
	Chips []ShellChip
	// Problems found while reading; empty for a good or missing file.
	Problems []Problem
	// Source tells, per key, where its value came from ("default" or
	// "file:line"), for `prchip config`.
	Source map[string]string
}

// ShellOverride is a [shell.NAME] table; nil fields keep the top level.
type ShellOverride struct {
	Format     *string
	Color      *bool
	Hyperlinks *bool
}

// ShellChip is a [chips.NAME] table.
type ShellChip struct {
	Name              string
	Command           string
	Timeout           time.Duration
	RefreshInterval   time.Duration
	SuppressOnFailure bool
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
	loc := p.File
	if p.Line > 0 {
		loc = where(p.File, p.Line)
	}
	s := loc + ": " + p.Msg
	if p.Key != "" {
		s = fmt.Sprintf("%s: key %q: %s", loc, p.Key, p.Msg)
	}
	return sanitize.Text(sanitize.Redact(s), 2048)
}

// defaultInvalidateOn is shared by every default configuration (capped, so
// an append copies it): the render path then allocates nothing for it.
var defaultInvalidateOn = [...]string{"git", "gh", "gt"}

// Defaults is the configuration when no file exists.
func Defaults(path string) *Config {
	c := new(Config)
	c.setDefaults(path)
	return c
}

func (c *Config) setDefaults(path string) {
	*c = Config{
		Path:                   path,
		Mode:                   ModeAuto,
		Timeout:                5 * time.Second,
		RefreshInterval:        30 * time.Second,
		SettledRefreshInterval: 5 * time.Minute,
		InvalidateOn:           defaultInvalidateOn[:len(defaultInvalidateOn):len(defaultInvalidateOn)],
		WorkerIdle:             10 * time.Minute,
		OnRetryable:            "clear",
		Format:                 "", // the preset's
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
// prompt's own colour.
// (A slice of pairs, not a map: package-level maps are built at every start.)
var DefaultStyles = [][2]string{
	{"state_merged", "purple"}, {"state_closed", "red"}, {"state_draft", "bright-black"},
	{"checks_passing", "green"}, {"checks_failing", "red"}, {"checks_pending", "yellow"},
	{"review_approved", "green"}, {"review_changes_requested", "red"}, {"stale", "bright-black"},
	{"merge_state_conflicts", "red"}, {"merge_state_clean", "green"}, {"failing_check", "red"},
	// Out of the merge queue: as loud as a failing check.
	{"queue_dequeued", "red"}, {"queue_state_dequeued", "red"},
}

func defaultStyle(key string) (string, bool) {
	for _, kv := range DefaultStyles {
		if kv[0] == key {
			return kv[1], true
		}
	}
	return "", false
}

// style resolves a format style key ("number", "state.merged"): the
// user's [styles] first, then DefaultStyles; parsed only when asked.
func (c *Config) style(key string) format.Style {
	k := strings.Replace(key, ".", "_", 1)
	v, ok := c.Styles[k]
	if !ok {
		if v, ok = defaultStyle(k); !ok {
			return ""
		}
	}
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
	o := format.Options{
		Format:     c.Format,
		Symbols:    preset(c.Preset),
		Color:      c.Color,
		Hyperlink:  c.Hyperlinks,
		Host:       host,
		TitleWidth: c.TitleWidth,
	}
	if o.Format == "" {
		o.Format = o.Symbols.Format
	}
	if ov, ok := c.Shells[shell]; ok {
		if ov.Format != nil {
			o.Format = *ov.Format
		}
		if ov.Color != nil {
			o.Color = *ov.Color
		}
		if ov.Hyperlinks != nil {
			o.Hyperlink = *ov.Hyperlinks
		}
	}
	if shell == "plain" {
		// starship (and any plain consumer) styles output itself, and its
		// right prompt miscounts escape sequences: links only on request.
		o.Color = false
		if ov, ok := c.Shells["plain"]; !ok || ov.Hyperlinks == nil {
			o.Hyperlink = false
		}
	}
	if noColor {
		o.Color = false
	}
	if len(c.Symbols) > 0 {
		sym := map[string]*string{"open": &o.Symbols.Open, "draft": &o.Symbols.Draft, "merged": &o.Symbols.Merged,
			"closed": &o.Symbols.Closed, "approved": &o.Symbols.Approved, "changes_requested": &o.Symbols.ChangesRequested,
			"review_required": &o.Symbols.ReviewRequired, "checks_passing": &o.Symbols.ChecksPassing,
			"checks_failing": &o.Symbols.ChecksFailing, "checks_pending": &o.Symbols.ChecksPending, "stale": &o.Symbols.Stale}
		for k, v := range c.Symbols {
			if p, ok := sym[k]; ok {
				*p = v
			}
		}
	}
	o.StyleOf = c.style
	return o
}

// MaxSize bounds the config file read.
const MaxSize = 1 << 20

func validChipName(n string) bool {
	if n == "" || len(n) > 32 || n == "pr" {
		return false
	}
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Load reads the file at path through files; a missing file gives the defaults.
func Load(path string, files rawfile.Reader) *Config {
	c := Defaults(path)
	c.load(files)
	return c
}

func (c *Config) load(files rawfile.Reader) {
	path := c.Path
	data, _, err := files.Read(path, MaxSize, syscall.O_NONBLOCK, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case errors.Is(err, rawfile.ErrTooLarge):
		c.problem(0, "", fmt.Sprintf("larger than %d bytes; using defaults", MaxSize))
		return
	case err != nil && strings.Contains(err.Error(), "not a regular file"):
		c.problem(0, "", "not a regular file; using defaults")
		return
	case err != nil:
		c.problem(0, "", "unreadable: "+err.Error()+"; using defaults")
		return
	}
	c.parse(string(data))
	if len(c.Problems) > 1 { // in the file's order: keys are read in name order
		sort.SliceStable(c.Problems, func(i, j int) bool { return c.Problems[i].Line < c.Problems[j].Line })
	}
}

// reported tells whether key already has a problem (a line the decoder
// refused).
func (c *Config) reported(key string) bool {
	for _, p := range c.Problems {
		if p.Key == key {
			return true
		}
	}
	return false
}

// problem records a problem.
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
		if doc.skipped[k] {
			continue // the keys under a broken header, reported with it
		}
		v, line := doc.root[k], doc.lineOf(k)
		switch k {
		case "symbols", "styles":
			if tbl, ok := c.table(doc, v, k, "must be a table"); ok {
				c.parseLook(doc, k, tbl)
			}
		case "shell":
			if tbl, ok := c.table(doc, v, k, "must be a table of [shell.zsh], [shell.bash], [shell.fish], [shell.plain]"); ok {
				c.parseShells(doc, tbl)
			}
		case "chips":
			// After the top-level keys: chips inherit timeout and interval.
		default:
			if t := c.topKey(k); t != nil {
				c.take(doc, v, k, t)
			} else {
				c.problem(line, k, unknownTopLevel(doc, line, k))
			}
		}
	}
	if v, ok := doc.root["chips"]; ok {
		if tbl, ok := c.table(doc, v, "chips", "must be a table of [chips.NAME] tables"); ok {
			c.parseChips(doc, tbl)
		}
	}
}

// topKey is the typed value a top-level key decodes into, in place in c;
// nil for a key that is not one (or is a table).
func (c *Config) topKey(k string) toml.Unmarshaler {
	switch k {
	case "mode":
		return &oneOf{&c.Mode, []string{ModeAuto, ModeAlways, ModeOff}}
	case "timeout":
		return &span{&c.Timeout, 100 * time.Millisecond, time.Minute}
	case "refresh_interval":
		return &span{&c.RefreshInterval, time.Second, 24 * time.Hour}
	case "settled_refresh_interval":
		return &span{&c.SettledRefreshInterval, time.Second, 24 * time.Hour}
	case "worker_idle":
		return &span{&c.WorkerIdle, time.Second, 7 * 24 * time.Hour}
	case "invalidate_on":
		return (*words)(&c.InvalidateOn)
	case "on_retryable":
		return &oneOf{&c.OnRetryable, []string{"clear", "keep"}}
	case "format":
		return (*template)(&c.Format)
	case "preset":
		return &oneOf{&c.Preset, format.PresetNames}
	case "color":
		return (*flag)(&c.Color)
	case "hyperlinks":
		return (*flag)(&c.Hyperlinks)
	case "title_width":
		return (*width)(&c.TitleWidth)
	}
	return nil
}

// take hands v, the value of key, to its typed value t, which changes
// only when the value is good; a bad one is a problem, and a good one's
// line is its source. It reports whether t took it.
func (c *Config) take(doc *document, v any, key string, t toml.Unmarshaler) bool {
	line := doc.lineOf(key)
	if err := t.UnmarshalTOML(v); err != nil {
		c.problem(line, key, err.Error())
		return false
	}
	c.Source[key] = where(c.Path, line)
	return true
}

// table is v, the value of key, as a table; when it is none, msg is the
// problem.
func (c *Config) table(doc *document, v any, key, msg string) (map[string]any, bool) {
	tbl, ok := v.(map[string]any)
	if !ok {
		c.problem(doc.lineOf(key), key, msg)
	}
	return tbl, ok
}

// parseLook reads [symbols] and [styles].
func (c *Config) parseLook(doc *document, table string, tbl map[string]any) {
	keys := SymbolKeys
	if table == "styles" {
		keys = StyleKeys
	}
	for _, k := range sortedKeys(tbl) {
		full := table + "." + k
		switch {
		case !slices.Contains(keys, k):
			c.problem(doc.lineOf(full), full, unknownIn(k, keys))
		case table == "styles":
			var st style
			if c.take(doc, tbl[k], full, &st) {
				c.Styles[k] = string(st)
			}
		default:
			var sym symbol
			if c.take(doc, tbl[k], full, &sym) {
				c.Symbols[k] = string(sym)
			}
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
		for _, k := range sortedKeys(t) {
			full := section + "." + k
			switch k {
			case "format":
				if f := new(string); c.take(doc, t[k], full, (*template)(f)) {
					ov.Format = f
				}
			case "color":
				if b := new(bool); c.take(doc, t[k], full, (*flag)(b)) {
					ov.Color = b
				}
			case "hyperlinks":
				if b := new(bool); c.take(doc, t[k], full, (*flag)(b)) {
					ov.Hyperlinks = b
				}
			default:
				c.problem(doc.lineOf(full), full, unknownIn(k, shellKeys))
			}
		}
		c.Shells[name] = ov
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
		t, ok := c.table(doc, tbl[name], section, "must be a table with a command")
		if !ok {
			continue
		}
		if !validChipName(name) {
			c.problem(line, section, "chip names are 1 to 32 letters, digits, '-' or '_', and not \"pr\"")
			continue
		}
		ch := ShellChip{Name: name, Timeout: c.Timeout, RefreshInterval: c.RefreshInterval}
		var cmd command
		bad := false
		for _, k := range sortedKeys(t) {
			full := section + "." + k
			switch k {
			case "command":
				bad = !c.take(doc, t[k], full, &cmd)
			case "timeout":
				c.take(doc, t[k], full, &span{&ch.Timeout, 100 * time.Millisecond, time.Minute})
			case "refresh_interval":
				c.take(doc, t[k], full, &span{&ch.RefreshInterval, time.Second, 24 * time.Hour})
			case "suppress_on_failure":
				c.take(doc, t[k], full, (*flag)(&ch.SuppressOnFailure))
			default:
				c.problem(doc.lineOf(full), full, unknownIn(k, chipKeys))
			}
		}
		if ch.Command = string(cmd); ch.Command == "" {
			if !bad && !c.reported(section+".command") {
				c.problem(line, section+".command", "missing; the chip is ignored")
			}
			continue
		}
		c.Chips = append(c.Chips, ch)
	}
}

// The typed values keys decode into. Each is a toml.Unmarshaler: handed
// the value BurntSushi decoded for its key, it takes it or says what to
// write instead. take hands them over key by key, so a bad value costs
// only its own key: decoding the file into a struct of them would stop at
// the first bad value, and MetaData.PrimitiveDecode per key made a parse,
// which every render does, a third slower (52 against 39 µs).
type (
	// oneOf is one of a few words, kept in to.
	oneOf struct {
		to *string
		of []string
	}
	template string // a chip format
	flag     bool
	width    int // title_width
	words    []string
	symbol   string
	style    string
	command  string
	// span is a duration from lo to hi, kept in to.
	span struct {
		to     *time.Duration
		lo, hi time.Duration
	}
)

func (o *oneOf) UnmarshalTOML(v any) error {
	if s, _ := v.(string); slices.Contains(o.of, s) {
		*o.to = s
		return nil
	}
	q := make([]string, len(o.of))
	for i, w := range o.of {
		q[i] = strconv.Quote(w)
	}
	return fmt.Errorf("must be %s or %s, not %s", strings.Join(q[:len(q)-1], ", "), q[len(q)-1], show(v))
}

func (t *template) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return errors.New("must be a string such as \"" + format.DefaultFormat + "\"")
	}
	if err := format.Validate(s); err != nil {
		return err
	}
	*t = template(s)
	return nil
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

func (s *symbol) UnmarshalTOML(v any) error {
	t, ok := v.(string)
	if !ok {
		return errors.New("must be a string")
	}
	*s = symbol(sanitize.Text(t, 64))
	return nil
}

func (s *style) UnmarshalTOML(v any) error {
	t, ok := v.(string)
	if !ok {
		return errors.New("must be a string")
	}
	if _, ok := format.ParseStyle(t); !ok {
		return fmt.Errorf("unknown style %q (use words such as \"bold green\")", t)
	}
	*s = style(t)
	return nil
}

func (c *command) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return errors.New("must be a non-empty string")
	}
	*c = command(s)
	return nil
}

func (s *span) UnmarshalTOML(v any) error {
	d, err := duration(v, s.lo, s.hi)
	if err == nil {
		*s.to = d
	}
	return err
}

// durationText writes d as a user would in the file: "24h", "1h30m",
// "1m", "90s" as "1m30s", "168h", not time.Duration's "24h0m0s" or "1m0s";
// time.ParseDuration reads it back.
func durationText(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}

// duration accepts a Go duration string ("5s", "1m30s") or a number of
// seconds, whole or not (the README says a number means seconds, so
// timeout = 0.5 is half a second). A range is said as the README writes
// it ("1s to 24h"), never as time.Duration prints it ("24h0m0s").
func duration(v any, lo, hi time.Duration) (time.Duration, error) {
	var d time.Duration
	var as string // the value as written, for a range error
	switch x := v.(type) {
	case string:
		p, err := time.ParseDuration(x)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (use a form such as \"5s\" or \"2m\")", x)
		}
		d, as = p, strconv.Quote(x)
	case int64:
		d, as = time.Duration(x)*time.Second, strconv.FormatInt(x, 10)+" seconds"
		if x < 0 || x > int64(hi/time.Second) {
			d = -1 // out of range, without overflowing
		}
	case float64:
		d, as = time.Duration(x*float64(time.Second)), strconv.FormatFloat(x, 'g', -1, 64)+" seconds"
		if math.IsNaN(x) || x < 0 || x > hi.Seconds() {
			d = -1
		}
	default:
		return 0, fmt.Errorf("must be a duration such as \"5s\" or a number of seconds, not %s", show(v))
	}
	if d < lo || d > hi {
		return 0, fmt.Errorf("%s is outside %s to %s", as, durationText(lo), durationText(hi))
	}
	return d, nil
}

// show is a value as the file would write it, or its kind in words:
// never a Go type name such as "(float64)".
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "nothing"
	case bool, int64:
		return fmt.Sprint(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
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
// from: the file and line, or "default". Values are the file's text,
// untrusted: they are sanitised (what the render path would strip anyway)
// and redacted (a chip's command may hold a token) before they are quoted,
// so what `prchip config` prints is safe to show and to paste.
func (c *Config) Effective() []Entry {
	src := func(k string) string {
		if s, ok := c.Source[k]; ok {
			return sanitize.Text(s, 0) // the file's path
		}
		return "default"
	}
	q := func(s string) string { return strconv.Quote(sanitize.Redact(s)) }
	var out []Entry
	add := func(k, v string) { out = append(out, Entry{k, v, src(k)}) }
	add("mode", q(c.Mode))
	add("timeout", q(durationText(c.Timeout)))
	add("refresh_interval", q(durationText(c.RefreshInterval)))
	add("settled_refresh_interval", q(durationText(c.SettledRefreshInterval)))
	list := make([]string, len(c.InvalidateOn))
	for i, w := range c.InvalidateOn {
		list[i] = q(w)
	}
	add("invalidate_on", "["+strings.Join(list, ", ")+"]")
	add("worker_idle", q(durationText(c.WorkerIdle)))
	add("on_retryable", q(c.OnRetryable))
	f := c.Format
	if f == "" {
		f = preset(c.Preset).Format
	}
	out = append(out, Entry{"format", q(f), src("format")})
	if _, ok := c.Source["format"]; !ok {
		out[len(out)-1].Source = "preset " + c.Preset
	}
	add("preset", q(c.Preset))
	add("color", strconv.FormatBool(c.Color))
	add("hyperlinks", strconv.FormatBool(c.Hyperlinks))
	add("title_width", strconv.Itoa(c.TitleWidth))
	for _, k := range SymbolKeys {
		if v, ok := c.Symbols[k]; ok {
			add("symbols."+k, q(v))
		}
	}
	for _, k := range StyleKeys {
		if v, ok := c.Styles[k]; ok {
			add("styles."+k, q(v))
		} else if v, ok := defaultStyle(k); ok {
			add("styles."+k, q(v))
		}
	}
	for _, sh := range shellNames {
		ov, ok := c.Shells[sh]
		if !ok {
			continue
		}
		if ov.Format != nil {
			add("shell."+sh+".format", q(*ov.Format))
		}
		if ov.Color != nil {
			add("shell."+sh+".color", strconv.FormatBool(*ov.Color))
		}
		if ov.Hyperlinks != nil {
			add("shell."+sh+".hyperlinks", strconv.FormatBool(*ov.Hyperlinks))
		}
	}
	for _, ch := range c.Chips {
		p := "chips." + ch.Name + "."
		out = append(out,
			Entry{p + "command", q(ch.Command), src(p + "command")},
			Entry{p + "timeout", q(durationText(ch.Timeout)), src(p + "timeout")},
			Entry{p + "refresh_interval", q(durationText(ch.RefreshInterval)), src(p + "refresh_interval")},
			Entry{p + "suppress_on_failure", strconv.FormatBool(ch.SuppressOnFailure), src(p + "suppress_on_failure")})
	}
	return out
}

// where is "file:line" (fmt is kept off the path of a good config).
func where(file string, line int) string { return file + ":" + strconv.Itoa(line) }
