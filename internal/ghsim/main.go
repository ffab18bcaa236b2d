// Command ghsim counts what a day of typical use costs GitHub: gh runs per
// hour, through prchip's real engine (Gather, Render, Refresh, Invalidate
// and the store), with a virtual clock and a stand-in for gh (SPEC 9).
// scripts/bench-github builds it against this tree and against an older
// commit, so the two figures come from the same scenario.
//
// The day: 10 repositories (six with an open PR, two without, one merged,
// one closed), 8 shells that each prompt every 3 to 8 seconds for 10
// hours and move to another repository every 45 minutes, a git command
// before one prompt in 40 (the hook's invalidation), a one-hour network
// outage (DNS fails) from 12:00, and one PR merged at 15:00.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/config"
	"github.com/prchip/prchip/sanitize"
)

// scenario is the simulated day.
type scenario struct {
	repos, shells        int
	start                time.Time
	hours                int
	outageFrom, outageTo time.Time
	mergeAt              time.Time
	moveEvery            time.Duration
	seed                 uint64
}

func defaultScenario() scenario {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return scenario{
		repos: 10, shells: 8, start: start, hours: 10,
		outageFrom: start.Add(3 * time.Hour), outageTo: start.Add(4 * time.Hour),
		mergeAt: start.Add(6 * time.Hour), moveEvery: 45 * time.Minute, seed: 1,
	}
}

// report is what a run counted.
type report struct {
	perHour []int // gh runs in each hour of the day
	total   int
	// backAfter is, over the shells in a repository with an open PR when
	// the outage ended, the longest time until their chip showed again.
	backAfter time.Duration
}

func main() {
	sc := defaultScenario()
	flag.Uint64Var(&sc.seed, "seed", 1, "random seed of the prompts' timing")
	label := flag.String("label", "", "a name printed with the figures")
	flag.Parse()
	r, err := simulate(sc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghsim:", err)
		os.Exit(1)
	}
	r.print(os.Stdout, sc, *label)
}

func (r *report) print(w io.Writer, sc scenario, label string) {
	fmt.Fprintf(w, "%s: %d repositories, %d shells, %d hours, outage %s-%s, merge at %s\n", label, sc.repos, sc.shells,
		sc.hours, sc.outageFrom.Format("15:04"), sc.outageTo.Format("15:04"), sc.mergeAt.Format("15:04"))
	var hours []string
	for h, n := range r.perHour {
		hours = append(hours, fmt.Sprintf("%s %d", sc.start.Add(time.Duration(h)*time.Hour).Format("15h"), n))
	}
	fmt.Fprintf(w, "  gh runs per hour: %s\n", strings.Join(hours, ", "))
	fmt.Fprintf(w, "  gh runs: %d in all, %.0f per hour on average\n", r.total, float64(r.total)/float64(sc.hours))
	fmt.Fprintf(w, "  chip back after the outage within %s\n", r.backAfter.Round(time.Second))
}

// simulate runs the day in a temporary home.
func simulate(sc scenario) (*report, error) {
	home, err := os.MkdirTemp(shmOrTemp(), "ghsim-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	// gh must be on PATH to be chosen; it is never run (Engine.Run is).
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		return nil, err
	}
	for k, v := range map[string]string{"HOME": home, "PATH": bin, "GH_TOKEN": "sim", "GH_HOST": "",
		"GH_CONFIG_DIR": filepath.Join(home, "gh"), "GIT_CONFIG_NOSYSTEM": "1", "GH_REPO": ""} {
		os.Setenv(k, v)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		git = "/usr/bin/git"
	}
	repos := make([]string, sc.repos)
	for i := range repos {
		repos[i] = filepath.Join(home, "src", fmt.Sprintf("r%d", i))
		os.MkdirAll(repos[i], 0o755)
		// A branch pushed with -u: its upstream is the head prchip asks for.
		for _, args := range [][]string{{"init", "-q", "-b", "feature"},
			{"remote", "add", "origin", fmt.Sprintf("https://github.com/octo/r%d.git", i)},
			{"config", "branch.feature.remote", "origin"}, {"config", "branch.feature.merge", "refs/heads/feature"},
			{"-c", "user.name=sim", "-c", "user.email=sim@example.com", "commit", "-q", "--allow-empty", "-m", "work"}} {
			c := exec.Command(git, args...)
			c.Dir = repos[i]
			if out, err := c.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("git %v: %v %s", args, err, out)
			}
		}
	}
	heads := make([]string, len(repos))
	for i, r := range repos {
		out, err := exec.Command(git, "-C", r, "rev-parse", "HEAD").Output()
		if err != nil {
			return nil, fmt.Errorf("git rev-parse: %w", err)
		}
		heads[i] = strings.TrimSpace(string(out))
	}
	now := sc.start
	rep := &report{perHour: make([]int, sc.hours)}
	gh := func(_ context.Context, c proc.Command) proc.Result {
		if h := int(now.Sub(sc.start) / time.Hour); h >= 0 && h < sc.hours {
			rep.perHour[h]++
		}
		rep.total++
		switch {
		case len(c.Args) > 0 && c.Args[0] == "--version":
			return proc.Result{Stdout: []byte("gh version 2.60.0 (sim)\n")}
		case !now.Before(sc.outageFrom) && now.Before(sc.outageTo):
			return proc.Result{ExitCode: 1, Stderr: []byte("error connecting to api.github.com\ncheck your internet connection or https://githubstatus.com\n")}
		case len(c.Args) > 0 && c.Args[0] == "api" && strings.Contains(strings.Join(c.Args, " "), "isFork"):
			// The lookup asks once per repository whether it is a fork.
			return proc.Result{Stdout: []byte(`{"data":{"repository":{"isFork":false,"parent":null}}}`)}
		case len(c.Args) > 0 && c.Args[0] == "api":
			return proc.Result{Stdout: []byte(`{"resources":{"graphql":{"remaining":4000,"reset":0}}}`)}
		}
		i := indexOf(repos, c.Dir)
		state := map[int]string{8: "MERGED", 9: "CLOSED"}[i]
		if i == 0 && !now.Before(sc.mergeAt) {
			state = "MERGED"
		}
		if i == 6 || i == 7 {
			return proc.Result{ExitCode: 1, Stderr: []byte("no pull requests found for branch \"feature\"\n")}
		}
		if state == "" {
			state = "OPEN"
		}
		// The PR's head is the branch's commit: the user's own work.
		return proc.Result{Stdout: []byte(fmt.Sprintf(`{"number":%d,"title":"t","state":%q,"isDraft":false,"url":"https://github.com/octo/r%d/pull/%d","headRefOid":%q,"baseRefName":"main"}`,
			10+i, state, i, 10+i, heads[i]))}
	}
	store := &cache.Store{Path: filepath.Join(home, "state", "prchip", "state")}
	cfg := config.Defaults(filepath.Join(home, "config.toml"))
	rnd := rand.New(rand.NewPCG(sc.seed, 2))
	engine := func(dir string) *chip.Engine {
		return &chip.Engine{Dir: dir, Store: store, Config: cfg, Now: func() time.Time { return now },
			Rand: rnd.Float64, Run: gh, Environ: os.Environ()}
	}
	type shell struct {
		repo int
		next time.Time
	}
	shells := make([]*shell, sc.shells)
	for i := range shells {
		shells[i] = &shell{repo: i % sc.repos, next: sc.start.Add(time.Duration(rnd.IntN(5000)) * time.Millisecond)}
	}
	end := sc.start.Add(time.Duration(sc.hours) * time.Hour)
	waiting := map[int]bool{} // shells in an open-PR repository when the outage ended
	for {
		// The next prompt of any shell.
		s := shells[0]
		for _, x := range shells[1:] {
			if x.next.Before(s.next) {
				s = x
			}
		}
		if !s.next.Before(end) {
			break
		}
		now = s.next
		k := indexOf(shells, s)
		s.repo = (k + int(now.Sub(sc.start)/sc.moveEvery)) % sc.repos
		e := engine(repos[s.repo])
		f := chip.Gather(e.Dir, now)
		if rnd.IntN(40) == 0 {
			e.Invalidate(f)
		}
		v := chip.LoadView(store, f.Key)
		text, refresh := e.Render(f, &v, sanitize.Plain)
		if refresh {
			// One refresh per repository at a time: it ends before the
			// next prompt here.
			e.Refresh(context.Background(), f, chip.RefreshOptions{})
			v = chip.LoadView(store, f.Key)
			text, _ = e.Render(f, &v, sanitize.Plain)
		}
		if !now.Before(sc.outageTo) {
			open := s.repo < 6 && (s.repo != 0 || now.Before(sc.mergeAt))
			if _, seen := waiting[k]; !seen {
				waiting[k] = open
			}
			if waiting[k] && text != "" {
				rep.backAfter = max(rep.backAfter, now.Sub(sc.outageTo))
				waiting[k] = false
			}
		}
		s.next = now.Add(3*time.Second + time.Duration(rnd.IntN(5000))*time.Millisecond)
	}
	return rep, nil
}

func indexOf[T comparable](list []T, s T) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// shmOrTemp is a memory-backed directory when there is one: the store
// syncs every write.
func shmOrTemp() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}
