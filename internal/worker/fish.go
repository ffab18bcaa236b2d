package worker

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/prchip/prchip/shellhooks"
)

// removeFishFiles removes a fish worker's directory (named by the hook's
// mktemp template, the user's alone) and the files the protocol puts there:
// the hook leaves this to the one-shot `prchip prompt --end-worker`, which
// it runs anyway when it gives up on a worker, rather than start rm.
func removeFishFiles(dir string) {
	if !filepath.IsAbs(dir) || !strings.HasPrefix(filepath.Base(dir), shellhooks.FishDirPrefix) || privateChannel(dir) != nil {
		return
	}
	for _, n := range []string{shellhooks.FishRequest, shellhooks.FishAnswer, shellhooks.FishAnswer + ".tmp"} {
		os.Remove(filepath.Join(dir, n))
	}
	os.Remove(dir)
}
