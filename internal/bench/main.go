// Command bench measures the render path against `git rev-parse` in the
// same run, as ratios of medians (SPEC 9). It builds nothing: scripts/bench
// passes the prchip binary. Runs of the commands are interleaved, in a new
// random order each round, so that machine noise and whatever one run
// leaves behind for the next hit all of them alike.
//
// Go binaries are run from several copies in turn (-copies): on the VMs
// measured here, identical copies of one binary start up to 0.3 ms apart,
// steadily, depending on where their pages landed in memory, so one copy
// makes the ratio a lottery. git is run as installed.
//
//	go run ./internal/bench -prchip ./prchip [-runs 400] [-copies 4]
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
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/internal/fakegithub"
)

// options are the benchmark's flags and where it prints.
type options struct {
	out    io.Writer
	prchip string // absolute path of the binary measured
	floor  string // a Go hello world, or ""
	runs   int
	copies int
	// The shells' benchmark: rounds per shell and state file, requests
	// before the worker's memory is read, idle time before it is read
	// again (0: not), and whether to run it at all.
	shellRounds int
	memRequests int
	idle        time.Duration
	shells      bool
}

func main() {
	o := options{out: os.Stdout}
	flag.StringVar(&o.prchip, "prchip", "", "prchip binary (built with CGO_ENABLED=0)")
	flag.StringVar(&o.floor, "floor", "", "a Go hello-world binary, measured as the process-start floor")
	flag.IntVar(&o.runs, "runs", 400, "runs of each command")
	flag.IntVar(&o.copies, "copies", 4, "copies of each Go binary, run in turn")
	flag.BoolVar(&o.shells, "shells", true, "also measure one prompt's hooks in real zsh, bash and fish")
	flag.IntVar(&o.shellRounds, "shell-rounds", 300, "interleaved rounds per shell and state file")
	flag.IntVar(&o.memRequests, "worker-requests", 2000, "requests the zsh worker answers before its memory is read")
	flag.DurationVar(&o.idle, "idle", 60*time.Second, "idle time after which the worker's memory is read again (0: not)")
	flag.StringVar(&bashPreexecFile, "bash-preexec", filepath.Join("e2e", "testdata", "bash-preexec", "bash-preexec.sh"), "bash-preexec.sh, loaded for the bash+preexec case")
	flag.Parse()
	if o.prchip == "" {
		fmt.Fprintln(os.Stderr, "usage: bench -prchip PATH")
		os.Exit(2)
	}
	o.prchip, _ = filepath.Abs(o.prchip)
	bashPreexecFile, _ = filepath.Abs(bashPreexecFile)
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// bashPreexecFile is bash-preexec.sh (vendored in e2e/testdata).
var bashPreexecFile string

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
		// Pushed with -u: its upstream is the head prchip asks about.
		{"config", "branch.feature.remote", "origin"}, {"config", "branch.feature.merge", "refs/heads/feature"},
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

// withRepos makes a second state directory whose file holds this world's
// record and n-1 other repositories' records, and returns the
// XDG_STATE_HOME that selects it.
func (w *world) withRepos(n int) (string, error) {
	dir := filepath.Join(w.home, fmt.Sprintf("state-%d", n))
	if err := os.MkdirAll(filepath.Join(dir, "prchip"), 0o700); err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(w.home, "state", "prchip", "state"))
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "prchip", "state")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", err
	}
	s := &cache.Store{Path: path}
	err = s.Update(func(tx *cache.Tx) error {
		rec := tx.Repo(chip.RepoKey(w.repo))
		if rec == nil {
			return fmt.Errorf("no record for %s", w.repo)
		}
		for i := 1; i < n; i++ {
			tx.PutRepo(chip.RepoKey(fmt.Sprintf("/home/user/src/project-%03d", i)), rec)
		}
		return nil
	})
	return dir, err
}

// peakRSS measures the render's peak RSS with GNU time, which forks for
// real: a child of this Go process reports this process's RSS (Go starts
// children with vfork semantics, and exec keeps the old high-water mark).
func peakRSS(w *world, s *sample) (int64, error) {
	tm, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return 0, fmt.Errorf("GNU time is not installed (apt-get install time)")
	}
	var max int64
	for range 10 {
		c := w.cmd(tm, append([]string{"-f", "%M"}, s.argv...)...)
		c.Env = append(c.Env, s.env...)
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
	bins    []string // copies of argv[0] to run in turn; nil: argv[0]
	times   []time.Duration
	faults  int64 // minor page faults, summed over the measured runs
	lastOut string
}

func (w *world) measure(s *sample) error {
	bin := s.argv[0]
	if len(s.bins) > 0 {
		bin = s.bins[len(s.times)%len(s.bins)]
	}
	c := w.cmd(bin, s.argv[1:]...)
	c.Env = append(c.Env, s.env...)
	var out strings.Builder
	c.Stdout = &out
	start := time.Now()
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.times = append(s.times, time.Since(start))
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.faults += ru.Minflt
	}
	s.lastOut = out.String()
	return nil
}

// copyBinary makes n copies of bin in dir, for sample.bins.
func copyBinary(bin, dir string, n int) ([]string, error) {
	b, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := range n {
		dst := filepath.Join(dir, fmt.Sprintf("%s.%d", filepath.Base(bin), i))
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			return nil, err
		}
		out = append(out, dst)
	}
	return out, nil
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func run(o options) error {
	prchip, runs := o.prchip, o.runs
	w, srv, err := setup(prchip)
	if err != nil {
		return err
	}
	defer srv.Close()
	if os.Getenv("PRCHIP_BENCH_KEEP") == "" {
		defer os.RemoveAll(w.home)
	} else {
		defer fmt.Fprintln(o.out, "world kept in", w.home)
	}
	bins := filepath.Join(w.home, "bin")
	if err := os.MkdirAll(bins, 0o755); err != nil {
		return err
	}
	prchipCopies, err := copyBinary(prchip, bins, o.copies)
	if err != nil {
		return err
	}
	var floorCopies []string
	if o.floor != "" {
		if floorCopies, err = copyBinary(o.floor, bins, o.copies); err != nil {
			return err
		}
	}
	states := map[int]string{1: filepath.Join(w.home, "state")}
	if states[500], err = w.withRepos(500); err != nil {
		return err
	}
	// Both state files are measured in one loop, against one git: the two
	// cases share whatever the machine does during the run.
	git := &sample{name: "git rev-parse --abbrev-ref HEAD", argv: []string{"git", "rev-parse", "--abbrev-ref", "HEAD"}}
	all := []*sample{git}
	renders := map[int][]*sample{}
	for _, repos := range []int{1, 500} {
		st := "XDG_STATE_HOME=" + states[repos]
		renders[repos] = []*sample{
			{name: "prchip prompt --shell zsh", argv: []string{prchip, "prompt", "--shell", "zsh"}, env: []string{st}, bins: prchipCopies},
		}
		all = append(all, renders[repos]...)
	}
	var floors []*sample
	if o.floor != "" {
		floors = []*sample{{name: "Go hello world (start-up floor)", argv: []string{o.floor}, bins: floorCopies}}
		all = append(all, floors...)
	}
	fmt.Fprintf(o.out, "prchip render benchmark: %d interleaved runs per command (Go binaries from %d copies in turn), medians;\n", runs, o.copies)
	fmt.Fprintf(o.out, "ratios to git, and in brackets the same ratio over the first and the second half of the runs\n")
	for i := 0; i < runs+20; i++ {
		for _, j := range rand.Perm(len(all)) {
			if err := w.measure(all[j]); err != nil {
				return err
			}
		}
		if i == 19 { // warm-up
			for _, s := range all {
				s.times, s.faults = s.times[:0], 0
			}
		}
	}
	for _, repos := range []int{1, 500} {
		for _, s := range renders[repos] {
			if s.lastOut != "#42" {
				return fmt.Errorf("%s printed %q, want #42 (state not warm?)", s.name, s.lastOut)
			}
		}
	}
	// The warm-up's refresh: the fork question (asked once) and the PR.
	if n := srv.Requests(); n != 2 {
		return fmt.Errorf("the server saw %d requests, not the warm-up's 2: a render refreshed", n)
	}
	for _, repos := range []int{1, 500} {
		st, _ := os.Stat(filepath.Join(states[repos], "prchip", "state"))
		fmt.Fprintf(o.out, "\n%d repositor%s in the state file (%d bytes):\n", repos, map[bool]string{true: "y", false: "ies"}[repos == 1], st.Size())
		for _, s := range append(append(renders[repos], git), floors...) {
			h := len(s.times) / 2
			fmt.Fprintf(o.out, "  %-40s median %6.2f ms   ratio to git %.2f (%.2f %.2f)   page faults %5.1f\n", s.name,
				ms(median(s.times)), ratio(s.times, git.times), ratio(s.times[:h], git.times[:h]), ratio(s.times[h:], git.times[h:]),
				float64(s.faults)/float64(len(s.times)))
		}
		if rss, err := peakRSS(w, renders[repos][0]); err == nil {
			fmt.Fprintf(o.out, "  peak RSS of the render: %.1f MiB\n", float64(rss)/1024)
		} else {
			fmt.Fprintf(o.out, "  peak RSS of the render: not measured (%v)\n", err)
		}
	}
	if o.shells {
		return runShells(o, w, states)
	}
	return nil
}

func ratio(a, b []time.Duration) float64 { return float64(median(a)) / float64(median(b)) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
