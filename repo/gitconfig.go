package repo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ConfigFiles are the git configuration files outside the repository, as
// git finds them, in its order: the system file and the user's global ones
// (SPEC 3 and 4: their remotes, push settings and insteadOf rules decide
// which PR is the branch's; safe.directory is read from them alone). A
// variable set but empty names no file, as in git.
func ConfigFiles() []string {
	var files []string
	if !envBool("GIT_CONFIG_NOSYSTEM") {
		if p, ok := os.LookupEnv("GIT_CONFIG_SYSTEM"); !ok {
			files = append(files, "/etc/gitconfig")
		} else if p != "" {
			files = append(files, p)
		}
	}
	if p, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if p != "" {
			files = append(files, p)
		}
		return files
	}
	home, hasHome := os.LookupEnv("HOME")
	// Joined as git joins them: an empty HOME names /.gitconfig.
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
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
}

// walkConfig gives fn every entry of every config file git reads for the
// repository whose common directory is commonDir ("" for none), include.path
// followed where it stands, then GIT_CONFIG_COUNT's entries.
func walkConfig(commonDir string, fn entryFunc) {
	w := &configWalk{fn: fn}
	for _, f := range ConfigFiles() {
		w.files = 0
		w.file(f, 0)
	}
	if commonDir != "" {
		w.files = 0
		w.file(commonDir+"/config", 0)
	}
	envEntries(fn)
}

// file reads one config file and the files it includes. A missing or
// unreadable file is no setting (git ignores a missing one too); a FIFO
// does not block (readSmall), and the depth is git's (which dies beyond
// it; prchip just stops, so a cycle ends).
func (w *configWalk) file(p string, depth int) {
	if depth > maxIncludeDepth || w.files >= maxConfigFiles {
		return
	}
	w.files++
	b, err := readSmall(p)
	if err != nil {
		return
	}
	eachEntry(b, func(section, sub, key, val string, hasVal bool) {
		if section == "include" && sub == "" && key == "path" {
			if !hasVal {
				return
			}
			inc, ok := expandUser(configValue(val))
			if !ok || inc == "" {
				return
			}
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(p), inc)
			}
			w.file(inc, depth+1)
			return
		}
		w.fn(section, sub, key, val, hasVal)
	})
}

// envEntries gives fn the entries of GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n
// and GIT_CONFIG_VALUE_n (what `git -c` passes to the git it runs, and
// what a user may set), which git reads after every file. Values are
// quoted so that configValue returns them unchanged.
func envEntries(fn entryFunc) {
	v, ok := os.LookupEnv("GIT_CONFIG_COUNT")
	if !ok {
		return
	}
	n, err := strconv.ParseUint(v, 10, 31)
	if err != nil {
		return
	}
	n = min(n, 4096) // the environment holds no more; bounds a hostile count
	for i := uint64(0); i < n; i++ {
		k, ok1 := os.LookupEnv("GIT_CONFIG_KEY_" + strconv.FormatUint(i, 10))
		val, ok2 := os.LookupEnv("GIT_CONFIG_VALUE_" + strconv.FormatUint(i, 10))
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
		fn(strings.ToLower(section), sub, strings.ToLower(key), quoteValue(val), true)
	}
}

// quoteValue is v written so that configValue reads back v.
func quoteValue(v string) string {
	if strings.IndexAny(v, "\\\"#;\n\t") < 0 && strings.TrimSpace(v) == v {
		return v
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
