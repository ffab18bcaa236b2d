// Package shellhooks holds the shell integration snippets as real shell
// files, embedded in the binary and printed by `prchip init`.
package shellhooks

import (
	"cmp"
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/env"
)

//go:embed prchip.zsh prchip.bash prchip.fish starship.toml
var files embed.FS

// Names lists the integrations `prchip init` knows.
func Names() []string { return []string{"zsh", "bash", "fish", "starship"} }

// Options fill a snippet's placeholders.
type Options struct {
	// Exe is the prchip binary's absolute path; hooks call it directly so
	// a prompt costs no PATH search.
	Exe string
	// InvalidateOn lists the commands after which the repository is invalidated.
	InvalidateOn []string
}

// Snippet returns the integration for name with placeholders filled.
func Snippet(name string, o Options) (string, bool) {
	f := "prchip." + name
	if name == "starship" {
		f = "starship.toml"
	}
	b, err := files.ReadFile(f) // none for a name not in Names
	if err != nil {
		return "", false
	}
	// git only asks GitHub whether the PR changed (a conditional probe:
	// a commit changes nothing there, a push does); gh, gt and the other
	// commands configured refresh in full (SPEC 4, "Cost to GitHub").
	words := make([]string, 0, len(o.InvalidateOn))
	var probeWords []string
	for _, w := range o.InvalidateOn {
		if isWord(w) && w == "git" {
			probeWords = append(probeWords, w)
		} else if isWord(w) {
			words = append(words, w)
		}
	}
	// With no command configured the case pattern is '', which no command
	// word matches; an empty pattern would be a syntax error in bash and zsh.
	casePattern := func(words []string) string {
		if len(words) == 0 {
			return "''"
		}
		return strings.Join(words, "|")
	}
	pattern, probePattern := casePattern(words), casePattern(probeWords)
	r := strings.NewReplacer(
		"@PRCHIP_EXE@", quote(cmp.Or(o.Exe, "prchip"), name),
		"@PRCHIP_INVALIDATE_ON@", strings.Join(words, " "),
		"@PRCHIP_INVALIDATE_CASE@", pattern,
		"@PRCHIP_PROBE_ON@", strings.Join(append(probeWords, "''")[:max(len(probeWords), 1)], " "),
		"@PRCHIP_PROBE_CASE@", probePattern,
		"@PRCHIP_ENV_ZSH@", envLines(`    [[ ${(t)%[1]s} == *-export* ]] && env+=("%[1]s=$%[1]s")`),
		// Tab-separated: a newline would make bash's printf, line-buffered,
		// write the request in two pieces (and wake the worker twice).
		"@PRCHIP_ENV_BASH@", "    _prchip_ae=\""+strings.ReplaceAll(envLines(`${%[1]s@A}`), "\n", "\t")+"\"",
		"@PRCHIP_PROXIES@", proxies(),
		"@PRCHIP_KEY_BASH@", "      _prchip_mk=\"$PWD\t"+memoKey(`${%[1]s@A}`, `${%[1]s@a}${#%[1]s}${%[1]s: -6}`)+"\"",
		// zsh: words of an array, joined after (one quoted string of them
		// all costs zsh 100 us, as it copies the string at each expansion).
		"@PRCHIP_KEY_ZSH@", "      kw=($PWD "+strings.ReplaceAll(memoKey(`${(t)%[1]s}=$%[1]s`, `${(t)%[1]s}${#%[1]s}${%[1]s[-6,-1]}`), "\t", " ")+")\n      key=${(pj:\\0:)kw}",
		"@PRCHIP_ENV_FISH@", envLines(`        set -qx %[1]s; and set -a env "%[1]s=$%[1]s"`),
		"@PRCHIP_ENV_FISH_EVENTS@", fishEvents(),
		"@PRCHIP_BUDGET_S@", strconv.FormatFloat(Budget.Seconds(), 'f', -1, 64),
		"@PRCHIP_BUDGET_US@", strconv.FormatInt(Budget.Microseconds(), 10),
	)
	out := r.Replace(string(b))
	if name == "zsh" {
		out = zshDefine(out)
	}
	return out, true
}

// zshDefine wraps the zsh snippet so that its code is parsed with aliases
// off and runs with every option at zsh's default, as gitstatus defines
// its functions: `alias local=...`, `alias -g`, `setopt ksh_arrays` or
// `rc_quotes` before the user's eval must not change prchip's functions.
// zsh's eval parses its whole text before running any of it, so a
// `setopt no_aliases` inside the snippet would come too late: the body
// goes to an anonymous function as one argument, quoted as $'...' (which
// rc_quotes does not change), and is parsed there by eval, after
// emulate. Every word outside the body is quoted, so no alias applies to
// it. prompt_subst is set after the function returns: emulate -L would
// take it back.
func zshDefine(snippet string) string {
	header, body := "", snippet
	for strings.HasPrefix(body, "#") {
		line, rest, _ := strings.Cut(body, "\n")
		header += line + "\n"
		body = rest
	}
	q := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(body)
	return header + "() {\n  'builtin' 'emulate' '-L' 'zsh' '-o' 'no_aliases'\n  'builtin' 'eval' \"$1\"\n} $'" + q +
		"'\n'builtin' 'setopt' 'prompt_subst'\n"
}

// envLines is line (a format of the variable's name) for each env.Names:
// the hooks collect the request's variables unrolled, which costs a prompt
// about half of what a loop over the names does.
func envLines(line string) string {
	var b strings.Builder
	for i, n := range env.Names {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, line, n)
	}
	return b.String()
}

// memoKey is what the bash and zsh hooks compare from one prompt to the
// next to know that the worker's memo still answers them: each of
// env.Names as plain (its value and whether it is exported), but for the
// tokens, which the shell must not keep after the prompt: secret, their
// attributes, length and last six characters (a GitHub token's last six
// are its checksum). The hooks take no memo while the git -c variables
// are set (their values may be secret, so they are not here), nor while
// a proxy URL holds a password (an @).
func memoKey(plain, secret string) string {
	var b strings.Builder
	for _, n := range env.Names {
		f := plain
		switch {
		case n == "GIT_CONFIG_PARAMETERS", n == "GIT_CONFIG_COUNT":
			continue
		case slices.Contains(ghauth.TokenVars, n):
			f = secret
		}
		if b.Len() > 0 {
			b.WriteByte('\t')
		}
		fmt.Fprintf(&b, f, n)
	}
	return b.String()
}

// proxies expands to the proxy URLs of env.Names one after another (not
// NO_PROXY, a list of hosts), for the hooks' test for a password (an @).
func proxies() string {
	var b strings.Builder
	for _, n := range env.Names {
		if strings.HasSuffix(strings.ToUpper(n), "_PROXY") && !strings.EqualFold(n, "NO_PROXY") {
			fmt.Fprintf(&b, "${%s-}", n)
		}
	}
	return b.String()
}

// isWord keeps configured command names to characters safe in every
// shell's case pattern.
func isWord(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// tomlEscape escapes s for the inside of a TOML basic string.
func tomlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quote makes a path a single shell word (TOML string for starship).
func quote(s, shell string) string {
	if shell == "starship" {
		// A sh word inside a TOML basic string: quoted for sh, then
		// escaped for TOML, whatever the path holds.
		return tomlEscape(`'` + strings.ReplaceAll(s, `'`, `'"'"'`) + `'`)
	}
	if shell == "fish" {
		return `'` + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + `'`
	}
	return `'` + strings.ReplaceAll(s, `'`, `'\''`) + `'`
}

// fishEvents are the --on-variable flags for every variable a fish request
// may carry: the hook collects them again only after one changed.
func fishEvents() string {
	names := append([]string(nil), env.Names...)
	for i := range env.GitConfigPairs {
		names = append(names, "GIT_CONFIG_KEY_"+strconv.Itoa(i), "GIT_CONFIG_VALUE_"+strconv.Itoa(i))
	}
	var b strings.Builder
	for i, n := range names {
		if i%4 == 0 {
			b.WriteString("\\\n            ")
		}
		b.WriteString(" --on-variable " + n)
	}
	return b.String()
}
