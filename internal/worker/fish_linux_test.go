package worker

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/shellhooks"
)

// fish's channel takes a directory only its own user can enter, as the
// hook's mktemp -d makes it; one open to others is refused, and so is a
// symbolic link to a directory.
func TestFishChannelMustBePrivate(t *testing.T) {
	for _, c := range []struct {
		name   string
		mode   os.FileMode
		linked bool
		ok     bool
	}{
		{"as the hook makes it", 0o700, false, true},
		{"others may enter", 0o711, false, false},
		{"the group may write", 0o770, false, false},
		{"through a symlink", 0o700, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, shellhooks.FishDirPrefix+"x")
			os.Mkdir(dir, 0o700)
			os.Chmod(dir, c.mode)
			if c.linked {
				os.Symlink(dir, filepath.Join(base, "link"))
				dir = filepath.Join(base, "link")
			}
			ch, err := openFishChannel(dir, os.Getpid())
			if c.ok != (err == nil) {
				t.Fatalf("openFishChannel: %v, want ok=%v", err, c.ok)
			}
			if ch != nil {
				ch.release()
			}
			if !c.ok && !c.linked && !errors.Is(err, errSharedChannel) {
				t.Fatalf("refused with %v, want %v", err, errSharedChannel)
			}
		})
	}
}

// The channel's round trip, with a shell that traps SIGURG (as fish's hook
// handles it) standing in for fish: a request written to the file is read
// once it is closed, half a request is not; the answer goes to the answer
// file whole; the shell is signalled only when the chip differs from the
// one the request said it shows, and a push rewrites the answer to the
// latest request. Ending while the shell lives leaves "end".
func TestFishChannelRoundTrip(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, shellhooks.FishDirPrefix+"x")
	os.Mkdir(dir, 0o700)
	got := filepath.Join(base, "got")
	sh := exec.Command("sh", "-c", `trap 'echo x >> "$0"' URG; : > "$0.ready"; while :; do sleep 0.02; done`, got)
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sh.Process.Kill(); sh.Wait() }()
	for i := 0; ; i++ {
		if _, err := os.Stat(got + ".ready"); err == nil {
			break
		}
		if i == 500 {
			t.Fatal("the stand-in shell did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ch, err := openFishChannel(dir, sh.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	signals := 0
	req := func(id, shown string) {
		r := shellhooks.Request{ID: id, Dir: "/somewhere", Env: map[string]string{"PATH": "/bin"}}
		b := r.Encode()
		// The shown field goes first among the name=value fields.
		i := strings.Index(string(b), "PATH=")
		b = append(append(append([]byte{}, b[:i]...), []byte("shown="+shown+"\x00")...), b[i:]...)
		if err := os.WriteFile(filepath.Join(dir, shellhooks.FishRequest), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	next := func(want string) {
		t.Helper()
		done := make(chan shellhooks.Request, 1)
		go func() { r, _ := ch.next(); done <- r }()
		select {
		case r := <-done:
			if r.ID != want || r.Dir != "/somewhere" || r.Env["PATH"] != "/bin" {
				t.Fatalf("request %+v, want id %s", r, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no request read")
		}
	}
	answer := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, shellhooks.FishAnswer))
		return string(b)
	}
	// The signals the shell got since the last look (its trap runs
	// between sleeps).
	drain := func() int {
		time.Sleep(300 * time.Millisecond)
		b, _ := os.ReadFile(got)
		n := strings.Count(string(b), "x") - signals
		signals += n
		return n
	}

	req("1", "#42")
	next("1")
	ch.Write(shellhooks.Answer("1", "#42"))
	if got := answer(); got != "1 #42\n" {
		t.Fatalf("answer file %q", got)
	}
	if n := drain(); n != 0 {
		t.Fatalf("signalled %d times for the chip already shown", n)
	}

	req("2", "#42")
	next("2")
	ch.Write(shellhooks.Answer("2", "#43"))
	if got, n := answer(), drain(); got != "2 #43\n" || n == 0 {
		t.Fatalf("answer %q, %d signals, want 2 #43 and a signal", got, n)
	}
	ch.Write(shellhooks.Push("#44"))
	if got, n := answer(), drain(); got != "2 #44\n" || n == 0 {
		t.Fatalf("after a push: answer %q, %d signals", got, n)
	}

	// Half a request (the shell writing the next one) is no request.
	os.WriteFile(filepath.Join(dir, shellhooks.FishRequest), []byte("prchip1\x003\x00/somewh"), 0o600)
	req("4", "#44")
	next("4")

	ch.close()
	if got := answer(); got != shellhooks.FishEnd+"\n" {
		t.Fatalf("after the end the answer file holds %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, shellhooks.FishRequest)); err == nil {
		t.Fatal("the request file stays")
	}
}

// A worker that starts after its shell has ended removes the directory
// the hook made for it: no one else would.
func TestFishWorkerOfAnEndedShellRemovesItsDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), shellhooks.FishDirPrefix+"x")
	os.Mkdir(dir, 0o700)
	os.WriteFile(filepath.Join(dir, shellhooks.FishRequest), []byte("prchip1\x001\x00/\x000\x00\x00"), 0o600)
	sh := exec.Command("true")
	if err := sh.Run(); err != nil {
		t.Fatal(err)
	}
	if err := runFish(Options{Files: dir, ShellPID: sh.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the directory stays: %v", err)
	}
}
