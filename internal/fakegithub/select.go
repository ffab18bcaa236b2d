package fakegithub

import (
	"errors"
	"slices"
	"strings"
)

// field is one field of a GraphQL selection set: its name, the key it
// answers under (its alias, else its name), its own selection (nil for a
// leaf) and the type condition of the inline fragment it came from ("" for
// none). Fragments are merged into the set they appear in; a node then
// answers only the fields of its own __typename.
type field struct {
	name, key string
	sub       []field
	on        string
}

var errSelection = errors.New("fakegithub: cannot read the query's selection")

// selection reads the selection set of a query's operation, so that an
// answer holds exactly the fields asked, as GitHub's does: gh api graphql
// prints the answer as it comes.
func selection(query string) ([]field, error) {
	p := &selParser{toks: tokenize(query)}
	var op []field
	frags := map[string][]field{}
	for p.i < len(p.toks) {
		switch t := p.next(); t {
		case "fragment":
			name := p.next()
			p.next() // on
			p.next() // type
			sub, err := p.set()
			if err != nil {
				return nil, err
			}
			frags[name] = sub
		case "query", "mutation":
			for p.peek() != "{" && p.i < len(p.toks) {
				if p.peek() == "(" {
					p.skipArgs()
					continue
				}
				p.next()
			}
			fallthrough
		case "{":
			if t == "{" {
				p.i--
			}
			sub, err := p.set()
			if err != nil {
				return nil, err
			}
			op = sub
		default:
			return nil, errSelection
		}
	}
	if op == nil {
		return nil, errSelection
	}
	return expand(op, frags, 0)
}

// expand replaces fragment spreads (name "..." and key the fragment) by
// the fragment's fields.
func expand(fs []field, frags map[string][]field, depth int) ([]field, error) {
	if depth > 20 {
		return nil, errSelection
	}
	var out []field
	for _, f := range fs {
		if f.name == "..." {
			sub, ok := frags[f.key]
			if !ok {
				return nil, errSelection
			}
			e, err := expand(sub, frags, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, e...)
			continue
		}
		if f.sub != nil {
			sub, err := expand(f.sub, frags, depth+1)
			if err != nil {
				return nil, err
			}
			f.sub = sub
		}
		out = append(out, f)
	}
	return out, nil
}

type selParser struct {
	toks []string
	i    int
}

func (p *selParser) next() string {
	if p.i >= len(p.toks) {
		return ""
	}
	p.i++
	return p.toks[p.i-1]
}

func (p *selParser) peek() string {
	if p.i >= len(p.toks) {
		return ""
	}
	return p.toks[p.i]
}

// skipArgs skips a parenthesised argument list (string values are single
// tokens, so their brackets do not count).
func (p *selParser) skipArgs() {
	depth := 0
	for p.i < len(p.toks) {
		switch p.next() {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return
			}
		}
	}
}

// set reads "{ fields }".
func (p *selParser) set() ([]field, error) {
	if p.next() != "{" {
		return nil, errSelection
	}
	out := []field{}
	for {
		t := p.next()
		switch t {
		case "":
			return nil, errSelection
		case "}":
			return out, nil
		case "...":
			if p.peek() == "on" {
				p.next()
				on := p.next()
				sub, err := p.set()
				if err != nil {
					return nil, err
				}
				for _, f := range sub {
					if f.on == "" {
						f.on = on
					}
					out = append(out, f)
				}
				continue
			}
			out = append(out, field{name: "...", key: p.next()})
			continue
		}
		if !isName(t) {
			return nil, errSelection
		}
		f := field{name: t, key: t}
		if p.peek() == ":" {
			p.next()
			f.name = p.next()
		}
		if p.peek() == "(" {
			p.skipArgs()
		}
		for p.peek() == "@" { // a directive: @include(if: $x)
			p.next()
			p.next()
			if p.peek() == "(" {
				p.skipArgs()
			}
		}
		if p.peek() == "{" {
			sub, err := p.set()
			if err != nil {
				return nil, err
			}
			f.sub = sub
		}
		out = append(out, f)
	}
}

func isName(t string) bool {
	if t == "" {
		return false
	}
	for i, c := range t {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// tokenize splits GraphQL text into names, punctuation, "..." and string
// literals; commas, white space and comments are dropped.
func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, s[i:min(j+1, len(s))])
			i = j + 1
		case strings.HasPrefix(s[i:], "..."):
			toks = append(toks, "...")
			i += 3
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '$' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '.' && !strings.HasPrefix(s[j:], "...")) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

// concrete are the object types the fake's answers name in __typename; a
// fragment on an interface (Actor, Node) applies to every node.
var concrete = map[string]bool{"PullRequest": true, "Repository": true, "CheckRun": true, "StatusContext": true, "RemovedFromMergeQueueEvent": true}

// prune keeps of v exactly the fields sel asks, under their keys; a field
// the fake does not hold answers null and is added to missing, by its
// dotted path under path.
func prune(v any, sel []field, path string, missing *[]string) any {
	if sel == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for _, f := range sel {
			if t, _ := x["__typename"].(string); concrete[f.on] && concrete[t] && f.on != t {
				continue // a fragment on another type
			}
			val, ok := x[f.key] // an answer built under the alias (repo_000: repository)
			if !ok {
				val, ok = x[f.name]
			}
			if !ok {
				if f.name == "__typename" {
					continue
				}
				if !slices.Contains(*missing, path+f.name) {
					*missing = append(*missing, path+f.name)
				}
			}
			out[f.key] = prune(val, f.sub, path+f.name+".", missing)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = prune(e, sel, path, missing)
		}
		return out
	}
	return v
}
