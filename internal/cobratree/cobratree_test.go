package cobratree

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/cmd"
	"github.com/prchip/prchip/completions"
)

// TestCompletionsUpToDate fails when completions/ drifts from the command
// table. Fix: go generate ./completions
func TestCompletionsUpToDate(t *testing.T) {
	root := Build(cmd.Commands())
	for _, sh := range completions.Shells() {
		want, err := Generate(root, sh)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "completions", completions.File(sh)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("completions/%s is out of date: run go generate ./completions", completions.File(sh))
		}
		if s, ok := completions.Script(sh); !ok || s != string(want) {
			t.Errorf("embedded %s script differs from the generated one", sh)
		}
	}
}

// cobraComplete runs cobra's own __complete on the mirror tree.
func cobraComplete(t *testing.T, args []string) string {
	t.Helper()
	root := Build(cmd.Commands())
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"__complete"}, args...))
	if err := root.Execute(); err != nil {
		t.Fatalf("cobra __complete %v: %v", args, err)
	}
	return out.String()
}

// TestCompleteMatchesCobra checks prchip's own __complete, which the
// generated scripts call, against cobra's for the same tree.
func TestCompleteMatchesCobra(t *testing.T) {
	inputs := [][]string{
		{""}, {"re"}, {"s"}, {"-"}, {"--"},
		{"prompt", ""}, {"prompt", "-"}, {"prompt", "--"}, {"prompt", "--shell", ""}, {"prompt", "--shell", "z"},
		{"prompt", "--no-refresh", "--shell", ""},
		{"init", ""}, {"init", "f"}, {"init", "zsh", ""},
		{"completion", ""}, {"completion", "p"},
		{"refresh", "--"}, {"refresh", ""}, {"status", "--j"}, {"reset", "--"},
		{"help", ""}, {"version", ""},
	}
	for _, in := range inputs {
		want := cobraComplete(t, in)
		var got bytes.Buffer
		if code := cmd.MainIO(&cmd.IO{Stdout: &got, Stderr: &bytes.Buffer{}}, append([]string{"__complete"}, in...)); code != 0 {
			t.Fatalf("prchip __complete %q: exit %d", in, code)
		}
		if got.String() != want {
			t.Errorf("__complete %q:\nprchip:\n%s\ncobra:\n%s", strings.Join(in, " "), got.String(), want)
		}
	}
}
