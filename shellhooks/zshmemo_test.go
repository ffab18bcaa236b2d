package shellhooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/testenv"
)

// zshMemoAsk runs the zsh hook's _prchip_ask once in real zsh (the whole
// snippet sourced, the user's nounset and warn_create_global on), with
// the worker's directory dir and its pid this process's, the key that of
// the last answered request (the same $PWD and variables): so the memo
// alone decides. No worker answers: a question asked instead ends at
// once (its FIFOs are /dev/null). It returns "rc:PRCHIP" and anything
// the hook printed.
func zshMemoAsk(t *testing.T, dir string) string {
	t.Helper()
	zsh := testenv.Need(t, "zsh")
	snippet, _ := Snippet("zsh", Options{Exe: "/x/prchip"})
	// The key as _prchip_ask builds it: its own lines, run alone.
	script := snippet + `
eval "_prchip_k() { emulate -L zsh; local -a kw; local key; $(print -r -- $functions[_prchip_ask] | command sed -n '/kw=(\$PWD/,/key=/p'); print -rn -- \$key }"
exec {_prchip_req}>/dev/null {_prchip_resp}</dev/null
_prchip_wdir=$1 _prchip_wpid=$2 _prchip_dirty=0 _prchip_key=$(_prchip_k) PRCHIP=none
[[ -n $_prchip_key ]] || { print no key; exit 9 }
setopt nounset warn_create_global
_prchip_ask
print -r -- "$?:$PRCHIP"`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, zsh, "-f", "-c", script, "zsh", dir, strconv.Itoa(os.Getpid()))
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// The zsh hook takes the worker's memo only as the worker writes it: a
// whole line (a write cut short, the disk full, leaves one without its
// newline, whose chip is cut too), in a regular file (a FIFO, as another
// user could plant once the worker's directory is gone and its name free
// in /tmp, must not block the prompt), and prints nothing under the
// user's options whatever it finds.
func TestZshAskTakesOnlyAWholeMemo(t *testing.T) {
	st, ok := proc.ReadStat(os.Getpid()) // the worker the hook is told of: this process
	if !ok || st.Start == "" {
		t.Fatal("no start time in /proc/self/stat")
	}
	line := Memo(false, time.Now().Add(time.Hour), st.Start, "#42")
	write := func(b []byte) func(t *testing.T, memo string) {
		return func(t *testing.T, memo string) {
			if err := os.WriteFile(memo, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, memo string)
		want  string
	}{
		{"whole", write(line), "0:#42"},
		{"cut short", write(line[:len(line)-2]), "1:none"},
		{"no memo", func(*testing.T, string) {}, "1:none"},
		{"garbage", write([]byte("zzzzzzzzzz " + st.Start + " #42\n")), "1:none"},
		{"a directory", func(t *testing.T, memo string) {
			if err := os.Mkdir(memo, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "1:none"},
		{"a FIFO", func(t *testing.T, memo string) {
			if err := syscall.Mkfifo(memo, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "1:none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.plant(t, filepath.Join(dir, MemoFile))
			if got := zshMemoAsk(t, dir); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
