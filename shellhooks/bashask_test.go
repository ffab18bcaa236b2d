package shellhooks

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	return snippet[start : start+end+4]
}

// The hook's own question (_prchip_ask, in real bash over real FIFOs)
// against a worker that answers at once, after the hook's poll, after a
// late answer to an older question, with a chip too long for one write,
// or not at all. Its reads wait with a timeout for a frame's first byte
// only, so each case also shows the rest of a frame is read whole.
func TestBashAskReadsFrames(t *testing.T) {
	bash := needBash(t)
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
			for _, f := range []string{"req", "resp"} {
				if err := syscall.Mkfifo(filepath.Join(dir, f), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			req, err := os.OpenFile(filepath.Join(dir, "req"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer req.Close()
			resp, err := os.OpenFile(filepath.Join(dir, "resp"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Close()
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
_prchip_wdir=$1 _prchip_id=1 _prchip_dirty=0 _prchip_once= _prchip_budget=50000 _prchip_wpid=0
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
