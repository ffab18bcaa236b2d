package repo

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/prchip/prchip/internal/rawfile"
)

// ConfigFiles are the git configuration files outside the repository, as
// git finds them: the system file and the user's global ones (SPEC 4: gh's
// PR lookup reads them through git, so they belong in the fingerprint).
func ConfigFiles() []string {
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		sys := os.Getenv("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		files = append(files, sys)
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		return append(files, g)
	}
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

// ConfigFilesID is the identity (size and modification time) of
// ConfigFiles, one stat each: it changes when any of them does.
func ConfigFilesID() string {
	var b []byte
	for _, f := range ConfigFiles() {
		b = append(b, f...)
		if st, err := rawfile.Stat(f); err == nil {
			b = append(b, ' ')
			b = strconv.AppendInt(b, st.Size, 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, st.MtimeNs, 10)
		}
		b = append(b, 0)
	}
	return string(b)
}
