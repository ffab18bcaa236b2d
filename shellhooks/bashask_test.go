package shellhooks

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/testenv"
)

// askFunction is the bash hook's _prchip_ask as `prchip init bash` prints it.
func askFunction(t *testing.T) string {
	t.Helper()
	snippet, _ := Snippet("bash", Options{Exe: "/x/prchip"})
	start := strings.Index(snippet, "\n  _prchip_ask() {\n")
	if start < 0 {
		t.Fatal("no _prchip_ask in the bash snippet")
	}
	end := strings.Index(snippet[start:], "\n  }\n")
	// The budget for its first wait is two seconds here, not the hook's
	// 50 ms, so that a loaded machine does not turn a late answer into none.
	first := "_prchip_left=" + strconv.FormatFloat(Budget.Seconds(), 'f', -1, 64) + "\n"
	fn := snippet[start : start+end+4]
	if !strings.Contains(fn, first) {
		t.Fatalf("no %q in _prchip_ask", first)
	}
	return strings.Replace(fn, first, "_prchip_left=2\n", 1)
}

// The hook's own question (_prchip_ask, in real bash over real FIFOs)
// against a worker that answers at once, after the hook's poll, after a
// late answer to an older question, with a chip too long for one write,
// or not at all. Its reads wait with a timeout for a frame's first byte
// only, so each case also shows the rest of a frame is read whole.
func TestBashAskReadsFrames(t *testing.T) {
	bash := testenv.Need(t, "bash")
	type reply struct {
		delay time.Duration
		frame func(id string) []byte
	}
	answer := func(chip string) func(string) []byte {
		return func(id string) []byte { return BashFrame(id, chip) }
	}
	long := strings.Repeat("\x1b", 1100) // 4400 bytes escaped
	cases := []struct {
		name    string
		replies [][]reply // per question
		want    []string  // per question: rc:PRCHIP:wpid
	}{
		{"at once", [][]reply{{{0, answer("#42 ✓")}}}, []string{"0:#42 ✓:0"}},
		{"after the poll", [][]reply{{{30 * time.Millisecond, answer("\x1b[32m#7")}}}, []string{"0:\x1b[32m#7:0"}},
		{"hello first", [][]reply{{{0, func(string) []byte { return BashFrame("0", "4321") }}, {5 * time.Millisecond, answer("#1")}}}, []string{"0:#1:4321"}},
		{"a late answer first", [][]reply{{{0, func(string) []byte { return BashFrame("1", "old") }}, {5 * time.Millisecond, answer("#2")}}}, []string{"0:#2:0"}},
		{"too long, then the next question", [][]reply{{{0, answer(long)}}, {{0, answer("#3")}}}, []string{"3::0", "0:#3:0"}},
		{"no answer", [][]reply{{}}, []string{"2::0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			req, resp := testenv.FIFOPair(t, dir)
			go func() {
				in := bufio.NewReader(req)
				for _, rs := range c.replies {
					r, err := ReadRequest(in)
					if err != nil {
						return
					}
					for _, rp := range rs {
						time.Sleep(rp.delay)
						resp.Write(rp.frame(r.ID))
					}
				}
			}()
			script := askFunction(t) + `
_prchip_wdir=$1 _prchip_id=1 _prchip_dirty=0 _prchip_once= _prchip_budget=2000000 _prchip_wpid=0
for q in ` + strings.Repeat("x ", len(c.want)) + `; do
  PRCHIP= _prchip_ae="${HOME@A}"
  _prchip_ask
  printf '%s:%s:%s\n' "$_prchip_rc" "$PRCHIP" "$_prchip_wpid"
done`
			// A hook that hangs is killed (not timed: the guard is far off).
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, bash, "--norc", "-c", script, "bash", dir).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// The question's scratch variables are the shell's globals (no locals, for
// speed), so they must not keep what they carried once it is asked: a
// token, or a git -c value, would outlive `unset GH_TOKEN` (direnv leaving
// a project, say) and show in `set` or `declare -p`. Whether the worker
// answered, was gone, or the request was too large to send.
func TestBashAskKeepsNoSecret(t *testing.T) {
	bash := testenv.Need(t, "bash")
	const token, header = "ghp_KEEPNOT0123456789abcdefghijklmnopqr", "Authorization: bearer KEEPNOTvalue"
	for _, c := range []struct {
		name   string
		worker bool // FIFOs there and a worker answering
		long   bool // a working directory too long for the request
		want   string
	}{
		{"answered", true, false, "0"},
		{"worker gone", false, false, "1"},
		{"request too large", false, true, "3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, cwd := t.TempDir(), t.TempDir()
			if c.long {
				for range 20 { // 20 names of 200 bytes: over the request's 3500
					cwd = filepath.Join(cwd, strings.Repeat("d", 200))
				}
				if err := os.MkdirAll(cwd, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			if c.worker {
				req, resp := testenv.FIFOPair(t, dir)
				go func() {
					if r, err := ReadRequest(bufio.NewReader(req)); err == nil {
						resp.Write(BashFrame(r.ID, "#1"))
					}
				}()
			} else {
				dir = filepath.Join(dir, "gone")
			}
			// The secrets come in the environment, as the user's shell has them.
			script := askFunction(t) + `
_prchip_wdir=$1 _prchip_id=1 _prchip_dirty=0 _prchip_once= _prchip_budget=5000000 _prchip_wpid=0
cd "$2" || exit 9
_prchip_ask
unset GH_TOKEN GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0
printf 'rc=%s\n' "$_prchip_rc"
set`
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--norc", "-c", script, "bash", dir, cwd)
			cmd.Env = append(os.Environ(), "GH_TOKEN="+token, "GIT_CONFIG_COUNT=1",
				"GIT_CONFIG_KEY_0=http.extraHeader", "GIT_CONFIG_VALUE_0="+header)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(string(out), "rc="+c.want+"\n") {
				t.Fatalf("not the case meant (want rc=%s):\n%.300s", c.want, out)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, "KEEPNOT") {
					t.Errorf("after the question, the shell still holds a secret: %.100s", l)
				}
			}
		})
	}
}
