package repo

import (
	"os"
	"strconv"

	"github.com/prchip/prchip/internal/rawfile"
)

// ConfigFiles are the git configuration files outside the repository, as
// git finds them, in its order: the system file and the user's global ones
// (SPEC 4: gh's PR lookup reads them through git, so they belong in the
// fingerprint; safe.directory is read from them alone). A variable set but
// empty names no file, as in git.
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
