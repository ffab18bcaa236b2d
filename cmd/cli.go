package cmd

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Command is one entry of prchip's command table. The table drives parsing,
// help, the `__complete` protocol and the generated completion scripts
// (completions/), so they cannot drift apart.
//
// prchip does not link cobra: measured on this project's machines, cobra
// (with pflag, net and text/template) adds about 1 ms to every process
// start, and `prchip prompt` runs on every prompt. cobra still generates the
// completion scripts from this table (completions/gen.go).
type Command struct {
	Name  string
	Args  string // usage of the positional arguments, e.g. "zsh|bash|fish|starship"
	Short string
	Long  string
	// ValidArgs are the completions of the first positional argument.
	ValidArgs []string
	// NArgs is the exact number of positional arguments.
	NArgs int
	Flags []Flag
	Run   func(c *Context) error
	// Hidden commands are internal: no help, no completion.
	Hidden bool
}

// Flag is a boolean or string flag.
type Flag struct {
	Name   string
	Usage  string
	String bool     // false: a boolean flag
	Def    string   // default of a string flag
	Values []string // completions of a string flag's value
}

// Context is what a command's Run receives.
type Context struct {
	IO    *IO
	Paths Paths
	Args  []string
	// flags holds every flag's value: "true"/"false" for booleans.
	flags map[string]string
}

// Bool returns a boolean flag's value.
func (c *Context) Bool(name string) bool { return c.flags[name] == "true" }

// String returns a string flag's value.
func (c *Context) String(name string) string { return c.flags[name] }

// usageError exits 2 with a message and a pointer to help.
func usageError(format string, a ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

// UseLine is "prchip NAME [flags] ARGS".
func (cmd *Command) UseLine() string {
	s := "prchip " + cmd.Name
	for _, f := range cmd.Flags {
		if f.String {
			s += fmt.Sprintf(" [--%s %s]", f.Name, strings.Join(f.Values, "|"))
		} else {
			s += fmt.Sprintf(" [--%s]", f.Name)
		}
	}
	if cmd.Args != "" {
		s += " " + cmd.Args
	}
	return s
}

// parseFlags reads cmd's flags the way Go's flag package does (which
// prchip does not link: its initialisation and what it pulls in cost every
// prompt about 0.4 ms): -name and --name alike, a string flag's value as
// --name=v or --name v, a boolean as --name or --name=false, flags before
// the positional arguments, "--" ending them.
func (cmd *Command) parseFlags(args []string) (map[string]string, []string, error) {
	values := map[string]string{}
	for _, f := range cmd.Flags {
		if f.String {
			values[f.Name] = f.Def
		} else {
			values[f.Name] = "false"
		}
	}
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' {
			break
		}
		args = args[1:]
		if a == "--" {
			break
		}
		name := strings.TrimPrefix(a[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return nil, nil, fmt.Errorf("bad flag syntax: %s", a)
		}
		name, value, hasValue := strings.Cut(name, "=")
		var f *Flag
		for i := range cmd.Flags {
			if cmd.Flags[i].Name == name {
				f = &cmd.Flags[i]
			}
		}
		switch {
		case f == nil:
			return nil, nil, fmt.Errorf("flag provided but not defined: -%s", name)
		case !f.String:
			b := true
			if hasValue {
				var err error
				if b, err = strconv.ParseBool(value); err != nil {
					return nil, nil, fmt.Errorf("invalid boolean value %q for -%s: parse error", value, name)
				}
			}
			values[name] = strconv.FormatBool(b)
		case hasValue:
			values[name] = value
		case len(args) == 0:
			return nil, nil, fmt.Errorf("flag needs an argument: -%s", name)
		default:
			values[name], args = args[0], args[1:]
		}
	}
	return values, args, nil
}

func (cmd *Command) help(w io.Writer) {
	text := cmd.Long
	if text == "" {
		text = cmd.Short
	}
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", text, cmd.UseLine())
	if len(cmd.Flags) > 0 {
		fmt.Fprintln(w, "\nFlags:")
		for _, f := range cmd.Flags {
			name := "--" + f.Name
			if f.String {
				name += " string"
			}
			fmt.Fprintf(w, "  %-22s %s\n", name, f.Usage)
		}
	}
}

// execute parses args for cmd and runs it.
func (cmd *Command) execute(o *IO, paths Paths, args []string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" || a == "-help" {
			cmd.help(o.Stdout)
			return nil
		}
	}
	values, rest, err := cmd.parseFlags(args)
	if err != nil {
		return usageError("%s: %v\nUsage: %s", cmd.Name, err, cmd.UseLine())
	}
	if len(rest) != cmd.NArgs {
		return usageError("%s takes %d argument(s), got %d\nUsage: %s", cmd.Name, cmd.NArgs, len(rest), cmd.UseLine())
	}
	if len(cmd.ValidArgs) > 0 && len(rest) > 0 && !contains(cmd.ValidArgs, rest[0]) {
		return usageError("%s: unknown argument %q: use one of %s", cmd.Name, rest[0], strings.Join(cmd.ValidArgs, ", "))
	}
	return cmd.Run(&Context{IO: o, Paths: paths, Args: rest, flags: values})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findCommand looks a command up by name.
func findCommand(name string) *Command {
	for _, c := range Commands() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// rootHelp prints the overview.
func rootHelp(w io.Writer) {
	fmt.Fprint(w, "prchip shows the GitHub pull request of the current git branch as a chip in a\nshell prompt. Its render path answers from local state; gh runs in the background.\n\nUsage:\n  prchip COMMAND [flags]\n\nCommands:\n")
	cmds := Commands()
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	for _, c := range cmds {
		if !c.Hidden {
			fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Short)
		}
	}
	fmt.Fprint(w, "\nRun 'prchip COMMAND --help' for a command's flags.\n")
}

// dispatch runs the command named by args[0].
func dispatch(o *IO, paths Paths, args []string) error {
	if len(args) == 0 {
		rootHelp(o.Stderr)
		return &ExitError{Code: ExitUsage}
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 {
			if c := findCommand(args[1]); c != nil && !c.Hidden {
				c.help(o.Stdout)
				return nil
			}
		}
		rootHelp(o.Stdout)
		return nil
	case "-v", "--version":
		args = []string{"version"}
	case completeCmd:
		return complete(o.Stdout, args[1:])
	}
	c := findCommand(args[0])
	if c == nil {
		return usageError("unknown command %q\nRun 'prchip --help' for usage.", args[0])
	}
	return c.execute(o, paths, args[1:])
}

var errUnknownShell = errors.New("unknown shell")
