package sanitize

import (
	"slices"
	"strings"
)

// Shell names a prompt dialect for ForShell.
type Shell string

const (
	Plain Shell = "plain"
	Zsh   Shell = "zsh"
	Bash  Shell = "bash"
	Fish  Shell = "fish"
	// Tmux is a tmux status line: `#(prchip prompt --shell tmux)` output
	// is read as a format, then drawn with #[...] styles.
	Tmux Shell = "tmux"
	// Statusline is what an agent or editor status line shows as it comes
	// (`prchip statusline`): nothing is escaped, colours and links are the
	// terminal's own sequences. Not a --shell value.
	Statusline Shell = "statusline"
)

// ParseShell maps a --shell value to a Shell; ok is false for unknown names.
func ParseShell(s string) (Shell, bool) {
	return Shell(s), slices.Contains([]Shell{Plain, Zsh, Bash, Fish, Tmux}, Shell(s))
}

// ForShell escapes already-sanitized text for the prompt of shell. zsh and
// bash would show a backslash-escape literally ($PRCHIP is not expanded
// again), but a common precmd pastes the value into PROMPT="… $PRCHIP …",
// where prompt_subst or promptvars run `$(…)`, backticks and `${…}`: so
// '\', '$' and '`' become look-alikes, inert either way. zsh also runs
// %-escapes on $PRCHIP's value, so '%' is doubled (prompt_bang's '!' is
// doubled by the zsh hook, which alone knows that option). fish needs
// nothing. tmux reads `#(…)` output as a format, where '#' starts a
// command, variable or style, so '#' is doubled.
func ForShell(s string, shell Shell) string {
	switch shell {
	case Zsh:
		return zshReplacer.Replace(s) // s itself, not a copy, when nothing is replaced
	case Bash:
		return bashReplacer.Replace(s)
	case Tmux:
		return strings.ReplaceAll(s, "#", "##")
	}
	return s
}

var (
	lookalikes = []string{
		"\\", "\u2216", // SET MINUS
		"$", "\uff04", // FULLWIDTH DOLLAR SIGN
		"`", "\u02cb", // MODIFIER LETTER GRAVE ACCENT
	}
	bashReplacer = strings.NewReplacer(lookalikes...)
	zshReplacer  = strings.NewReplacer(append([]string{"%", "%%"}, lookalikes...)...)
)
