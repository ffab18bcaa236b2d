// Command bench measures the render path against `git rev-parse` in the
// same run, as ratios of medians (SPEC 9). It builds nothing: scripts/bench
// passes the prchip binary. Runs of the commands are interleaved so that
// machine noise hits all of them alike.
//
//	go run ./internal/bench -prchip ./prchip [-runs 400]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/internal/fakegithub"
)

var floor *string

func main() {
	bin := flag.String("prchip", "", "prchip binary (built with CGO_ENABLED=0)")
	floor = flag.String("floor", "", "a Go hello-world binary, measured as the process-start floor")
	runs := flag.Int("runs", 400, "runs of each command per scenario")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: bench -prchip PATH")
		os.Exit(2)
	}
	abs, _ := filepath.Abs(*bin)
	if err := run(abs, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type world struct {
	home, repo string
	env        []string
}

func setup(prchip string) (*world, *fakegithub.Server, error) {
	home, err := os.MkdirTemp("", "prchip-bench-")
	if err != nil {
		return nil, nil, err
	}
	srv, err := fakegithub.Start(0)
	if err != nil {
		return nil, nil, err
	}
	w := &world{home: home, repo: filepath.Join(home, "src", "demo")}
	w.env = append([]string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
	}, srv.GhEnv(filepath.Join(home, "gh"))...)
	os.MkdirAll(filepath.Join(home, "config", "prchip"), 0o700)
	// Warm state stays fresh for the whole run: no refresh is started.
	os.WriteFile(filepath.Join(home, "config", "prchip", "config.toml"), []byte("refresh_interval = \"24h\"\n"), 0o600)
	os.MkdirAll(w.repo, 0o755)
	for _, args := range [][]string{
		{"init", "-q", "-b", "feature"},
		{"-c", "user.name=b", "-c", "user.email=b@e", "commit", "-q", "--allow-empty", "-m", "x"},
		{"remote", "add", "origin", "https://" + fakegithub.Host + "/octo/demo.git"},
	} {
		if out, err := w.cmd("git", args...).CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("git %v: %v %s", args, err, out)
		}
	}
	srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Benchmark"})
	if out, err := w.cmd(prchip, "refresh").CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("prchip refresh: %v %s", err, out)
	}
	return w, srv, nil
}

func (w *world) cmd(name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(context.Background(), name, args...)
	c.Dir = w.repo
	c.Env = w.env
	return c
}

// pad adds n-1 other repositories' records to the state file.
func (w *world) pad(n int) error {
	s := &cache.Store{Path: filepath.Join(w.home, "state", "prchip", "state")}
	return s.Update(func(tx *cache.Tx) error {
		rec := tx.Repo(chip.RepoKey(w.repo))
		if rec == nil {
			return fmt.Errorf("no record for %s", w.repo)
		}
		for i := 1; i < n; i++ {
			tx.PutRepo(chip.RepoKey(fmt.Sprintf("/home/user/src/project-%03d", i)), rec)
		}
		return nil
	})
}

// peakRSS measures the render's peak RSS with GNU time, which forks for
// real: a child of this Go process reports this process's RSS (Go starts
// children with vfork semantics, and exec keeps the old high-water mark).
func peakRSS(w *world, argv []string) (int64, error) {
	tm, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return 0, fmt.Errorf("GNU time is not installed (apt-get install time)")
	}
	var max int64
	for range 10 {
		c := w.cmd(tm, append([]string{"-f", "%M"}, argv...)...)
		var errb strings.Builder
		c.Stderr = &errb
		if err := c.Run(); err != nil {
			return 0, err
		}
		var kb int64
		fmt.Sscan(strings.TrimSpace(errb.String()), &kb)
		if kb > max {
			max = kb
		}
	}
	return max, nil
}

type sample struct {
	name    string
	argv    []string
	env     []string
	times   []time.Duration
	lastOut string
}

func (w *world) measure(s *sample) error {
	c := w.cmd(s.argv[0], s.argv[1:]...)
	c.Env = append(c.Env, s.env...)
	var out strings.Builder
	c.Stdout = &out
	start := time.Now()
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.times = append(s.times, time.Since(start))
	s.lastOut = out.String()
	return nil
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func run(prchip string, runs int) error {
	w, srv, err := setup(prchip)
	if err != nil {
		return err
	}
	defer srv.Close()
	defer os.RemoveAll(w.home)
	fmt.Printf("prchip render benchmark: %d interleaved runs per command, medians\n", runs)
	for _, repos := range []int{1, 500} {
		if repos > 1 {
			if err := w.pad(repos); err != nil {
				return err
			}
		}
		st, _ := os.Stat(filepath.Join(w.home, "state", "prchip", "state"))
		prompt := &sample{name: "prchip prompt --shell zsh", argv: []string{prchip, "prompt", "--shell", "zsh"}}
		hooked := &sample{name: "  as the hooks run it (GOMAXPROCS=1)", argv: []string{prchip, "prompt", "--shell", "zsh"}, env: []string{"GOMAXPROCS=1"}}
		git := &sample{name: "git rev-parse --abbrev-ref HEAD", argv: []string{"git", "rev-parse", "--abbrev-ref", "HEAD"}}
		all := []*sample{prompt, hooked, git}
		if *floor != "" {
			// The floor both ways: GOMAXPROCS changes a Go process's start
			// as much as it changes the render's.
			all = append(all, &sample{name: "Go hello world (start-up floor)", argv: []string{*floor}},
				&sample{name: "  with GOMAXPROCS=1", argv: []string{*floor}, env: []string{"GOMAXPROCS=1"}})
		}
		for i := 0; i < runs+20; i++ {
			for _, s := range all {
				if err := w.measure(s); err != nil {
					return err
				}
			}
			if i == 19 { // warm-up
				for _, s := range all {
					s.times = s.times[:0]
				}
			}
		}
		if prompt.lastOut != "#42" || hooked.lastOut != "#42" {
			return fmt.Errorf("prompt printed %q, want #42 (state not warm?)", prompt.lastOut)
		}
		if n := srv.Requests(); n != 1 {
			return fmt.Errorf("the server saw %d requests: a render refreshed", n)
		}
		mg := median(git.times)
		fmt.Printf("\n%d repositor%s in the state file (%d bytes):\n", repos, map[bool]string{true: "y", false: "ies"}[repos == 1], st.Size())
		for _, s := range all {
			m := median(s.times)
			fmt.Printf("  %-40s median %6.2f ms   ratio to git %.2f\n", s.name, ms(m), float64(m)/float64(mg))
		}
		if rss, err := peakRSS(w, prompt.argv); err == nil {
			fmt.Printf("  peak RSS of the render: %.1f MiB\n", float64(rss)/1024)
		} else {
			fmt.Printf("  peak RSS of the render: not measured (%v)\n", err)
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
