package worker

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/prchip/prchip/shellhooks"
)

// removeFishFiles removes a fish worker's directory (named by the hook's
// mktemp template, the user's own) and the files the protocol puts there:
// the hook leaves this to the one-shot `prchip prompt --end-worker`, which
// it runs anyway when it gives up on a worker, rather than start rm.
func removeFishFiles(dir string) {
	if !filepath.IsAbs(dir) || !strings.HasPrefix(filepath.Base(dir), shellhooks.FishDirPrefix) {
		return
	}
	var st syscall.Stat_t
	if syscall.Lstat(dir, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR || st.Uid != uint32(os.Geteuid()) {
		return
	}
	for _, n := range []string{shellhooks.FishRequest, shellhooks.FishAnswer, shellhooks.FishAnswer + ".tmp"} {
		os.Remove(filepath.Join(dir, n))
	}
	os.Remove(dir)
}
