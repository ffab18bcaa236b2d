package cmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
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
	flags *flag.FlagSet
}

// Bool returns a boolean flag's value.
func (c *Context) Bool(name string) bool {
	f := c.flags.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// String returns a string flag's value.
func (c *Context) String(name string) string {
	if f := c.flags.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

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

func (cmd *Command) flagSet(w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, f := range cmd.Flags {
		if f.String {
			fs.String(f.Name, f.Def, f.Usage)
		} else {
			fs.Bool(f.Name, false, f.Usage)
		}
	}
	return fs
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
	fs := cmd.flagSet(o.Stderr)
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" || a == "-help" {
			cmd.help(o.Stdout)
			return nil
		}
	}
	if err := fs.Parse(args); err != nil {
		return usageError("%s: %v\nUsage: %s", cmd.Name, err, cmd.UseLine())
	}
	rest := fs.Args()
	if len(rest) != cmd.NArgs {
		return usageError("%s takes %d argument(s), got %d\nUsage: %s", cmd.Name, cmd.NArgs, len(rest), cmd.UseLine())
	}
	if len(cmd.ValidArgs) > 0 && len(rest) > 0 && !contains(cmd.ValidArgs, rest[0]) {
		return usageError("%s: unknown argument %q: use one of %s", cmd.Name, rest[0], strings.Join(cmd.ValidArgs, ", "))
	}
	return cmd.Run(&Context{IO: o, Paths: paths, Args: rest, flags: fs})
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
