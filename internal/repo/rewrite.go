package repo

import "strings"

// rewrites are url.<base>.insteadOf (or pushInsteadOf) rules, from every
// config file, applied as git's alias_url applies them: the longest
// matching prefix wins; between equal prefixes, the base that appeared
// first in the configuration (git groups the rules by base, in the order
// the bases first appear).
type rewrites struct {
	rules []rewriteRule
	bases map[string]int // base → order of first appearance
	trie  map[uint64]int32
	ends  []int32 // per trie node, the rule ending there, or -1; nil until built
}

type rewriteRule struct {
	base, prefix string
	order        int
}

// smallRewrites is how many rules a plain scan handles: a typical setup
// has one or two, and a scan of them costs less than any index. Past it,
// a trie keeps rewriting every remote linear in the configuration's size
// (30,000 rules and 30,000 remotes in a hostile file).
const smallRewrites = 16

func (r *rewrites) add(base, prefix string) {
	if r.bases == nil {
		r.bases = map[string]int{}
	}
	order, ok := r.bases[base]
	if !ok {
		order = len(r.bases)
		r.bases[base] = order
	}
	r.rules = append(r.rules, rewriteRule{base: base, prefix: prefix, order: order})
	r.trie, r.ends = nil, nil
}

// better reports whether rule a wins over rule b for a URL both match.
func better(a, b *rewriteRule) bool {
	return len(a.prefix) > len(b.prefix) || len(a.prefix) == len(b.prefix) && a.order < b.order
}

// build makes the byte trie of the rules' prefixes: one node per distinct
// prefix byte, each rule at the node where its prefix ends.
func (r *rewrites) build() {
	r.trie = make(map[uint64]int32, len(r.rules))
	r.ends = []int32{-1}
	for i := range r.rules {
		node := int32(0)
		p := r.rules[i].prefix
		for j := 0; j < len(p); j++ {
			k := uint64(node)<<8 | uint64(p[j])
			next, ok := r.trie[k]
			if !ok {
				next = int32(len(r.ends))
				r.trie[k] = next
				r.ends = append(r.ends, -1)
			}
			node = next
		}
		if e := r.ends[node]; e < 0 || better(&r.rules[i], &r.rules[e]) {
			r.ends[node] = int32(i)
		}
	}
}

// apply is url rewritten by the winning rule, and whether one matched.
func (r *rewrites) apply(url string) (string, bool) {
	best := int32(-1)
	if len(r.rules) <= smallRewrites {
		for i := range r.rules {
			if strings.HasPrefix(url, r.rules[i].prefix) && (best < 0 || better(&r.rules[i], &r.rules[best])) {
				best = int32(i)
			}
		}
	} else {
		if r.ends == nil {
			r.build()
		}
		best = r.ends[0]
		for i, node := 0, int32(0); i < len(url); i++ {
			next, ok := r.trie[uint64(node)<<8|uint64(url[i])]
			if !ok {
				break
			}
			if node = next; r.ends[node] >= 0 {
				best = r.ends[node]
			}
		}
	}
	if best < 0 {
		return url, false
	}
	rw := &r.rules[best]
	return rw.base + url[len(rw.prefix):], true
}
