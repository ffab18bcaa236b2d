package cmd

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

// TestParseFlagsMatchesFlagPackage holds the hand-written flag parser to
// Go's flag package, which prchip no longer links.
func TestParseFlagsMatchesFlagPackage(t *testing.T) {
	cmd := &Command{Name: "x", Flags: []Flag{
		{Name: "json"}, {Name: "force"},
		{Name: "shell", String: true, Def: "plain"}, {Name: "dir", String: true},
	}}
	cases := [][]string{
		nil, {"a"}, {"--json"}, {"-json"}, {"--json=false"}, {"--json=0"}, {"--json=yes"}, {"--json", "false"},
		{"--shell", "zsh"}, {"--shell=zsh"}, {"-shell", "zsh", "rest"}, {"--shell"}, {"--shell="},
		{"--nope"}, {"-nope=1"}, {"---json"}, {"--=x"}, {"-"}, {"-", "--json"}, {"--", "--json"},
		{"a", "--json"}, {"--json", "--force", "a", "b"}, {"--dir", "--json"}, {"--shell", "a=b"},
		{"--json=true", "--json=false"}, {"-json=T"}, {"--dir=a", "--dir=b"},
	}
	for _, args := range cases {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, f := range cmd.Flags {
			if f.String {
				fs.String(f.Name, f.Def, "")
			} else {
				fs.Bool(f.Name, false, "")
			}
		}
		werr := fs.Parse(args)
		got, rest, gerr := cmd.parseFlags(args)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%q: flag says %v, parseFlags says %v", args, werr, gerr)
			continue
		}
		if werr != nil {
			if werr.Error() != gerr.Error() {
				t.Errorf("%q: flag says %q, parseFlags says %q", args, werr, gerr)
			}
			continue
		}
		want := map[string]string{}
		fs.VisitAll(func(f *flag.Flag) { want[f.Name] = f.Value.String() })
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(append([]string{}, rest...), append([]string{}, fs.Args()...)) {
			t.Errorf("%q: got %v %q, want %v %q", args, got, rest, want, fs.Args())
		}
	}
}
