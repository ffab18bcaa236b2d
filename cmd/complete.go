package cmd

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// completeCmd is cobra's dynamic completion protocol, which the generated
// scripts in completions/ call: `prchip __complete WORDS... CURRENT` prints
// one candidate per line (TAB description) and a last line ":DIRECTIVE".
const completeCmd = "__complete"

// Cobra's directive bits that prchip uses.
const (
	directiveNoFileComp = 4
)

func complete(w io.Writer, args []string) error {
	if len(args) == 0 {
		args = []string{""}
	}
	words, cur := args[:len(args)-1], args[len(args)-1]
	var cands [][2]string
	directive := directiveNoFileComp
	add := func(word, desc string) {
		if strings.HasPrefix(word, cur) {
			cands = append(cands, [2]string{word, desc})
		}
	}
	// Flags as cobra lists them: by name, the long form, then the shorthand
	// when the current word is a single dash.
	addFlags := func(flags [][3]string) {
		sort.Slice(flags, func(i, j int) bool { return flags[i][0] < flags[j][0] })
		for _, f := range flags {
			add("--"+f[0], f[2])
			if f[1] != "" && !strings.HasPrefix(cur, "--") {
				add("-"+f[1], f[2])
			}
		}
	}
	if len(words) == 0 {
		if strings.HasPrefix(cur, "-") {
			addFlags([][3]string{{"help", "h", "help for prchip"}, {"version", "v", "version for prchip"}})
		} else {
			for _, c := range Commands() {
				if !c.Hidden {
					add(c.Name, c.Short)
				}
			}
			add("help", "Help about any command")
		}
	} else if c := findCommand(words[0]); c != nil && !c.Hidden {
		rest := words[1:]
		prev := ""
		if len(rest) > 0 {
			prev = rest[len(rest)-1]
		}
		var valueOf *Flag
		for i := range c.Flags {
			if c.Flags[i].String && prev == "--"+c.Flags[i].Name {
				valueOf = &c.Flags[i]
			}
		}
		switch {
		case valueOf != nil:
			// A fixed list: the shell filters it.
			for _, v := range valueOf.Values {
				cands = append(cands, [2]string{v, ""})
			}
		case strings.HasPrefix(cur, "-"):
			flags := [][3]string{{"help", "h", "help for " + c.Name}}
			for _, f := range c.Flags {
				flags = append(flags, [3]string{f.Name, "", f.Usage})
			}
			addFlags(flags)
		default:
			positional := 0
			for i := 0; i < len(rest); i++ {
				if strings.HasPrefix(rest[i], "-") {
					for _, f := range c.Flags {
						if f.String && rest[i] == "--"+f.Name {
							i++
						}
					}
					continue
				}
				positional++
			}
			if len(c.ValidArgs) > 0 {
				if positional == 0 {
					for _, v := range c.ValidArgs {
						add(v, "")
					}
				} else {
					directive = 0
				}
			}
		}
	} else if len(words) == 1 && words[0] == "help" {
		for _, c := range Commands() {
			if !c.Hidden {
				add(c.Name, c.Short)
			}
		}
		add("help", "Help about any command")
	}
	if (len(words) == 0 && !strings.HasPrefix(cur, "-")) || (len(words) > 0 && words[0] == "help") {
		sort.Slice(cands, func(i, j int) bool { return cands[i][0] < cands[j][0] })
	}
	for _, c := range cands {
		if c[1] != "" {
			fmt.Fprintf(w, "%s\t%s\n", c[0], c[1])
		} else {
			fmt.Fprintln(w, c[0])
		}
	}
	fmt.Fprintf(w, ":%d\n", directive)
	return nil
}
