package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prchip/prchip/internal/env"
)

// UnsafeError is a repository git refuses to open ("detected dubious
// ownership", git's safe.directory rule): its work tree's top, its .git
// entry or its git directory belongs to another user, and no
// safe.directory setting allows it. gh, which runs git, fails there.
type UnsafeError struct {
	// Root is the work tree's top, as found; Path the first of the paths
	// git checks that someone else owns, and Owner that user's id.
	Root, Path string
	Owner      uint32
	// Allow is the value of safe.directory that allows the repository:
	// the real path of its work tree, which git compares the settings with.
	Allow string
}

func (e *UnsafeError) Error() string {
	if e.Path == e.Root {
		return fmt.Sprintf("dubious ownership: the repository at %s belongs to uid %d, not to you, and no safe.directory setting allows it",
			e.Root, e.Owner)
	}
	return fmt.Sprintf("dubious ownership: %s belongs to uid %d, not to you, and no safe.directory setting allows the repository at %s",
		e.Path, e.Owner, e.Root)
}

// owned is a path git checks and its owner.
type owned struct {
	path string
	uid  uint32
}

// euid is whom git compares owners with; it does not change while we run.
var euid = uint32(os.Geteuid())

// ownedByUser is git's is_path_owned_by_current_uid: the effective user's,
// and for root also what belongs to the user sudo ran as (SUDO_UID).
func ownedByUser(uid uint32, e env.Env) bool {
	if uid == euid {
		return true
	}
	if euid != 0 {
		return false
	}
	// git reads it with strtoul and ignores it when empty or not a number.
	n, err := strconv.ParseUint(e.Get("SUDO_UID"), 10, 64)
	return err == nil && uint32(n) == uid
}

// checkOwners is git's ensure_valid_ownership: every path must be the
// user's, or safe.directory must allow the work tree at root.
func checkOwners(root string, paths []owned, e env.Env) error {
	for _, p := range paths {
		if ownedByUser(p.uid, e) {
			continue
		}
		// The rare case: only now are the owner's real path and git's
		// configuration looked at.
		real, err := filepath.EvalSymlinks(root)
		if err == nil && safeDirectoryAllows(real, e) {
			return nil
		}
		if err != nil {
			real = root
		}
		return &UnsafeError{Root: root, Path: p.path, Owner: p.uid, Allow: real}
	}
	return nil
}

// safeDirectoryAllows reports whether git's safe.directory settings allow
// the repository whose work tree's real path is real. git reads them from
// its protected configuration only (system, global, command line; never
// the repository's own, which whoever owns the repository writes), in
// order: "*" allows all, an empty value forgets what came before, a path
// is compared after normalisation, and one ending in "/*" allows what lies
// below it (git 2.46). gh runs git in the work tree's top (cwd), which is
// where "." allows.
func safeDirectoryAllows(real string, e env.Env) bool {
	allowed := false
	// Read as git reads its protected configuration, before it knows a
	// repository: no repository config, and includeIf's gitdir: and
	// onbranch: conditions are false.
	walkConfig(&Info{env: e}, func(section, sub, key, val string, hasVal bool) {
		if section != "safe" || sub != "" || key != "directory" {
			return
		}
		switch v := configValue(val); {
		case !hasVal || v == "":
			allowed = false
		case v == "*" || safeDirectoryMatches(v, real, e):
			allowed = true
		}
	})
	return allowed
}

// maxIncludeDepth is git's bound on nested include.path.
const maxIncludeDepth = 10

// safeDirectoryMatches compares one safe.directory path with the work
// tree's real path, as git 2.46 does.
func safeDirectoryMatches(value, real string, e env.Env) bool {
	p, ok := expandUser(value, e)
	if !ok {
		return false
	}
	if p == "." {
		return true // gh runs git at the top of the work tree
	}
	if !filepath.IsAbs(p) {
		return false // git warns and ignores it
	}
	norm, ok := realPathLoose(p)
	if !ok {
		return false
	}
	if prefix, ok := strings.CutSuffix(norm, "*"); ok && strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(real, prefix)
	}
	return norm == real
}

// realPathLoose is git's real_pathdup(p, 0): the real path, where the
// last component need not exist ("/srv/*" becomes realpath(/srv) + "/*").
func realPathLoose(p string) (string, bool) {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", false
	}
	return filepath.Join(parent, filepath.Base(p)), true
}

// expandUser is git's interpolate_path for "~" and "~user".
func expandUser(p string, e env.Env) (string, bool) {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok {
		return p, true
	}
	name, tail, _ := strings.Cut(rest, "/")
	home, ok := e.Lookup("HOME")
	if name != "" {
		u, err := user.Lookup(name)
		if err != nil {
			return "", false
		}
		home, ok = u.HomeDir, true
	}
	if !ok {
		return "", false
	}
	if tail == "" && !strings.Contains(rest, "/") {
		return home, true
	}
	return strings.TrimSuffix(home, "/") + "/" + tail, true
}
