package shellhooks

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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

// memoChip is the memo's chip in these tests: an escape and a backslash,
// which the line holds escaped and the hook decodes with @E.
const memoChip = "\x1b[1m#9\\"

// memoAsk runs the hook's _prchip_ask twice in real bash, in cwd, with
// the worker's FIFOs in dir (fifoPair) and its pid wpid: a first, full
// question, answered "#1" by a stand-in worker that answers the first
// asks requests it reads ("#1", "#2", ...), then between, then the
// second question. It returns "rc:PRCHIP" of each, and fails if the
// stand-in did not get its asks requests or more were written.
func memoAsk(t *testing.T, dir, cwd string, wpid, asks int, between string, env ...string) []string {
	t.Helper()
	bash := testenv.Need(t, "bash")
	req, resp := testenv.FIFOPair(t, dir)
	served := make(chan struct{})
	go func() {
		defer close(served)
		in := bufio.NewReader(req)
		for i := 1; i <= asks; i++ {
			r, err := ReadRequest(in)
			if err != nil {
				return
			}
			resp.Write(BashFrame(r.ID, "#"+strconv.Itoa(i)))
		}
	}()
	script := askFunction(t) + `
_prchip_wdir=$1 _prchip_id=1 _prchip_dirty=0 _prchip_once= _prchip_budget=5000000 _prchip_wpid=$2 _prchip_key= _prchip_mk=
cd "$3" || exit 9
_prchip_ask
printf '%s:%s\n' "$_prchip_rc" "$PRCHIP"
` + between + `
PRCHIP=
_prchip_ask
printf '%s:%s\n' "$_prchip_rc" "$PRCHIP"`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "-c", script, "bash", dir, strconv.Itoa(wpid), cwd, t.TempDir())
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatalf("the worker got fewer than %d requests; the hook printed %q", asks, out)
	}
	// Nothing more in the request FIFO: the hook wrote no other request.
	req.SetReadDeadline(time.Now())
	if n, err := req.Read(make([]byte, 4096)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a request more than the %d answered (%d bytes, %v)", asks, n, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// writeMemo puts the memo line for memoChip standing until then in dir,
// as a worker that is this test process would write it.
func writeMemo(t *testing.T, dir string, until time.Time) {
	t.Helper()
	st, ok := proc.ReadStat(os.Getpid()) // the worker the hook is told of: this process
	if !ok || st.Start == "" {
		t.Fatal("no start time in /proc/self/stat")
	}
	if err := os.WriteFile(filepath.Join(dir, MemoFile), Memo(true, until, st.Start, memoChip), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A prompt that would send the same request as the last answered one (the
// same $PWD and variables, a token among them) with the worker's memo
// standing, the worker alive, takes the chip from the memo, escapes
// decoded, and writes no request.
func TestBashAskTakesTheMemo(t *testing.T) {
	dir, cwd := t.TempDir(), t.TempDir()
	writeMemo(t, dir, time.Now().Add(time.Hour))
	got := memoAsk(t, dir, cwd, os.Getpid(), 1, "", "GH_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz")
	if want := []string{"0:#1", "0:" + memoChip}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// Each reason for the hook to ask the worker although a memo is there
// (or not): the second question is sent, and its answer shown.
func TestBashAskAsksDespiteTheMemo(t *testing.T) {
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	stopped := exec.Command("sleep", "60")
	if err := stopped.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stopped.Process.Kill(); stopped.Wait() }()
	stopped.Process.Signal(syscall.SIGSTOP)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", stopped.Process.Pid)); strings.Contains(string(b), ") T ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sleep did not stop")
		}
	}
	standing := time.Now().Add(time.Hour)
	for _, c := range []struct {
		name    string
		until   time.Time // the memo's time; zero: no memo
		owner   int       // the memo's owner; 0: the test's
		wpid    int
		between string
		env     string // another variable for both questions
	}{
		{name: "an invalidation pending", until: standing, between: "_prchip_dirty=1"},
		{name: "another directory", until: standing, between: `cd "$4"`},
		{name: "the memo's time past", until: time.Unix(1000, 0)},
		{name: "no memo"},
		{name: "the memo another user's", until: standing, owner: 65534},
		{name: "the worker gone", until: standing, wpid: exited.ProcessState.Pid()},
		{name: "the worker stopped", until: standing, wpid: stopped.Process.Pid},
		// The worker's pid names a live process that did not write the
		// memo (its start time differs), as a reused pid would.
		{name: "the pid another process's", until: standing, wpid: other.Process.Pid},
		{name: "git -c variables", until: standing, between: "export GIT_CONFIG_COUNT=1"},
		{name: "another token of the same length", until: standing, between: "GH_TOKEN=${GH_TOKEN%??????}zzzzzz"},
		{name: "the token no longer exported", until: standing, between: "export -n GH_TOKEN"},
		// A proxy URL's last six characters are its port, not a checksum:
		// another password of the same length is another request.
		{name: "another proxy password of the same length", until: standing,
			env: "HTTPS_PROXY=http://u:oldpass@proxy.example:3128", between: "HTTPS_PROXY=http://u:newpass@proxy.example:3128"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, cwd := t.TempDir(), t.TempDir()
			if !c.until.IsZero() {
				writeMemo(t, dir, c.until)
			}
			if c.owner != 0 {
				if err := os.Chown(filepath.Join(dir, MemoFile), c.owner, c.owner); err != nil {
					t.Skipf("cannot give the memo away: %v", err)
				}
			}
			wpid := c.wpid
			if wpid == 0 {
				wpid = os.Getpid()
			}
			env := []string{"GH_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz"}
			if c.env != "" {
				env = append(env, c.env)
			}
			got := memoAsk(t, dir, cwd, wpid, 2, c.between, env...)
			if want := []string{"0:#1", "0:#2"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// A memo that is not the worker's line (not a regular file: a FIFO or a
// directory, as another user could plant once the worker's directory is
// gone and its name free in /tmp; or a line cut short, or garbage) is no
// answer: the hook neither blocks on it nor prints an error, under the
// user's set -eu too, and asks the worker.
func TestBashAskMemoNotALine(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, memo string)
	}{
		{"a FIFO", func(t *testing.T, memo string) {
			if err := syscall.Mkfifo(memo, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a directory", func(t *testing.T, memo string) {
			if err := os.Mkdir(memo, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"cut short", func(t *testing.T, memo string) {
			if err := os.WriteFile(memo, []byte("99999"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"garbage", func(t *testing.T, memo string) {
			if err := os.WriteFile(memo, []byte("zzzzzzzzzz \\x\\\\%s$(false)\n\x00\xff"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty", func(t *testing.T, memo string) {
			if err := os.WriteFile(memo, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, cwd := t.TempDir(), t.TempDir()
			c.plant(t, filepath.Join(dir, MemoFile))
			got := memoAsk(t, dir, cwd, os.Getpid(), 2, "set -eu", "GH_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz")
			if want := []string{"0:#1", "0:#2"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// The memo's key (_prchip_key, set once a full question got its answer)
// stays in the shell between prompts, so it keeps of a token only a
// fingerprint, its length and last six characters; while a proxy URL
// holds a password there is no key at all (no memo is taken), as a proxy
// is kept whole (TestBashAskKeepsNoSecret, for the question's variables).
func TestBashAskKeyKeepsOnlyAFingerprint(t *testing.T) {
	bash := testenv.Need(t, "bash")
	const token, proxy = "ghp_KEEPNOT0123456789abcdefghijklmnopqr", "http://u:KEEPNOTpw@proxy.example:3128"
	for _, c := range []struct {
		name  string
		proxy string
		key   bool
	}{
		{"a token", "http://proxy.example:3128", true},
		{"a token and a proxy with a password", proxy, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, cwd := t.TempDir(), t.TempDir()
			req, resp := testenv.FIFOPair(t, dir)
			go func() {
				if r, err := ReadRequest(bufio.NewReader(req)); err == nil {
					resp.Write(BashFrame(r.ID, "#1"))
				}
			}()
			script := askFunction(t) + `
_prchip_wdir=$1 _prchip_id=1 _prchip_dirty=0 _prchip_once= _prchip_budget=5000000 _prchip_wpid=$$ _prchip_key= _prchip_mk=
cd "$2" || exit 9
_prchip_ask
unset GH_TOKEN HTTPS_PROXY
printf 'rc=%s key=%s\n' "$_prchip_rc" "${#_prchip_key}"
set`
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--norc", "-c", script, "bash", dir, cwd)
			cmd.Env = append(os.Environ(), "GH_TOKEN="+token, "HTTPS_PROXY="+c.proxy)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if keyed := !strings.Contains(string(out), "rc=0 key=0\n"); !strings.Contains(string(out), "rc=0 key=") || keyed != c.key {
				t.Fatalf("a key after the answer: %v, want %v:\n%.300s", keyed, c.key, out)
			}
			var key string
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, "KEEPNOT") {
					t.Errorf("after the question, the shell still holds a secret: %.100s", l)
				}
				if k, ok := strings.CutPrefix(l, "_prchip_key="); ok {
					key = k
				}
			}
			if fp := fmt.Sprint(len(token)) + token[len(token)-6:]; c.key && !strings.Contains(key, fp) {
				t.Errorf("the key %.300s has no fingerprint %q", key, fp)
			}
		})
	}
}
