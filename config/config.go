// Package config reads $XDG_CONFIG_HOME/prchip/config.toml (TOML, parsed by
// toml.go, checked against BurntSushi/toml in tests). A broken file never
// stops prchip: each bad key falls back to its default and becomes a
// Problem naming file, line and key, which `status` shows and the render
// path ignores.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/prchip/prchip/internal/rawfile"
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
	InvalidateOn    []string
	// Chips are user-defined shell chips, rendered after the PR chip in
	// name order.
	Chips []ShellChip
	// Problems found while reading; empty for a good or missing file.
	Problems []Problem
	// Source tells, per key, where its value came from ("default" or
	// "file:line"), for `prchip config`.
	Source map[string]string
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

func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Key != "" {
		return fmt.Sprintf("%s: key %q: %s", loc, p.Key, p.Msg)
	}
	return loc + ": " + p.Msg
}

// Defaults is the configuration when no file exists.
func Defaults(path string) *Config {
	return &Config{
		Path:            path,
		Mode:            ModeAuto,
		Timeout:         5 * time.Second,
		RefreshInterval: 30 * time.Second,
		InvalidateOn:    []string{"git", "gh", "gt"},
		Source:          map[string]string{},
	}
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

// Load reads the file at path; a missing file gives the defaults.
func Load(path string) *Config {
	c := Defaults(path)
	data, _, err := rawfile.Read(path, MaxSize, syscall.O_NONBLOCK, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c
	case errors.Is(err, rawfile.ErrTooLarge):
		c.problem(0, "", fmt.Sprintf("larger than %d bytes; using defaults", MaxSize))
		return c
	case err != nil && strings.Contains(err.Error(), "not a regular file"):
		c.problem(0, "", "not a regular file; using defaults")
		return c
	case err != nil:
		c.problem(0, "", "unreadable: "+err.Error()+"; using defaults")
		return c
	}
	c.parse(string(data))
	return c
}

func (c *Config) problem(line int, key, msg string) {
	c.Problems = append(c.Problems, Problem{File: c.Path, Line: line, Key: key, Msg: msg})
}

func (c *Config) parse(data string) {
	doc, err := parseTOML(data)
	if err != nil {
		var te *tomlError
		if errors.As(err, &te) {
			c.problem(te.Line, te.Key, te.Msg+"; using defaults")
		} else {
			c.problem(0, "", err.Error()+"; using defaults")
		}
		return
	}
	raw := doc.root
	lineOf := func(table, key string) int {
		if table != "" {
			key = table + "." + key
		}
		return doc.lines[key]
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := raw[k]
		line := lineOf("", k)
		src := fmt.Sprintf("%s:%d", c.Path, line)
		switch k {
		case "mode":
			s, ok := v.(string)
			if !ok || (s != ModeAuto && s != ModeAlways && s != ModeOff) {
				c.problem(line, k, fmt.Sprintf("must be \"auto\", \"always\" or \"off\", not %s", show(v)))
				continue
			}
			c.Mode = s
		case "timeout":
			d, err := duration(v, 100*time.Millisecond, time.Minute)
			if err != nil {
				c.problem(line, k, err.Error())
				continue
			}
			c.Timeout = d
		case "refresh_interval":
			d, err := duration(v, time.Second, 24*time.Hour)
			if err != nil {
				c.problem(line, k, err.Error())
				continue
			}
			c.RefreshInterval = d
		case "invalidate_on":
			list, ok := strings_(v)
			if !ok {
				c.problem(line, k, "must be a list of command names, such as [\"git\", \"gh\"]")
				continue
			}
			c.InvalidateOn = list
		case "chips":
			// After the top-level keys: chips inherit timeout and interval.
			continue
		default:
			c.problem(line, k, "unknown key")
			continue
		}
		c.Source[k] = src
	}
	if v, ok := raw["chips"]; ok {
		tbl, ok := v.(map[string]any)
		if !ok {
			c.problem(lineOf("", "chips"), "chips", "must be a table of [chips.NAME] tables")
			return
		}
		c.parseChips(lineOf, tbl)
	}
}

func (c *Config) parseChips(lineOf func(table, key string) int, tbl map[string]any) {
	names := make([]string, 0, len(tbl))
	for n := range tbl {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		section := "chips." + name
		line := lineOf("", section)
		t, ok := tbl[name].(map[string]any)
		if !ok {
			c.problem(line, section, "must be a table with a command")
			continue
		}
		if !validChipName(name) {
			c.problem(line, section, "chip names are 1 to 32 letters, digits, '-' or '_', and not \"pr\"")
			continue
		}
		ch := ShellChip{Name: name, Timeout: c.Timeout, RefreshInterval: c.RefreshInterval}
		bad := false
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := t[k]
			kl := lineOf(section, k)
			full := section + "." + k
			switch k {
			case "command":
				s, ok := v.(string)
				if !ok || strings.TrimSpace(s) == "" {
					c.problem(kl, full, "must be a non-empty string")
					bad = true
					continue
				}
				ch.Command = s
			case "timeout":
				d, err := duration(v, 100*time.Millisecond, time.Minute)
				if err != nil {
					c.problem(kl, full, err.Error())
					continue
				}
				ch.Timeout = d
			case "refresh_interval":
				d, err := duration(v, time.Second, 24*time.Hour)
				if err != nil {
					c.problem(kl, full, err.Error())
					continue
				}
				ch.RefreshInterval = d
			case "suppress_on_failure":
				b, ok := v.(bool)
				if !ok {
					c.problem(kl, full, fmt.Sprintf("must be true or false, not %s", show(v)))
					continue
				}
				ch.SuppressOnFailure = b
			default:
				c.problem(kl, full, "unknown key")
			}
		}
		if ch.Command == "" {
			if !bad {
				c.problem(line, section+".command", "missing; the chip is ignored")
			}
			continue
		}
		c.Chips = append(c.Chips, ch)
	}
}

// duration accepts a Go duration string ("5s", "1m30s") or whole seconds.
func duration(v any, lo, hi time.Duration) (time.Duration, error) {
	var d time.Duration
	switch x := v.(type) {
	case string:
		p, err := time.ParseDuration(x)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (use a form such as \"5s\" or \"2m\")", x)
		}
		d = p
	case int64:
		d = time.Duration(x) * time.Second
	default:
		return 0, fmt.Errorf("must be a duration such as \"5s\", not %s", show(v))
	}
	if d < lo || d > hi {
		return 0, fmt.Errorf("%s is outside %s to %s", d, lo, hi)
	}
	return d, nil
}

func strings_(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok || s == "" || strings.ContainsAny(s, " \t\n") {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "nothing"
	default:
		return fmt.Sprintf("%v (%T)", x, x)
	}
}
