// Package repo reads the few repository facts prchip needs (root, branch,
// remotes) straight from the files under .git, without starting git: the
// render reads them whenever the worker's memory cannot answer. Tests hold
// it to go-git.
package repo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/rawfile"
)

// ErrNotRepository means no enclosing directory holds a .git entry.
var ErrNotRepository = errors.New("not inside a git repository")

// notRepository is ErrNotRepository with its reason: the environment
// names no repository git would open.
type notRepository string

func (e notRepository) Error() string        { return string(e) }
func (e notRepository) Is(target error) bool { return target == ErrNotRepository }

// Info is what prchip knows about the repository around a directory.
type Info struct {
	// Root is the work tree's top directory (with GIT_DIR and no
	// GIT_WORK_TREE, the directory itself, as git has it).
	Root string
	// GitDir is the per-worktree git directory (HEAD lives here).
	GitDir string
	// CommonDir holds config and refs shared by all worktrees.
	CommonDir string
	// Branch is the checked-out branch, empty when Detached; during a
	// rebase, the branch being rebased (its PR is still the one to show).
	Branch   string
	Detached bool
	// Rebasing is set while a rebase of Branch stops (HEAD is detached
	// then, and git's rebase state names the branch).
	Rebasing bool
	// Remotes in the order git's configuration lists them (every file
	// git reads), URLs rewritten by url.<base>.insteadOf as git would.
	Remotes []Remote
	// BranchRemote is branch.<Branch>.remote, if set.
	BranchRemote string
	// LookupID changes exactly when something that decides which pull
	// request is the branch's changes (SPEC 4): the branch, the rebase
	// state, and the branch, push, remote and url settings of every config
	// file git reads. Editor or user settings leave it alone, so they cost
	// no refresh.
	LookupID string
	// Env holds GIT_DIR and GIT_WORK_TREE ("NAME=value", absolute) when
	// the environment named the repository, nil otherwise: gh and shell
	// chips get them, so the git they run finds this same repository from
	// any directory.
	Env []string

	env env.Env
}

// Remote is one [remote "name"] section.
type Remote struct {
	Name string
	URL  string
	// Host is the GitHub host the remote points at, normalised, once
	// ghauth has chosen it (an SSH alias resolved); "" before.
	Host string
}

// maxFile bounds what is read from HEAD, gitdir files and config, so a
// hostile or broken repository cannot make the prompt read gigabytes.
const maxFile = 1 << 20

// Find locates the repository enclosing dir and reads its facts, finding
// it as git does, so that gh (which runs git) sees the same one: GIT_DIR
// and GIT_WORK_TREE in the environment name it, relative to dir (see Env),
// and a repository found by walking up that belongs to someone else is
// refused with an *UnsafeError unless safe.directory allows it.
func Find(dir string, e env.Env) (*Info, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("directory %q is not absolute", dir)
	}
	var info *Info
	var err error
	if v, ok := e.Lookup("GIT_DIR"); ok {
		info, err = explicitGitDir(dir, v, e)
	} else {
		info, err = discover(dir, e)
	}
	if err == nil {
		err = info.workTree(dir)
	}
	if err != nil {
		return nil, err
	}
	head, err := readSmall(e.Files(), filepath.Join(info.GitDir, "HEAD"))
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref:")
	if b, ok := strings.CutPrefix(strings.TrimSpace(ref), "refs/heads/"); isRef && ok {
		info.Branch = b
	}
	if info.Detached = info.Branch == ""; info.Detached {
		info.readRebase()
	}
	c := newPlanConfig(info)
	c.render = true
	walkConfig(info, c.entry)
	c.fill(info)
	return info, nil
}

// fill gives info what the render needs of the configuration.
func (c *planConfig) fill(info *Info) {
	for _, r := range c.remotes {
		if len(r.urls) > 0 {
			u, _ := c.insteadOf.apply(r.urls[0])
			info.Remotes = append(info.Remotes, Remote{Name: r.name, URL: u})
		}
	}
	info.BranchRemote = c.branchRemote
	info.LookupID = strconv.FormatUint(c.digest, 16)
}

// readRebase sees whether a detached HEAD is a rebase of a branch that
// stopped (an edit, a conflict): git then keeps the branch's name in the
// per-worktree git directory, under rebase-merge (the merge backend,
// rebase -i) or rebase-apply (--apply). Read only for a detached HEAD,
// so a normal render does no extra work.
func (info *Info) readRebase() {
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		b, err := readSmall(info.env.Files(), filepath.Join(info.GitDir, d, "head-name"))
		if err != nil {
			continue
		}
		// "detached HEAD" when a detached HEAD is rebased: no branch.
		if br, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "refs/heads/"); ok && br != "" {
			info.Branch, info.Detached, info.Rebasing = br, false, true
		}
		return
	}
}

// discover walks up from dir as git does without GIT_DIR to the first
// directory with a .git entry, and checks the owners git checks (the work
// tree's top, the .git entry as lstat has it and, for a gitdir file, the
// git directory it names): one stat more than the walk (two for a gitdir
// file), and git's configuration is read only if an owner differs.
func discover(dir string, e env.Env) (*Info, error) {
	files := e.Files()
	root, gitPath, gitUID := filepath.Clean(dir), "", uint32(0)
	var st rawfile.FileInfo
	for {
		p := filepath.Join(root, ".git")
		var err error
		if st, err = files.Lstat(p); err == nil {
			gitUID = st.Uid
			if st.IsSymlink() { // rare: its type is the target's
				st, err = files.Stat(p)
			}
			if err == nil && (st.IsDir() || st.IsRegular()) {
				gitPath = p
				break
			}
		}
		if filepath.Dir(root) == root {
			return nil, ErrNotRepository
		}
		root = filepath.Dir(root)
	}
	isFile := st.IsRegular()
	info := &Info{Root: root, env: e}
	top, err := files.Stat(root)
	if err == nil {
		err = info.setGitDir(gitPath, isFile, isFile)
	}
	dirUID := gitUID
	if err == nil && isFile {
		st, err = files.Stat(info.GitDir)
		dirUID = st.Uid
	}
	if err == nil {
		err = checkOwners(root, []owned{{root, top.Uid}, {gitPath, gitUID}, {info.GitDir, dirUID}}, e)
	}
	if err != nil {
		return nil, err
	}
	return info, nil
}

// setGitDir sets the git directories from p, a git directory or (isFile)
// a "gitdir: PATH" file (a linked worktree, a submodule). common reads the
// common directory a linked worktree's git directory names: a .git
// directory found by walking up is its own, and a render saves the failed
// open.
func (info *Info) setGitDir(p string, isFile, common bool) error {
	info.GitDir = p
	if isFile {
		b, err := readSmall(info.env.Files(), p)
		if err != nil {
			return err
		}
		line, _, _ := strings.Cut(string(b), "\n")
		gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return fmt.Errorf("%s: not a gitdir file", p)
		}
		info.GitDir = under(filepath.Dir(p), strings.TrimSpace(gd))
	}
	info.CommonDir = info.GitDir
	if !common {
		return nil
	}
	if b, err := readSmall(info.env.Files(), filepath.Join(info.GitDir, "commondir")); err == nil {
		info.CommonDir = under(info.GitDir, strings.TrimSpace(string(b)))
	}
	return nil
}

// under is p, cleaned, relative to dir unless absolute.
func under(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// explicitGitDir is the repository GIT_DIR names (a git directory or a
// gitdir file), relative to dir. git checks no owner then: whoever set
// GIT_DIR chose the repository.
func explicitGitDir(dir, v string, e env.Env) (*Info, error) {
	if v == "" {
		return nil, notRepository("GIT_DIR is set but empty")
	}
	p, st, err := absStat(dir, v, e.Files())
	if err != nil || !(st.IsDir() || st.IsRegular()) {
		return nil, notRepository("GIT_DIR=" + v + " is not a git repository")
	}
	info := &Info{Root: filepath.Clean(dir), Env: []string{"GIT_DIR=" + p}, env: e}
	// GIT_DIR may name a linked worktree's git directory itself.
	if err := info.setGitDir(p, st.IsRegular(), true); err != nil {
		return nil, notRepository("GIT_DIR=" + v + " is not a git repository: " + err.Error())
	}
	return info, nil
}

// workTree applies git's rule for the work tree when the environment
// names the repository: GIT_WORK_TREE if set (relative to dir), else, with
// GIT_DIR, dir itself (core.worktree and core.bare move only the work
// tree, which nothing gh asks git depends on). Env gets both variables,
// absolute.
func (info *Info) workTree(dir string) error {
	v, ok := info.env.Lookup("GIT_WORK_TREE")
	if !ok {
		return nil
	}
	if info.Env == nil {
		info.Env = []string{"GIT_DIR=" + filepath.Join(info.Root, ".git")} // found by walking up
	}
	if v == "" {
		return notRepository("GIT_WORK_TREE is set but empty")
	}
	wt, st, err := absStat(dir, v, info.env.Files())
	if err != nil || !st.IsDir() {
		// gh would run in it: no guessing at another directory.
		return notRepository("GIT_WORK_TREE=" + v + " is not a directory")
	}
	info.Root = wt
	info.Env = append(info.Env, "GIT_WORK_TREE="+wt)
	return nil
}

// absStat is p, relative to dir, as the kernel resolves it from there
// (cleaning is exact unless a ".." may climb out of a symbolic link,
// which only the file system can tell), and what it names.
func absStat(dir, p string, files rawfile.Reader) (string, rawfile.FileInfo, error) {
	if !filepath.IsAbs(p) {
		p = dir + "/" + p
	}
	var err error
	if strings.Contains(p+"/", "/../") {
		p, err = filepath.EvalSymlinks(p)
	} else {
		p = filepath.Clean(p)
	}
	var st rawfile.FileInfo
	if err == nil {
		st, err = files.Stat(p)
	}
	return p, st, err
}

func readSmall(files rawfile.Reader, p string) ([]byte, error) {
	// Non-blocking: a FIFO planted as HEAD must not hang the prompt.
	b, _, err := files.Read(p, maxFile, syscall.O_NONBLOCK, nil)
	return b, err
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvAdd is FNV-1a over each string's length and bytes (so that no two
// lists of strings run together alike), without hash/fnv's allocation.
func fnvAdd(h uint64, parts ...string) uint64 {
	for _, p := range parts {
		h ^= uint64(len(p))
		h *= fnvPrime
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= fnvPrime
		}
	}
	return h
}

// eachEntry calls fn for every key of a config file, in order, in one
// pass: section and key lower-cased (git's names are case-insensitive),
// the subsection as written, and the value still raw for configValue;
// hasVal is false for a bare key ("key" alone, which git reads as true).
//
// b is not copied (the render reads every config file git reads, and a
// copy of each cost as much as reading it): callers hand over a buffer
// they never write again (readSmall's), so the strings fn keeps may point
// into it.
func eachEntry(b []byte, fn func(section, sub, key, val string, hasVal bool)) {
	var section, sub string
	text := unsafe.String(unsafe.SliceData(b), len(b))
	for len(text) > 0 {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		l := strings.TrimSpace(line)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.LastIndexByte(l, ']')
			if end < 0 {
				section, sub = "", ""
				continue
			}
			head := strings.TrimSpace(l[1:end])
			section, sub = head, ""
			if i := strings.IndexAny(head, " \t"); i >= 0 {
				section = head[:i]
				sub = unquote(strings.TrimSpace(head[i:]))
			} else if i := strings.IndexByte(head, '.'); i >= 0 {
				// Deprecated [section.sub] form: subsection is lower-cased.
				section, sub = head[:i], strings.ToLower(head[i+1:])
			}
			section = strings.ToLower(section)
			// A key may follow the header on the same line.
			if rest := strings.TrimSpace(l[end+1:]); rest != "" {
				l = rest
			} else {
				continue
			}
		}
		key, val, hasVal := strings.Cut(l, "=")
		if !hasVal {
			// A bare key ends where a comment starts.
			if i := strings.IndexAny(key, " \t#;"); i >= 0 {
				key = key[:i]
			}
		}
		fn(section, sub, strings.ToLower(strings.TrimSpace(key)), val, hasVal)
	}
}

// configValue strips comments and surrounding quotes from a config value.
func configValue(v string) string {
	v = strings.TrimSpace(v)
	if strings.IndexAny(v, "\\\"#;") < 0 {
		return v // nothing to strip: no copy
	}
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case c == '"':
			inQuote = !inQuote
		case (c == '#' || c == ';') && !inQuote:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	// \" and \\ stand for themselves' second byte; other backslashes stay.
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		}
		b = append(b, s[i])
	}
	return string(b)
}

// splitURL cuts a remote URL in one of git's forms into its scheme
// with "://" lower-cased ("" for scp-like [user@]host:path), its host
// (user dropped, port kept) and its path; ok is false for a local path.
func splitURL(url string) (scheme, host, path string, ok bool) {
	if i := strings.Index(url, "://"); i >= 0 {
		scheme = strings.ToLower(url[:i+3])
		host, path, _ = strings.Cut(url[i+3:], "/")
	} else if colon := strings.IndexByte(url, ':'); colon > 0 && !strings.ContainsRune(url[:colon], '/') {
		host, path = url[:colon], url[colon+1:]
	} else {
		return "", "", "", false
	}
	if j := strings.LastIndexByte(host, '@'); j >= 0 {
		host = host[j+1:]
	}
	return scheme, host, path, true
}

// IsSSH reports whether url reaches its host over SSH (scp-like
// [user@]host:path, or an ssh, git+ssh or ssh+git scheme): the remotes
// whose host gh runs through the SSH configuration's aliases.
func IsSSH(url string) bool {
	scheme, host, _, ok := splitURL(url)
	return scheme == "ssh://" || scheme == "git+ssh://" || scheme == "ssh+git://" || scheme == "" && ok && host != ""
}

// Host extracts the host name from a remote URL in any of git's forms:
// scheme://[user@]host[:port]/path and scp-like [user@]host:path. It
// returns "" for local paths.
func Host(url string) string {
	scheme, h, _, _ := splitURL(url)
	if scheme != "" {
		if j := strings.IndexByte(h, ']'); strings.HasPrefix(h, "[") && j >= 0 {
			h = h[1:j]
		} else if j := strings.IndexByte(h, ':'); j >= 0 {
			h = h[:j]
		}
	}
	return strings.ToLower(h)
}
