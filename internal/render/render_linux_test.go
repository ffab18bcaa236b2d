package render

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/internal/testenv"
)

// The tests run in a home of their own (testenv.Isolate).
func TestMain(m *testing.M) { testenv.Main(m) }

// home is a user's home with a repository on a branch with a GitHub
// remote, a global git config that includes another file, prchip's
// configuration and gh's configuration directory with a hosts.yml.
type home struct {
	dir, repo string
	vars      map[string]string
}

func newHome(t *testing.T, git string) *home {
	t.Helper()
	dir := t.TempDir()
	h := &home{dir: dir, repo: filepath.Join(dir, "src", "demo"), vars: map[string]string{
		"HOME": dir, "PATH": filepath.Join(dir, "bin"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "GIT_CONFIG_NOSYSTEM": "1",
		"GH_CONFIG_DIR": filepath.Join(dir, "ghconfig"), "GH_HOST": fakegithub.Host}}
	for p, body := range map[string]string{
		".gitconfig":                   "[include]\n\tpath = extra.inc\n",
		"extra.inc":                    "[push]\n\tdefault = simple\n",
		"config/prchip/config.toml":    "format = \"PR {number}\"\n",
		"ghconfig/hosts.yml":           fakegithub.Host + ":\n    user: octo\n    git_protocol: https\n",
		"ghconfig/config.yml":          "git_protocol: https\n",
		"state/prchip/.keep-directory": "",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(h.vars["PATH"], 0o755)
	testenv.DemoRepo(t, git, h.repo, fakegithub.Host, env.Of(h.vars).Environ())
	return h
}

// request renders h's repository in e, never starting a refresh.
func (h *home) request(e env.Env) Request {
	return Request{Env: e, Dir: h.repo, Shell: sanitize.Zsh, NoRefresh: true,
		State:  filepath.Join(h.dir, "state", "prchip", "state"),
		Config: filepath.Join(h.dir, "config", "prchip", "config.toml")}
}

// tracked renders h's repository with a tracker and returns the chip and
// the paths the tracker was told.
func (h *home) tracked(e env.Env) (string, map[string]bool) {
	var mu sync.Mutex
	seen := map[string]bool{}
	q := h.request(e.Tracked(func(p string, _ bool) { mu.Lock(); seen[p] = true; mu.Unlock() }))
	return Render(q).Text, seen
}

// Every file the render opens (as the kernel reports the opens, through
// inotify on every directory of the home) was told to the request's
// tracker, and the tracker hears of the repository's HEAD and config, the
// global git config and the file it includes, prchip's configuration, the
// state file and gh's hosts.yml: a read that passed the tracker by would
// be a change the worker's answer memory never sees.
func TestRenderTellsItsTrackerEveryFileItOpens(t *testing.T) {
	git, gh := testenv.Need(t, "git"), testenv.Need(t, "gh")
	h := newHome(t, git)
	os.Symlink(gh, filepath.Join(h.vars["PATH"], "gh"))
	srv, err := fakegithub.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "tracked"})
	for _, kv := range srv.GhEnv(h.vars["GH_CONFIG_DIR"]) {
		k, v, _ := strings.Cut(kv, "=")
		h.vars[k] = v
	}
	// The state: a refresh with the real gh, in process.
	eng := Engine(h.request(env.Of(h.vars)))
	if _, err := eng.Refresh(context.Background(), eng.Gather(), chip.RefreshOptions{}); err != nil {
		t.Fatal(err)
	}

	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	defer unix.Close(fd)
	dirs := map[int32]string{}
	filepath.WalkDir(h.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if d.Name() == "objects" || d.Name() == "bin" {
				return filepath.SkipDir // never read by a render, and many
			}
			if wd, err := unix.InotifyAddWatch(fd, p, unix.IN_OPEN); err == nil {
				dirs[int32(wd)] = p
			}
		}
		return nil
	})

	// What the kernel reports opened: names in the directories watched.
	opens := func() (opened []string) {
		buf := make([]byte, 64<<10)
		for {
			n, err := unix.Read(fd, buf)
			if err != nil || n <= 0 {
				return opened
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
				if p := filepath.Join(dirs[ev.Wd], name); name != "" && !slices.Contains(opened, p) {
					opened = append(opened, p)
				}
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
	opens() // the walk's own

	text, seen := h.tracked(env.Of(h.vars))
	if text != "PR 42" {
		t.Fatalf("chip %q, want the PR the refresh found", text)
	}
	opened := opens()
	if len(opened) == 0 {
		t.Fatal("inotify saw the render open nothing")
	}
	for _, p := range opened {
		if !seen[p] {
			t.Errorf("the render opened %s without telling its tracker", p)
		}
	}
	for _, p := range []string{
		filepath.Join(h.repo, ".git", "HEAD"), filepath.Join(h.repo, ".git", "config"),
		filepath.Join(h.dir, ".gitconfig"), filepath.Join(h.dir, "extra.inc"),
		filepath.Join(h.dir, "config", "prchip", "config.toml"), filepath.Join(h.dir, "state", "prchip", "state"),
		filepath.Join(h.vars["GH_CONFIG_DIR"], "hosts.yml"),
	} {
		if !seen[p] {
			t.Errorf("the tracker was not told of %s (told: %v)", p, seen)
		}
	}
}

// Two renders at once, each with its own tracker, are each told only of
// their own files: the tracker travels with the request, and is not one
// hook of the process, which the second render would take over while the
// first still reads. The renders are made to overlap: the first waits at
// its first path until the second has begun, and the second at its first
// until the first has read once more (or ended).
func TestConcurrentRendersKeepTheirTrackersApart(t *testing.T) {
	git := testenv.Need(t, "git")
	homes := []*home{newHome(t, git), newHome(t, git)}
	seen := make([][]string, len(homes))
	step := []chan struct{}{make(chan struct{}), make(chan struct{}), make(chan struct{})}
	var once [3]sync.Once
	signal := func(i int) { once[i].Do(func() { close(step[i]) }) }
	var wg sync.WaitGroup
	render := func(i int) {
		defer wg.Done()
		defer signal(2 - i) // ended: nothing to wait for
		e := env.Of(homes[i].vars).Tracked(func(p string, _ bool) {
			seen[i] = append(seen[i], p)
			switch {
			case i == 0 && len(seen[0]) == 1:
				signal(0)
				waitFor(step[1])
			case i == 0:
				signal(2)
			case len(seen[1]) == 1:
				signal(1)
				waitFor(step[2])
			}
		})
		Render(homes[i].request(e))
	}
	wg.Add(2)
	go render(0)
	waitFor(step[0])
	go render(1)
	wg.Wait()
	for i, h := range homes {
		if !slices.Contains(seen[i], filepath.Join(h.repo, ".git", "HEAD")) {
			t.Errorf("render %d: its tracker missed its own HEAD: %v", i, seen[i])
		}
		for _, p := range seen[i] {
			if !strings.HasPrefix(p, h.dir+"/") && strings.HasPrefix(p, filepath.Dir(h.dir)+"/") && !strings.HasPrefix(h.dir, p+"/") {
				t.Errorf("render %d was told of %s, another render's", i, p)
			}
		}
	}
}

// waitFor waits for c to close, or a minute at most: a render that never
// reads must fail the test, not hang it.
func waitFor(c <-chan struct{}) {
	select {
	case <-c:
	case <-time.After(time.Minute):
	}
}
