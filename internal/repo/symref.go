package repo

import (
	"errors"
	"path/filepath"
	"strings"
)

// Symref is the target of a symbolic ref file such as
// refs/remotes/origin/HEAD ("ref: refs/remotes/origin/main"), read as a
// loose file only (git keeps symbolic refs loose).
func Symref(info *Info, ref string) (string, error) {
	rest, ok := strings.CutPrefix(ref, "refs/")
	if !ok || !safeRefName(rest) {
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
