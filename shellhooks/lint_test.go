package shellhooks

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

// The hook files parse in their shells as they are in the source (what a
// reader of the repository checks), and as `prchip init` prints them,
// with the placeholders filled and zsh's wrapped: zsh -n, bash -n, fish -n.
// The bash hook, which runs in the user's shell under the user's IFS and
// options, also passes shellcheck: unquoted expansions split on a user's
// IFS (`return $ret` with digits in IFS), and shellcheck finds them.
func TestHooksParseAndPassShellcheck(t *testing.T) {
	opts := Options{Exe: "/opt/it's here/prchip", InvalidateOn: []string{"git", "gh", "gt"}}
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			shell := testenv.Need(t, sh)
			raw, err := files.ReadFile("prchip." + sh)
			if err != nil {
				t.Fatal(err)
			}
			snippet, _ := Snippet(sh, opts)
			for name, text := range map[string]string{"file": string(raw), "init": snippet} {
				c := exec.Command(shell, "-n")
				c.Stdin = strings.NewReader(text)
				if out, err := c.CombinedOutput(); err != nil {
					t.Errorf("%s -n rejects the %s: %v\n%s", sh, name, err, out)
				}
			}
			if sh != "bash" {
				return
			}
			// Both what init prints and the file as written (its
			// placeholders are words shellcheck must read as such: a
			// placeholder inside $(( )) does not parse).
			for name, text := range map[string]string{"file": string(raw), "init": snippet} {
				c := exec.Command(testenv.Need(t, "shellcheck"), "--shell=bash", "--severity=style", "-")
				c.Stdin = strings.NewReader(text)
				if out, err := c.CombinedOutput(); err != nil {
					t.Errorf("shellcheck of the %s: %v\n%s", name, err, out)
				}
			}
		})
	}
}
