package ghauth

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/prchip/prchip/internal/rawfile"
)

// SSHHostName resolves an SSH host alias as gh does for ssh remotes (`ssh
// -G HOST`'s "hostname"), from ~/.ssh/config, without starting ssh:
// git@github-work:org/repo.git with "Host github-work / HostName
// github.com" is a GitHub remote to gh, so to prchip. It reads what
// decides HostName: Host pattern lists (* ? !), Match all, host and
// originalhost (other criteria do not match), Include (globs, ~, relative
// to ~/.ssh), "keyword value", "keyword=value", quotes, the first value
// winning, %h and %%. "" when no HostName applies.
//
// /etc/ssh/ssh_config is left out: distributions put no aliases there, and
// reading it and its ssh_config.d cost 0.3 ms on every prompt in a
// repository whose SSH remote is not GitHub's (measured).
func SSHHostName(host, home string, files rawfile.Reader) string {
	if home == "" {
		return ""
	}
	r := sshResolver{host: host, home: home, read: files}
	r.file(filepath.Join(home, ".ssh", "config"))
	return r.hostname
}

// sshResolver walks configuration files in ssh's order for one host.
type sshResolver struct {
	host, home   string
	hostname     string // the first HostName that applied, expanded
	read         rawfile.Reader
	depth, files int // Include nesting, files read
}

const (
	// maxSSHInclude is OpenSSH's limit on nested Include.
	maxSSHInclude = 16
	// maxSSHFiles bounds the files read for one host: configurations that
	// include each other would otherwise fan out to 2^16 reads in a prompt.
	maxSSHFiles = 64
)

func (r *sshResolver) file(path string) {
	r.files++
	if b, _, err := r.read.Read(path, 1<<20, syscall.O_NONBLOCK, nil); err == nil {
		r.parse(string(b))
	}
}

func (r *sshResolver) parse(text string) {
	active := true // options before the first Host or Match apply to all
	for line := range strings.Lines(text) {
		key, args := sshFields(line)
		switch strings.ToLower(key) {
		case "host":
			active = matchHost(r.host, args)
		case "match":
			active = r.match(args)
		case "include":
			if active && r.depth < maxSSHInclude {
				for _, a := range args {
					r.include(a)
				}
			}
		case "hostname":
			if active && r.hostname == "" && len(args) > 0 {
				r.hostname = expandSSHHostName(args[0], r.host)
			}
		}
	}
}

// include reads the files an Include names: ~ is the home directory, and
// a relative path is relative to ~/.ssh, as for ssh's user configuration.
func (r *sshResolver) include(pattern string) {
	if rest, ok := strings.CutPrefix(pattern, "~/"); ok {
		pattern = filepath.Join(r.home, rest)
	} else if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(r.home, ".ssh", pattern)
	}
	r.depth++
	for _, p := range glob(r.read, pattern) {
		if r.files >= maxSSHFiles {
			break
		}
		r.file(p)
	}
	r.depth--
}

// match evaluates a Match line: every criterion must hold.
func (r *sshResolver) match(args []string) bool {
	if len(args) == 1 && strings.EqualFold(args[0], "all") {
		return true
	}
	if len(args) == 0 || len(args)%2 != 0 {
		return false
	}
	for i := 0; i < len(args); i += 2 {
		crit, list := strings.ToLower(args[i]), args[i+1]
		neg := strings.HasPrefix(crit, "!")
		target := r.host
		switch strings.TrimPrefix(crit, "!") {
		case "host": // the HostName so far, if any
			target = cmp.Or(r.hostname, r.host)
		case "originalhost":
		default:
			return false
		}
		if matchHost(target, strings.Split(list, ",")) == neg {
			return false
		}
	}
	return true
}

// matchHost is ssh's pattern-list match: some pattern matches and no
// negated one does.
func matchHost(host string, patterns []string) bool {
	matched := false
	for _, p := range patterns {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if wildcard(neg, host) {
				return false
			}
		} else if wildcard(p, host) {
			matched = true
		}
	}
	return matched
}

// wildcard matches s against a pattern of * (any run) and ? (one byte),
// in time proportional to len(p)*len(s) whatever the pattern: the render
// must not hang on a configuration line like *a*a*a*a*b.
func wildcard(p, s string) bool {
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]):
			pi++
			si++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// expandSSHHostName applies HostName's tokens (%h the host, %% a percent
// sign) and lowercases the result, as ssh prints it.
func expandSSHHostName(v, host string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+1 < len(v) {
			i++
			switch v[i] {
			case 'h':
				b.WriteString(host)
			case '%':
				b.WriteByte('%')
			default:
				return "" // ssh refuses other tokens in HostName
			}
			continue
		}
		b.WriteByte(v[i])
	}
	return strings.ToLower(b.String())
}

// sshFields splits a configuration line into its keyword and arguments:
// "keyword value", "keyword=value" or "keyword = value"; double quotes
// group words; a line starting with # is a comment.
func sshFields(line string) (string, []string) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", nil
	}
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return line, nil
	}
	key, rest := line[:i], strings.TrimLeft(line[i:], " \t")
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	var args []string
	for rest != "" {
		end, quote := strings.IndexAny(rest, " \t"), 0
		if rest[0] == '"' {
			if rest, quote, end = rest[1:], 1, strings.IndexByte(rest[1:], '"'); end < 0 {
				return key, nil // unbalanced quotes: ssh rejects the line
			}
		} else if end < 0 {
			end = len(rest)
		}
		args = append(args, rest[:end])
		rest = strings.TrimLeft(rest[end+quote:], " \t")
	}
	return key, args
}

// glob expands an Include pattern, sorted as glob(3) sorts. Wildcards in
// the last element, the usual case (config.d/*.conf), are matched against
// a directory listing through files, which the worker watches.
func glob(files rawfile.Reader, pattern string) []string {
	dir, name := filepath.Split(pattern)
	if !strings.ContainsAny(pattern, "*?[\\") {
		return []string{pattern}
	}
	if strings.ContainsAny(dir, "*?[\\") {
		paths, _ := filepath.Glob(pattern)
		return paths
	}
	names, err := files.ReadDirNames(dir)
	if err != nil {
		return nil
	}
	var paths []string
	for _, n := range names {
		hidden := strings.HasPrefix(n, ".") && !strings.HasPrefix(name, ".") // glob(3), which ssh uses: * does not match a leading dot
		if ok, _ := filepath.Match(name, n); ok && !hidden {
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	slices.Sort(paths)
	return paths
}
