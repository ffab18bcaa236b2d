package repo

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
)

// BranchOid is the commit the checked-out branch points at, read as git
// resolves a branch: the loose ref under the common directory, else its
// line in packed-refs. "" when it cannot be told (no branch, an unborn
// one, a name git would refuse, a symbolic ref, a reftable repository).
// The render reads it to notice that the branch moved since sync was
// computed: one small file read, and packed-refs only for a packed branch.
func (info *Info) BranchOid() string {
	if info.Detached {
		return ""
	}
	return info.RefOid("refs/heads/" + info.Branch)
}

// RefOid is the commit a full ref name ("refs/remotes/origin/x") points
// at, read as BranchOid reads a branch; "" when it cannot be told.
func (info *Info) RefOid(ref string) string {
	if !safeRefName(ref) {
		return ""
	}
	if loose, err := readSmall(info.env.Files(), filepath.Join(info.CommonDir, filepath.FromSlash(ref))); err == nil {
		oid := strings.TrimSpace(string(loose))
		if !IsOid(oid) {
			return ""
		}
		return strings.ToLower(oid)
	}
	packed, err := readSmall(info.env.Files(), filepath.Join(info.CommonDir, "packed-refs"))
	if err != nil {
		return ""
	}
	for line := range bytes.Lines(packed) {
		oid, name, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte{' '})
		if ok && string(name) == ref && IsOid(string(oid)) {
			return strings.ToLower(string(oid))
		}
	}
	return ""
}

// Symref is the target of a symbolic ref file such as
// refs/remotes/origin/HEAD ("ref: refs/remotes/origin/main"), read as a
// loose file only (git keeps symbolic refs loose).
func Symref(info *Info, ref string) (string, error) {
	if !safeRefName(ref) {
		return "", errors.New("not a ref name")
	}
	b, err := readSmall(info.env.Files(), filepath.Join(info.CommonDir, filepath.FromSlash(ref)))
	if err != nil {
		return "", err
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return "", errors.New(ref + " is not a symbolic ref")
	}
	return strings.TrimSpace(target), nil
}

// safeRefName is a full ref name ("refs/...") without what git's
// check-ref-format refuses that would let it read outside refs/.
func safeRefName(ref string) bool {
	// No part may start with '.': no "..", no hidden name.
	b, ok := strings.CutPrefix(ref, "refs/")
	return ok && b != "" && !strings.Contains(b, "..") && !strings.ContainsAny(b, "\x00\\") &&
		!strings.HasPrefix(b, "/") && !strings.HasSuffix(b, "/") && !strings.Contains(b, "//") &&
		!strings.HasPrefix(b, ".") && !strings.Contains(b, "/.")
}

// IsOid reports whether s is a full SHA-1 or SHA-256 object name.
func IsOid(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Sync values: how the local branch stands against the PR's head, as
// the refresh's git says (chip's sync).
const (
	SyncSame       = "same"
	SyncAhead      = "ahead"       // local commits not pushed
	SyncBehind     = "behind"      // the PR has commits the branch lacks
	SyncDiverged   = "diverged"    // both
	SyncNotFetched = "not_fetched" // the head commit is not in the repository
	// SyncUnknown: a bound stopped git (its time, its largest allocation,
	// object stores it skipped), so the refresh records that it could not
	// tell instead of running out of memory or time.
	SyncUnknown = "unknown"
)
