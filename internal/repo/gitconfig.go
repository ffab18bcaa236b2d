package repo

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prchip/prchip/internal/env"
)

// ConfigFiles are the git configuration files outside the repository, as
// git finds them, in its order: the system file and the user's global ones
// (SPEC 3 and 4: their remotes, push settings and insteadOf rules decide
// which PR is the branch's; safe.directory is read from them alone). A
// variable set but empty names no file, as in git.
func ConfigFiles(e env.Env) []string {
	var files []string
	// git_env_bool; on garbage, where git dies, no system config is the
	// lesser surprise.
	if v, ok := e.Lookup("GIT_CONFIG_NOSYSTEM"); !ok || !gitBool(v, true) {
		if p, ok := e.Lookup("GIT_CONFIG_SYSTEM"); !ok {
			files = append(files, "/etc/gitconfig")
		} else if p != "" {
			files = append(files, p)
		}
	}
	if p, ok := e.Lookup("GIT_CONFIG_GLOBAL"); ok {
		if p != "" {
			files = append(files, p)
		}
		return files
	}
	home, hasHome := e.Lookup("HOME")
	// Joined as git joins them: an empty HOME names /.gitconfig.
	if x := e.Get("XDG_CONFIG_HOME"); x != "" {
		files = append(files, x+"/git/config")
	} else if hasHome {
		files = append(files, home+"/.config/git/config")
	}
	if hasHome {
		files = append(files, home+"/.gitconfig")
	}
	return files
}

// entryFunc receives one config entry as eachEntry gives it.
type entryFunc func(section, sub, key, val string, hasVal bool)

// maxConfigFiles bounds the files read for one config file and its
// includes: git reads an included file again for each include.path naming
// it, so a hostile file including another a thousand times would otherwise
// cost a thousand reads on every prompt. Each file git reads first has its
// own budget, so one file's includes cannot hide the next file.
const maxConfigFiles = 16

// configWalk reads the configuration git reads for a repository, in
// git's order (system, global, the repository's, the environment's), so
// that a value set twice ends with the one git ends with.
type configWalk struct {
	fn    entryFunc
	files int
	// What git's includeIf conditions test: the git directory (gitdir:)
	// and the branch HEAD names (onbranch:; none while detached, a rebase
	// included, as in git).
	gitDir, headBranch string
	// worktreeConfig is extensions.worktreeConfig of the repository's
	// config: git then reads the worktree's config.worktree after it.
	worktreeConfig bool
	env            env.Env
}

// walkConfig gives fn every entry of every config file git reads for the
// repository info names (none without a CommonDir), in git's order, include.path and
// includeIf.<condition>.path followed where they stand, then
// GIT_CONFIG_COUNT's entries.
func walkConfig(info *Info, fn entryFunc) {
	w := &configWalk{fn: fn, env: info.env, gitDir: info.GitDir}
	if !info.Detached && !info.Rebasing {
		w.headBranch = info.Branch
	}
	for _, f := range ConfigFiles(w.env) {
		w.file(f, 0, false)
	}
	if info.CommonDir != "" {
		w.file(info.CommonDir+"/config", 0, true)
		if w.worktreeConfig {
			w.file(info.GitDir+"/config.worktree", 0, false)
		}
	}
	envEntries(w.env, fn)
}

// file reads one config file and the files it includes. A missing or
// unreadable file is no setting (git ignores a missing one too); a FIFO
// does not block (readSmall), and the depth is git's (which dies beyond
// it; prchip just stops, so a cycle ends). repo is set for the
// repository's own config, where extensions live.
func (w *configWalk) file(p string, depth int, repo bool) {
	if depth == 0 {
		w.files = 0 // maxConfigFiles is per file git reads first
	}
	if depth > maxIncludeDepth || w.files >= maxConfigFiles {
		return
	}
	w.files++
	b, err := readSmall(w.env.Files(), p)
	if err != nil {
		return
	}
	eachEntry(b, func(section, sub, key, val string, hasVal bool) {
		switch {
		case section == "include" && sub == "" && key == "path",
			section == "includeif" && key == "path" && w.includeIf(sub, p):
			if !hasVal {
				return
			}
			inc, ok := expandUser(configValue(val), w.env)
			if !ok || inc == "" {
				return
			}
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(p), inc)
			}
			w.file(inc, depth+1, false)
			return
		case repo && depth == 0 && section == "extensions" && sub == "" && key == "worktreeconfig":
			w.worktreeConfig = !hasVal || gitBool(configValue(val), false)
		}
		w.fn(section, sub, key, val, hasVal)
	})
}

// includeIf evaluates an includeIf condition as git does for a file at
// path p: gitdir: and gitdir/i: match the git directory (its real path,
// then its path as found), onbranch: the branch HEAD names. Other
// conditions (hasconfig:) are false.
func (w *configWalk) includeIf(cond, p string) bool {
	if b, ok := strings.CutPrefix(cond, "onbranch:"); ok {
		return w.headBranch != "" && wildmatch(withStarStar(b), w.headBranch, false)
	}
	pat, ok := strings.CutPrefix(cond, "gitdir:")
	fold := false
	if !ok {
		if pat, fold = strings.CutPrefix(cond, "gitdir/i:"); !fold {
			return false
		}
	}
	if w.gitDir == "" || pat == "" {
		return false
	}
	pat, ok = expandUser(pat, w.env)
	if !ok {
		return false
	}
	prefix := ""
	switch {
	case strings.HasPrefix(pat, "./"):
		// Relative to the directory of the file that holds it (its real
		// path), matched literally.
		dir := filepath.Dir(p)
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		prefix = dir + "/"
		pat = pat[2:]
	case !filepath.IsAbs(pat):
		pat = "**/" + pat
	}
	pat = withStarStar(pat)
	dirs := []string{w.gitDir}
	if r, err := filepath.EvalSymlinks(w.gitDir); err == nil {
		dirs = []string{r, w.gitDir}
	}
	for _, dir := range dirs {
		if prefix != "" {
			if len(dir) < len(prefix) || !(dir[:len(prefix)] == prefix || fold && strings.EqualFold(dir[:len(prefix)], prefix)) {
				continue
			}
			dir = dir[len(prefix):]
		}
		if wildmatch(pat, dir, fold) {
			return true
		}
	}
	return false
}

// withStarStar is git's add_trailing_starstar_for_dir: a pattern ending
// in a slash matches everything below.
func withStarStar(p string) string {
	if strings.HasSuffix(p, "/") {
		return p + "**"
	}
	return p
}

// maxPattern bounds the patterns and texts wildmatch takes.
const maxPattern = 1024

// classes writes git's class syntax as path.Match wants it: '!' negates
// as '^' does, and a ']' first or a '-' last is quoted.
var classes = strings.NewReplacer("[!]", `[^\]`, "[^]", `[^\]`, "[]", `[\]`, "[!", "[^", "-]", `\-]`)

// wildmatch is git's wildmatch with WM_PATHNAME, from path.Match, whose
// '*', '?' and classes stop at '/' as git's do: pattern and text are
// matched a '/'-separated part at a time, and a "**" part matches any
// number of the text's (at the end, at least one). fold compares in lower
// case. The greedy walk over "**" parts matches each pattern part at most
// once per text part, so no pattern costs more than their product.
func wildmatch(pat, text string, fold bool) bool {
	if len(pat) > maxPattern || len(text) > maxPattern {
		return false
	}
	ps, ts := strings.Split(classes.Replace(byteRunes(pat, fold)), "/"), strings.Split(byteRunes(text, fold), "/")
	starStar := func(i int) bool { return i < len(ps) && len(ps[i]) > 1 && strings.Trim(ps[i], "*") == "" }
	if starStar(len(ps) - 1) {
		ps = append(ps, "*")
	}
	pi, ti, star, starT := 0, 0, -1, 0
	for ti < len(ts) {
		if starStar(pi) {
			star, starT = pi, ti
			pi++
		} else if ok, _ := path.Match(ps[min(pi, len(ps)-1)], ts[ti]); ok && pi < len(ps) {
			pi, ti = pi+1, ti+1
		} else if star >= 0 {
			starT++
			pi, ti = star+1, starT
		} else {
			return false
		}
	}
	for starStar(pi) {
		pi++
	}
	return pi == len(ps)
}

// byteRunes is s with each byte a rune of its own, since git's wildmatch
// compares bytes and path.Match runes; fold lower-cases ASCII, as git.
func byteRunes(s string, fold bool) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
		if fold && s[i] >= 'A' && s[i] <= 'Z' {
			r[i] += 'a' - 'A'
		}
	}
	return string(r)
}

// gitBool is git's boolean for a value; garbage is the answer for a word
// git refuses (it dies there).
func gitBool(v string, garbage bool) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true
	case "", "false", "no", "off":
		return false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return garbage
	}
	return n != 0
}

// envEntries gives fn the entries of GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n
// and GIT_CONFIG_VALUE_n (what `git -c` passes to the git it runs, and
// what a user may set), which git reads after every file. Values are
// quoted so that configValue returns them unchanged.
func envEntries(e env.Env, fn entryFunc) {
	n, err := strconv.ParseUint(e.Get("GIT_CONFIG_COUNT"), 10, 31) // unset: an error
	if err != nil {
		return
	}
	n = min(n, 4096) // the environment holds no more; bounds a hostile count
	for i := uint64(0); i < n; i++ {
		k, ok1 := e.Lookup("GIT_CONFIG_KEY_" + strconv.FormatUint(i, 10))
		val, ok2 := e.Lookup("GIT_CONFIG_VALUE_" + strconv.FormatUint(i, 10))
		if !ok1 || !ok2 {
			return // git stops there, with an error
		}
		dot, last := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
		if dot <= 0 || last == len(k)-1 {
			continue
		}
		section, sub, key := k[:dot], "", k[last+1:]
		if last > dot {
			sub = k[dot+1 : last]
		}
		fn(strings.ToLower(section), sub, strings.ToLower(key), `"`+valueQuoter.Replace(val)+`"`, true)
	}
}

// valueQuoter writes a value, between quotes, so that configValue reads
// it back.
var valueQuoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
