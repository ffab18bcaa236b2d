package sanitize

import "strings"

// Shell names a prompt dialect for ForShell.
type Shell string

const (
	Plain Shell = "plain"
	Zsh   Shell = "zsh"
	Bash  Shell = "bash"
	Fish  Shell = "fish"
)

// ParseShell maps a --shell value to a Shell; ok is false for unknown names.
func ParseShell(s string) (Shell, bool) {
	switch Shell(s) {
	case Plain, Zsh, Bash, Fish:
		return Shell(s), true
	}
	return "", false
}

// ForShell escapes already-sanitized text for the prompt of shell.
//
// zsh performs %-expansion on the result of $PRCHIP under prompt_subst, so
// '%' is doubled. bash never re-expands a variable referenced by name in PS1,
// so a backslash-escape would be shown literally; instead '\', '$' and '`'
// are replaced by look-alikes, which keeps the text inert even if a user
// pastes the value into PS1 itself. fish needs nothing when the prompt
// prints $PRCHIP.
func ForShell(s string, shell Shell) string {
	switch shell {
	case Zsh:
		if strings.IndexByte(s, '%') < 0 {
			return s
		}
		return strings.ReplaceAll(s, "%", "%%")
	case Bash:
		if strings.IndexAny(s, "\\$`") < 0 {
			return s
		}
		var b strings.Builder
		for _, r := range s {
			switch r {
			case '\\':
				b.WriteRune('\u2216') // SET MINUS
			case '$':
				b.WriteRune('\uff04') // FULLWIDTH DOLLAR SIGN
			case '`':
				b.WriteRune('\u02cb') // MODIFIER LETTER GRAVE ACCENT
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	return s
}
