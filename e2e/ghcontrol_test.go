package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// processesMarked lists live processes whose environment holds mark.
func processesMarked(mark string) []string {
	var out []string
	for _, p := range liveProcesses(func(p proc) bool { return bytes.Contains(p.env, []byte(mark)) }) {
		out = append(out, strconv.Itoa(p.pid)+": "+strings.ReplaceAll(string(p.cmdline), "\x00", " "))
	}
	return out
}

// peakRSSKiB runs prchip under GNU time when it is there.
func (w *world) refreshMeasured(dir string) (result, int64) {
	w.t.Helper()
	tm, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return w.run(dir, "refresh"), -1
	}
	c := exec.Command(tm, "-f", "RSS=%M", prchipBin, "refresh")
	c.Dir, c.Env = dir, w.env()
	var o, e strings.Builder
	c.Stdout, c.Stderr = &o, &e
	start := time.Now()
	err = c.Run()
	r := result{stdout: o.String(), stderr: e.String(), code: exitCode(err), took: time.Since(start)}
	var kb int64 = -1
	if i := strings.LastIndex(r.stderr, "RSS="); i >= 0 {
		kb, _ = strconv.ParseInt(strings.TrimSpace(r.stderr[i+4:]), 10, 64)
		r.stderr = r.stderr[:i]
	}
	return r, kb
}

// setsidChain is a gh 30 levels deep, each level started by the one above
// in a session of its own and staying alive; the deepest keeps starting
// more while it is being killed. The top level waits for the whole chain,
// then ends with %s.
const setsidChain = `n=${LEVEL:-0}
if [ "$n" -lt 30 ]; then
  LEVEL=$((n+1)) setsid "$0" &
else
  : > "$HOME/chain-ready"
  while :; do setsid sleep 30 & sleep 0.01; done
fi
if [ "$n" -eq 0 ]; then
  while [ ! -e "$HOME/chain-ready" ]; do sleep 0.01; done
  %s
fi
sleep 30`

// Fake gh programs that misbehave: every run ends within the timeout plus
// a second, leaves no process behind, stays small, and is classified.
func TestGhUnderControl(t *testing.T) {
	const json = `{"number":7,"title":"t","state":"OPEN","isDraft":false,"url":"https://github.localhost/o/r/pull/7"}`
	cases := []struct {
		name, script    string
		mode            os.FileMode
		dir             bool
		class, category string
	}{
		{"grandchild holds stdout", "sleep 30 &\necho '" + json + "'\nexit 0", 0o755, false, "validated", "pull_request"},
		{"setsid and keeps running", "setsid sleep 30 &\nsetsid sh -c 'sleep 30' &\nsleep 30", 0o755, false, "retryable", "timeout"},
		{"a 30-deep setsid chain, gh exits", fmt.Sprintf(setsidChain, "echo '"+json+"'; exit 0"), 0o755, false, "validated", "pull_request"},
		{"a 30-deep setsid chain, gh times out", fmt.Sprintf(setsidChain, "sleep 30"), 0o755, false, "retryable", "timeout"},
		{"ignores SIGTERM", "trap '' TERM\nwhile :; do sleep 1; done", 0o755, false, "retryable", "timeout"},
		{"prints 100 MB", "head -c 100000000 /dev/zero | tr '\\0' x\nexit 0", 0o755, false, "retryable", "bad_response"},
		{"coloured JSON", `printf '\033[1;38m{\033[m\033[1;34m"number"\033[m:7,"title":"\033[32mt\033[m","state":"OPEN","isDraft":false,"url":"u"}\n'`, 0o755, false, "validated", "pull_request"},
		{"reads stdin", "cat >/dev/null\necho '" + json + "'", 0o755, false, "validated", "pull_request"},
		{"exits 4", "echo 'To get started with GitHub CLI, please run:  gh auth login' >&2\nexit 4", 0o755, false, "auth_failure", "auth_required"},
		{"is a directory", "", 0o755, true, "missing_gh", "gh_missing"},
		{"lacks the exec bit", "echo '" + json + "'", 0o644, false, "missing_gh", "gh_missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := shellWorld(t)
			for _, tool := range []string{"setsid", "head", "tr"} {
				os.Symlink(need(t, tool), filepath.Join(w.bin, tool))
			}
			mark := "PRCHIP_TEST_MARK=" + strconv.FormatInt(time.Now().UnixNano(), 36)
			k, v, _ := strings.Cut(mark, "=")
			w.extra[k] = v
			os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
			os.WriteFile(w.configPath(), []byte("timeout = \"1s\"\n"), 0o600)
			gh := filepath.Join(w.bin, "gh")
			os.Remove(gh)
			if c.dir {
				os.Mkdir(gh, 0o755)
			} else {
				os.WriteFile(gh, []byte("#!/bin/sh\n"+c.script+"\n"), c.mode)
			}
			r, rssKiB := w.refreshMeasured(w.repo)
			if r.took > 2*time.Second {
				t.Errorf("refresh took %v (timeout 1 s)", r.took)
			}
			s := w.status(w.repo)
			if s.class() != c.class || s.category() != c.category {
				t.Errorf("class %s/%s, want %s/%s (detail %q)", s.class(), s.category(), c.class, c.category, s.LastOutcome.Detail)
			}
			time.Sleep(100 * time.Millisecond)
			if left := processesMarked(mark); len(left) > 0 {
				for _, p := range left {
					pid, _ := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
					if pr, err := os.FindProcess(pid); err == nil {
						pr.Kill()
					}
				}
				t.Fatalf("processes left behind:\n%s", strings.Join(left, "\n"))
			}
			if rssKiB > 64<<10 {
				t.Errorf("prchip's peak RSS was %d KiB", rssKiB)
			}
			if rssKiB < 0 && os.Getenv("CI") == "true" {
				t.Error("GNU time is missing: memory not checked")
			}
		})
	}
}

// A user's environment that would colour, page or debug gh's output does
// not break the JSON from the real gh.
func TestRealGhWithHostileEnvironment(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 31, Title: "env"})
	for k, v := range map[string]string{"GH_FORCE_TTY": "1", "CLICOLOR_FORCE": "1", "GH_DEBUG": "api", "DEBUG": "1", "PAGER": "less", "GH_PAGER": "less", "NO_COLOR": ""} {
		w.extra[k] = v
	}
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Chip != "#31" || s.class() != "validated" {
		t.Fatalf("chip %q class %s/%s detail %q", s.Chip, s.class(), s.category(), s.LastOutcome.Detail)
	}
}
