package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/fakegithub"
)

// fakeStarship stands in for starship (not packaged here), doing what its
// init scripts and its env_var module do as far as prchip is concerned
// (read from starship's src/init/starship.{zsh,bash,fish} and
// src/modules/env_var.rs): init exports STARSHIP_SHELL; zsh draws PROMPT
// from `$(starship prompt)` under prompt_subst, after every precmd
// function; bash keeps a PROMPT_COMMAND it finds and runs it inside its
// own, before it sets PS1 from `$(starship prompt)`; fish's fish_prompt
// calls `starship prompt`. The prompt shows the exported PRCHIP, escaped
// for the shell as starship escapes text, as format
// "([$env_value]($style) )" does: nothing when it is unset or empty.
const fakeStarship = `#!/bin/sh
case "$1 $2" in
"init zsh") cat <<'EOF'
export STARSHIP_SHELL=zsh
setopt prompt_subst
prompt_starship_precmd() { :; }
precmd_functions+=(prompt_starship_precmd)
PROMPT='$(starship prompt)'
EOF
;;
"init bash") cat <<'EOF'
export STARSHIP_SHELL=bash
starship_precmd() { eval "${_PRESERVED_PROMPT_COMMAND-}"; PS1="$(starship prompt)"; }
if [[ -z "${PROMPT_COMMAND-}" ]]; then PROMPT_COMMAND=starship_precmd
elif [[ $PROMPT_COMMAND != *starship_precmd* ]]; then _PRESERVED_PROMPT_COMMAND=$PROMPT_COMMAND; PROMPT_COMMAND=starship_precmd; fi
EOF
;;
"init fish") cat <<'EOF'
set -gx STARSHIP_SHELL fish
function fish_prompt; starship prompt; end
EOF
;;
"prompt "*)
  v=${PRCHIP-}
  case $STARSHIP_SHELL in
  zsh) v=$(printf '%s' "$v" | sed 's/%/%%/g') ;;
  bash) v=$(printf '%s' "$v" | sed -e 's/\\/\\\\\\\\/g' -e 's/[$` + "`" + `]/\\\\&/g') ;;
  esac
  if [ -n "$v" ]; then printf '[%s] > ' "$v"; else printf '[] > '; fi
  ;;
esac
`

// With prchip's hook loaded, starship shows the chip from $PRCHIP (its
// env_var block from `prchip init starship`): plain text, exported, kept
// current by the hook (through the worker, in fish too, which answers
// plain text), whichever of the two init lines comes first.
func TestStarshipShowsTheHooksChip(t *testing.T) {
	title := "50% $HOME `id` \\n"
	for _, sh := range []string{"zsh", "bash", "fish"} {
		for _, prchipFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/prchip_first=%v", sh, prchipFirst), func(t *testing.T) {
				w := shellWorld(t, sh, "sed", "git", "date")
				os.WriteFile(filepath.Join(w.bin, "starship"), []byte(fakeStarship), 0o755)
				w.config("format = \"#{number} {title}\"\n")
				w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: title})
				w.refresh(w.repo, 0)
				lines := []string{fmt.Sprintf(`eval "$(%s init %s)"`, prchipBin, sh), fmt.Sprintf(`eval "$(starship init %s)"`, sh)}
				if sh == "fish" {
					lines = []string{prchipBin + " init fish | source", "starship init fish | source"}
				}
				if !prchipFirst {
					lines[0], lines[1] = lines[1], lines[0]
				}
				rc := filepath.Join(w.home, "rc."+sh)
				os.WriteFile(rc, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
				tm := onTerminal(t, w, sh)
				tm.enter("source " + rc)
				want := "[#42 " + title + "] > "
				for i := 0; i < 3; i++ { // the second prompt on is the worker's
					tm.press("Enter")
				}
				tm.waitFor(want, func(s string) bool { return strings.HasPrefix(lastLine(s)+" ", want) })
				// The chip follows a checkout at the next prompt.
				tm.enter("git checkout -q -b nopr")
				tm.waitFor("an empty chip", func(s string) bool { return strings.HasPrefix(lastLine(s), "[] >") })
				tm.enter("git checkout -q feature")
				tm.waitFor(want, func(s string) bool { return strings.HasPrefix(lastLine(s)+" ", want) })
				// Exported for starship's prompt only: a command run from
				// the prompt gets no chip (in zsh and fish; bash has no
				// hook between the prompt and the command for it).
				if sh != "bash" {
					tm.enter(`sh -c 'echo "child=${PRCHIP-unset}"'`)
					// The output line, not the command line typed.
					output := regexp.MustCompile(`(?m)^child=`)
					tm.waitFor("the child's view", func(s string) bool { return output.MatchString(s) })
					if !strings.Contains(tm.screen(), "\nchild=unset") {
						t.Fatalf("the chip leaks into commands:\n%s", tm.screen())
					}
				}
				{
					pid := strconv.Itoa(tm.panePID())
					ws := liveProcesses(func(p proc) bool {
						return strings.Contains(string(p.cmdline), "\x00worker\x00") && strings.Contains(string(p.cmdline), "\x00--pid\x00"+pid+"\x00")
					})
					if len(ws) == 0 {
						t.Fatalf("no worker for the %s shell", sh)
					}
					for _, p := range ws {
						if !strings.Contains(string(p.cmdline), "\x00--plain\x00") {
							t.Errorf("worker %q does not answer plain text", p.cmdline)
						}
					}
				}
			})
		}
	}
}

// Loading the hook again from another binary ends the worker the old one
// started: from the next prompt on, the new binary answers.
func TestReloadedHookReplacesTheWorker(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			a, b := filepath.Join(w.home, "a", "prchip"), filepath.Join(w.home, "b", "prchip")
			for _, p := range []string{a, b} {
				os.MkdirAll(filepath.Dir(p), 0o755)
				copyFile(t, prchipBin, p)
			}
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			tm := onTerminal(t, w, sh)
			load := `eval "$(%s init %s)"`
			if sh == "fish" {
				load = `%s init %s | source`
			}
			if sh == "fish" {
				tm.enter(fmt.Sprintf(load+`; function fish_prompt; printf '<%%s>$ ' $PRCHIP; end`, a, sh))
			} else {
				tm.enter(fmt.Sprintf(load+`; PS1='<${PRCHIP}>$ '; PROMPT='<${PRCHIP}>$ '`, a, sh))
			}
			for i := 0; i < 3; i++ {
				tm.press("Enter")
			}
			pid := strconv.Itoa(tm.panePID())
			workers := func(bin string) int {
				return len(liveProcesses(func(p proc) bool {
					c := string(p.cmdline)
					return strings.HasPrefix(c, bin+"\x00worker\x00") && strings.Contains(c, "\x00--pid\x00"+pid+"\x00")
				}))
			}
			tm.waitFor("a worker of the first binary", func(string) bool { return workers(a) == 1 })
			tm.enter(fmt.Sprintf(load, b, sh))
			for i := 0; i < 3; i++ {
				tm.press("Enter")
			}
			tm.waitFor("the second binary's worker alone", func(string) bool { return workers(a) == 0 && workers(b) == 1 })
			tm.promptShows(sh, "#42")
		})
	}
}
