package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// What one prompt costs in a real shell (SPEC 9): the shell runs its own
// prompt hooks in a loop, interleaved in a random order each round with
// `x=$(git rev-parse --abbrev-ref HEAD)` in the same shell, each timed by
// the shell itself; the result is the median of the per-round ratios.
// zsh and bash (also with bash-preexec loaded) are timed with
// $EPOCHREALTIME; fish has no clock variable,
// so it times both with its `time` keyword, whose report goes to stderr.
var shellScripts = map[string]string{
	"zsh": `eval "$({{prchip}} init zsh)"
PROMPT=''
zmodload zsh/datetime
_bench_hooks() { local f; for f in $precmd_functions; do $f; done }
for i in {1..20}; do _bench_hooks; done
for i in {1..{{rounds}}}; do
  if (( RANDOM % 2 )); then
    t0=$EPOCHREALTIME; _bench_hooks; t1=$EPOCHREALTIME
    x=$(git rev-parse --abbrev-ref HEAD); t2=$EPOCHREALTIME
    print -r -- "$(( (t1 - t0) * 1e6 )) $(( (t2 - t1) * 1e6 )) $PRCHIP" >> {{out}}
  else
    t0=$EPOCHREALTIME; x=$(git rev-parse --abbrev-ref HEAD); t1=$EPOCHREALTIME
    _bench_hooks; t2=$EPOCHREALTIME
    print -r -- "$(( (t2 - t1) * 1e6 )) $(( (t1 - t0) * 1e6 )) $PRCHIP" >> {{out}}
  fi
done
print -r -- "worker $_prchip_wpid" >> {{out}}
`,
	"bash": `eval "$({{prchip}} init bash)"
PS1=''
_bench_hooks() { local pc; for pc in "${PROMPT_COMMAND[@]}"; do eval "$pc"; done; }
for i in {1..20}; do _bench_hooks; done
for ((i = 0; i < {{rounds}}; i++)); do
  if (( RANDOM % 2 )); then
    t0=${EPOCHREALTIME//[!0-9]/}; _bench_hooks; t1=${EPOCHREALTIME//[!0-9]/}
    x=$(git rev-parse --abbrev-ref HEAD); t2=${EPOCHREALTIME//[!0-9]/}
    echo "$((t1 - t0)) $((t2 - t1)) $PRCHIP" >> {{out}}
  else
    t0=${EPOCHREALTIME//[!0-9]/}; x=$(git rev-parse --abbrev-ref HEAD); t1=${EPOCHREALTIME//[!0-9]/}
    _bench_hooks; t2=${EPOCHREALTIME//[!0-9]/}
    echo "$((t2 - t1)) $((t1 - t0)) $PRCHIP" >> {{out}}
  fi
done
echo "worker $_prchip_wpid" >> {{out}}
`,
	// fish has no clock variable and its time keyword cannot be
	// redirected: it writes a mark to stdout before and after each timed
	// part, and the benchmark stamps the marks as they arrive (the pipe's
	// delay is in both parts alike).
	//
	// fish's hook never waits for its worker: it shows the worker's answer
	// to the previous prompt's request. So the warm-up pauses after each
	// prompt, and each round after its two parts (untimed), as a person's
	// typing leaves the worker time to answer; the worker's pid is printed
	// before and after the rounds (a worker replaced meanwhile means
	// prompts went to the one-shot render).
	"fish": `{{prchip}} init fish | source
function _bench_hooks; emit fish_prompt; end
for i in (seq 20); _bench_hooks; sleep 0.05; end
echo "@ worker $_prchip_wpid"
for i in (seq {{rounds}})
    if test (random 0 1) = 0
        echo "@ start"; _bench_hooks; echo "@ hooks $PRCHIP"; set x (git rev-parse --abbrev-ref HEAD); echo "@ git"
    else
        echo "@ start"; set x (git rev-parse --abbrev-ref HEAD); echo "@ git"; _bench_hooks; echo "@ hooks $PRCHIP"
    end
    sleep 0.005
end
echo "@ worker $_prchip_wpid"
echo "@ done"
# fish runs a script from a pipe once it has read all of it: the shell
# (and so its worker) stays until the benchmark is done with it.
while not test -e {{out}}.end; sleep 0.1; end
`,
}

// bash with bash-preexec (atuin and others load it): bash-preexec
// installs itself at the first prompt, and from then on prchip's hook
// takes the command line from its preexec_functions. bash+preexec times
// every prompt hook, bash-preexec's own included; bash+preexec-hook
// (bashPreexec) times prchip's hook alone, as bash-preexec's prompt
// functions cost what they cost whatever else is loaded (its DEBUG trap
// still runs before each command of the loop, on both sides).
var bashPreexec = strings.NewReplacer(
	`eval "$({{prchip}} init bash)"`, "source {{bashpreexec}}\n"+`eval "$({{prchip}} init bash)"`,
	`_bench_hooks() { local pc; for pc in "${PROMPT_COMMAND[@]}"; do eval "$pc"; done; }`,
	`_bench_hooks() { local pc; for pc in "${PROMPT_COMMAND[@]}"; do eval "$pc"; done; }
_bench_hooks
[[ ${PROMPT_COMMAND[*]} == *__bp_precmd_invoke_cmd* && ${preexec_functions[*]} == *_prchip_preexec* ]] || exit 1
_bench_hooks() { _prchip_hook; }`)

// shellResult is one shell's run.
type shellResult struct {
	hooks, git []float64 // microseconds, per round
	ratios     []float64
	worker     int
	// fish: the worker's pid before the rounds, when it changed by the end
	// (0 when it did not).
	replaced int
}

// runShell runs one shell's script against state directory stateHome.
// sh is zsh, bash, fish, or bash+preexec (bash with bash-preexec loaded
// first, from the file bashPreexecFile).
func runShell(w *world, prchip, sh, stateHome string, rounds int, after func(r *shellResult) error) (*shellResult, error) {
	name, variant, _ := strings.Cut(sh, "+")
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s is not installed", name)
	}
	out := filepath.Join(w.home, "bench-"+name+variant+"-"+filepath.Base(stateHome))
	os.Remove(out)
	text := shellScripts[name]
	if variant == "ask" {
		// Every prompt asks the worker: the memo's key is forgotten
		// before each round, outside the timed parts.
		text = strings.Replace(text, "\n  if (( RANDOM % 2 )); then", "\n  _prchip_key=''\n  if (( RANDOM % 2 )); then", 1)
	}
	if strings.HasPrefix(variant, "preexec") {
		if _, err := os.Stat(bashPreexecFile); err != nil {
			return nil, fmt.Errorf("bash-preexec: %w", err)
		}
		if variant == "preexec" {
			text = "source {{bashpreexec}}\n" + text
		} else {
			text = bashPreexec.Replace(text)
		}
	}
	script := strings.NewReplacer("{{prchip}}", prchip, "{{rounds}}", strconv.Itoa(rounds), "{{out}}", out,
		"{{bashpreexec}}", "'"+strings.ReplaceAll(bashPreexecFile, "'", `'\''`)+"'").Replace(text)
	sh = name
	args := map[string][]string{"zsh": {"-f", "-i"}, "bash": {"--norc", "--noprofile", "-i"}, "fish": {"--no-config", "-i"}}[sh]
	c := w.cmd(path, args...)
	c.Env = append(c.Env, "XDG_STATE_HOME="+stateHome, "TERM=dumb")
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	var errb strings.Builder
	c.Stderr = &errb
	marks := make(chan []mark, 1)
	if sh == "fish" {
		stdout, err := c.StdoutPipe()
		if err != nil {
			return nil, err
		}
		go func() { marks <- readMarks(stdout) }()
	} else {
		c.Stdout = io.Discard
	}
	if err := c.Start(); err != nil {
		return nil, err
	}
	io.WriteString(in, script)
	r := &shellResult{}
	if sh == "fish" {
		// The shell stays up until after has looked at its worker.
		in.Close()
		err := fishRounds(<-marks, r)
		if err == nil && after != nil {
			err = after(r)
		}
		os.WriteFile(out+".end", nil, 0o600)
		c.Wait()
		if err != nil {
			return nil, fmt.Errorf("fish: %w\n%s", err, errb.String())
		}
		return r, nil
	}
	// The shell stays up (its stdin open) until after has looked at it.
	err = waitFor(func() bool { return finished(out) }, 5*time.Minute)
	if err == nil {
		err = readShell(sh, out, r)
	}
	if err == nil && after != nil {
		err = after(r)
	}
	in.Close()
	c.Wait()
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", sh, err, errb.String())
	}
	return r, nil
}

func waitFor(ok func() bool, d time.Duration) error {
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not finished after %v", d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

func finished(out string) bool {
	b, _ := os.ReadFile(out)
	return strings.Contains(string(b), "worker ")
}

// mark is one "@ ..." line of the fish script and when it arrived.
type mark struct {
	at   time.Time
	text string
}

// readMarks returns the marks up to "done" (the rest of r is drained).
func readMarks(r io.Reader) []mark {
	var out []mark
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if t, ok := strings.CutPrefix(sc.Text(), "@ "); ok {
			out = append(out, mark{time.Now(), t})
			if t == "done" {
				go io.Copy(io.Discard, r)
				break
			}
		}
	}
	return out
}

// fishRounds turns the marks into times: each part lasts from the mark
// before it to its own.
func fishRounds(ms []mark, r *shellResult) error {
	var h, g float64
	var workers []int
	for _, m := range ms {
		if n, ok := strings.CutPrefix(m.text, "worker "); ok {
			pid, _ := strconv.Atoi(n)
			workers = append(workers, pid)
		}
	}
	for i := 1; i < len(ms); i++ {
		d := float64(ms[i].at.Sub(ms[i-1].at).Microseconds())
		switch {
		case strings.HasPrefix(ms[i].text, "worker "):
			continue
		case ms[i].text == "git":
			g = d
		case strings.HasPrefix(ms[i].text, "hooks"):
			if chip := strings.TrimPrefix(ms[i].text, "hooks "); chip != "#42" {
				return fmt.Errorf("fish showed %q, want #42", chip)
			}
			h = d
		default:
			continue
		}
		if i+1 == len(ms) || ms[i+1].text == "start" || ms[i+1].text == "done" || strings.HasPrefix(ms[i+1].text, "worker ") {
			r.hooks, r.git = append(r.hooks, h), append(r.git, g)
		}
	}
	if len(ms) == 0 || ms[len(ms)-1].text != "done" {
		return fmt.Errorf("the script did not finish")
	}
	if len(workers) != 2 || workers[1] <= 0 {
		return fmt.Errorf("no fish worker answered (pids %v)", workers)
	}
	r.worker = workers[1]
	if workers[0] != workers[1] {
		r.replaced = workers[0]
	}
	return readShell("fish", "", r)
}

func readShell(sh, out string, r *shellResult) error {
	if sh != "fish" {
		f, err := os.Open(out)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) == 2 && fields[0] == "worker" {
				r.worker, _ = strconv.Atoi(fields[1])
				continue
			}
			if len(fields) != 3 || fields[2] != "#42" {
				return fmt.Errorf("round %q: want hook time, git time and #42", sc.Text())
			}
			h, _ := strconv.ParseFloat(fields[0], 64)
			g, _ := strconv.ParseFloat(fields[1], 64)
			r.hooks, r.git = append(r.hooks, h), append(r.git, g)
		}
	}
	if len(r.hooks) == 0 || len(r.hooks) != len(r.git) {
		return fmt.Errorf("%d hook times and %d git times", len(r.hooks), len(r.git))
	}
	for i := range r.hooks {
		r.ratios = append(r.ratios, r.hooks[i]/r.git[i])
	}
	return nil
}

func medianF(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// memory is a process's resident and private memory in KiB.
func memory(pid int) (rss, private int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "Rss:":
			rss = n
		case "Private_Clean:", "Private_Dirty:":
			private += n
		}
	}
	return rss, private, nil
}

// runShells prints what one prompt costs in each shell, with each state
// directory, and the zsh worker's memory after its requests (and after
// idle, when idle > 0).
func runShells(o options, w *world, states map[int]string) error {
	fmt.Fprintf(o.out, "\nOne prompt's hooks in real shells against x=$(git rev-parse --abbrev-ref HEAD) in the same shell,\n%d interleaved rounds, median of per-round ratios (medians of the times in brackets):\n", o.shellRounds)
	for _, sh := range []string{"zsh", "zsh+ask", "bash", "bash+ask", "bash+preexec", "bash+preexec-hook", "fish"} {
		for _, repos := range []int{1, 500} {
			var after func(r *shellResult) error
			rounds := o.shellRounds
			if sh == "zsh+ask" && repos == 1 { // the worker's memory after as many requests
				after = func(r *shellResult) error { return workerMemory(o, "zsh", r, o.idle) }
				rounds = max(rounds, o.memRequests-20)
			}
			if sh == "fish" && repos == 1 {
				after = func(r *shellResult) error { return workerMemory(o, "fish", r, min(o.idle, 5*time.Second)) }
			}
			r, err := runShell(w, o.prchip, sh, states[repos], rounds, after)
			if err != nil {
				return err
			}
			note := ""
			if r.replaced != 0 {
				note = fmt.Sprintf("  (worker %d replaced by %d: some prompts were one-shot)", r.replaced, r.worker)
			}
			label := map[string]string{"bash+preexec": "bash+preexec (all hooks)", "bash+preexec-hook": "bash+preexec (prchip's hook)",
				"zsh+ask": "zsh, asking each prompt", "bash+ask": "bash, asking each prompt"}[sh]
			if label == "" {
				label = sh
			}
			fmt.Fprintf(o.out, "  %-28s %3d repo%s (worker)  ratio %.3f   (hooks %7.0f us, git %7.0f us)%s\n", label, repos,
				map[bool]string{true: " ", false: "s"}[repos == 1], medianF(r.ratios), medianF(r.hooks), medianF(r.git), note)
		}
	}
	return nil
}

// workerMemory reports a shell's worker's memory after the benchmark's
// requests (zsh's: the run's rounds plus warm-up, topped up to 2,000), and
// again after idle, when idle > 0.
func workerMemory(o options, sh string, r *shellResult, idle time.Duration) error {
	if r.worker <= 0 {
		return fmt.Errorf("no worker answered")
	}
	rss, priv, err := memory(r.worker)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.out, "  %s worker after %d requests: RSS %.1f MiB, private %.1f MiB\n", sh, len(r.hooks)+20, float64(rss)/1024, float64(priv)/1024)
	if idle > 0 {
		time.Sleep(idle)
		if rss, priv, err = memory(r.worker); err != nil {
			return err
		}
		fmt.Fprintf(o.out, "  %s worker after %v idle: RSS %.1f MiB, private %.1f MiB\n", sh, idle, float64(rss)/1024, float64(priv)/1024)
	}
	return nil
}
