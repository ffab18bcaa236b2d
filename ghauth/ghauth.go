// Package ghauth applies gh's own rules for which hosts are GitHub hosts and
// where gh keeps its setup. It mirrors github.com/cli/go-gh/v2/pkg/auth,
// which the tests use as the oracle.
package ghauth

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/cli/go-gh/v2/pkg/auth"
	"github.com/cli/go-gh/v2/pkg/repository"
	"gopkg.in/yaml.v3"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/internal/repo"
)

const github = "github.com"

// TokenVars are the environment variables gh reads a token from. Only
// whether and which are set reaches the fingerprint, as a digest.
var TokenVars = []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}

// NormalizeHostname is go-gh's: subdomains of github.com and
// github.localhost collapse to them, tenancy hosts to NAME.ghe.com.
func NormalizeHostname(host string) string { return auth.NormalizeHostname(host) }

// ConfigDir is gh's configuration directory, by go-gh's rule
// (config.ConfigDir, which reads the process's environment: the worker's
// is not the request's), "" when it cannot be known (no home).
func ConfigDir(e env.Env) string {
	d := e.Get("GH_CONFIG_DIR")
	if x := e.Get("XDG_CONFIG_HOME"); d == "" && x != "" {
		d = filepath.Join(x, "gh")
	} else if h := e.Get("HOME"); d == "" && h != "" {
		d = filepath.Join(h, ".config", "gh")
	}
	if filepath.IsAbs(d) {
		return d
	}
	return ""
}

// Setup is gh's local setup as far as it decides a PR chip's result. It
// never holds a token: only digests and file identities.
type Setup struct {
	GhPath     string // the gh found on PATH, "" when missing
	GhIdentity string // gh's "path size mtime", or "missing"
	Auth       string // digests the token variables, GH_HOST and gh's files
	// hostsFile is gh's hosts.yml while it exists and is not read yet; it
	// is read only when a remote's host is neither github.com, *.ghe.com
	// nor GH_HOST.
	hostsFile string
	hostsYAML map[string]any
	hostsErr  error

	identity string // computed once by Identity
	env      env.Env
}

// Identity is what suppression is recorded against: when it changes, the
// user changed something that may fix an auth failure or a missing gh.
func (s *Setup) Identity() string {
	if s.identity == "" {
		s.identity = Digest(s.GhIdentity, s.Auth)
	}
	return s.identity
}

// ReadSetup looks up gh on PATH and reads the auth setup, without running
// anything.
func ReadSetup(e env.Env) *Setup {
	s := &Setup{GhIdentity: "missing", env: e}
	if p, st := LookPath("gh", e); p != "" {
		s.GhPath = p
		s.GhIdentity = p + " " + strconv.FormatInt(st.Size, 10) + " " + strconv.FormatInt(st.MtimeNs, 10)
	}
	// Which token variables are set to what, GH_HOST, GH_CONFIG_DIR and
	// the identities of hosts.yml and config.yml (git_protocol, per-host
	// settings change what gh does), as one digest.
	var buf [14]string // on the stack: 2 per token variable and 6 more
	parts := buf[:0]
	for _, v := range TokenVars {
		parts = append(parts, v, e.Get(v))
	}
	parts = append(parts, e.Get("GH_HOST"), e.Get("GH_CONFIG_DIR"))
	if d := ConfigDir(e); d != "" {
		hf := filepath.Join(d, "hosts.yml")
		id := e.Files().Version(hf)
		if id != "" {
			s.hostsFile = hf
		}
		parts = append(parts, hf, cmp.Or(id, "none"), "config.yml", e.Files().Version(filepath.Join(d, "config.yml")))
	}
	s.Auth = Digest(parts...)
	return s
}

// LookPath finds an executable regular file named name on PATH, as gh's
// safeexec does (never the current directory).
func LookPath(name string, e env.Env) (string, rawfile.FileInfo) {
	for dir := range strings.SplitSeq(e.Get("PATH"), string(os.PathListSeparator)) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		st, err := e.Files().Stat(p)
		if err != nil || !st.IsRegular() || st.Perm()&0o111 == 0 {
			continue
		}
		return p, st
	}
	return "", rawfile.FileInfo{}
}

// hosts is gh's hosts.yml, host to settings, read on first use.
func (s *Setup) hosts() map[string]any {
	if s.hostsFile != "" {
		s.hostsYAML, s.hostsErr = readHosts(s.env.Files(), s.hostsFile)
		s.hostsFile = ""
	}
	return s.hostsYAML
}

// HostsErr says why hosts.yml could not be read, if it exists but is unusable.
func (s *Setup) HostsErr() error {
	s.hosts()
	return s.hostsErr
}

// readHosts returns gh's hosts.yml as a map of host to its settings. The
// file is read through files (bounded, never blocking on a FIFO, and
// watched by the worker) and parsed as YAML, as gh parses it.
func readHosts(files rawfile.Reader, p string) (map[string]any, error) {
	b, _, err := files.Read(p, 1<<20, syscall.O_NONBLOCK, nil)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// TokenSource says where gh would take a token for host from, by go-gh's
// order without running gh: a token variable's name, "hosts.yml", or ""
// when neither has one (gh may still keep one in the system keyring).
// Only presence is looked at; no token is kept.
func (s *Setup) TokenSource(host string) string {
	n := NormalizeHostname(host)
	vars := TokenVars[2:] // GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN
	if !auth.IsEnterprise(n) {
		vars = TokenVars[:2] // GH_TOKEN, GITHUB_TOKEN
	}
	for _, v := range vars {
		if s.env.Get(v) != "" {
			return v
		}
	}
	entry, _ := s.hosts()[n].(map[string]any)
	if tok, _ := entry["oauth_token"].(string); tok != "" {
		return "hosts.yml"
	}
	return ""
}

// HostsTokens are every oauth_token in gh's hosts.yml, for any host and
// account (gh 2.40's per-user entries too), for sanitize to redact as
// exact values (a legacy 40-hex token has no prefix to know it by); the
// caller keeps them in memory only.
func HostsTokens(e env.Env) []string {
	d := ConfigDir(e)
	if d == "" {
		return nil
	}
	doc, err := readHosts(e.Files(), filepath.Join(d, "hosts.yml"))
	if err != nil {
		return nil
	}
	return oauthTokens(doc, 0)
}

// oauthTokens are the oauth_token values in v and the maps under it, down
// to a depth well past gh's: a hostile file cannot make it recurse deep.
func oauthTokens(v any, depth int) (toks []string) {
	m, _ := v.(map[string]any)
	for k, x := range m {
		if tok, ok := x.(string); ok && k == "oauth_token" && tok != "" {
			toks = append(toks, tok)
		}
		if depth < 8 {
			toks = append(toks, oauthTokens(x, depth+1)...)
		}
	}
	return toks
}

// IsGitHubHost reports whether gh would treat host as a GitHub host.
func (s *Setup) IsGitHubHost(host string) bool {
	if host == "" {
		return false
	}
	n := NormalizeHostname(host)
	if gh := s.env.Get("GH_HOST"); n == github || auth.IsTenancy(n) || gh != "" && NormalizeHostname(gh) == n {
		return true
	}
	for h := range s.hosts() {
		if NormalizeHostname(h) == n {
			return true
		}
	}
	return false
}

// remotePriority is gh's order for choosing among remotes: these names,
// then every other.
func remotePriority(name string) int {
	if i := slices.Index([]string{"upstream", "github", "origin"}, name); i >= 0 {
		return i
	}
	return 3
}

// counts is the rule for a remote's host that gh goes by: a GitHub host
// (IsGitHubHost) or, with GH_HOST set, only that host ("none of the git
// remotes configured for this repository correspond to the GH_HOST
// environment variable").
func (s *Setup) counts() func(host string) bool {
	if gh := s.env.Get("GH_HOST"); gh != "" {
		want := NormalizeHostname(gh)
		return func(host string) bool { return host != "" && NormalizeHostname(host) == want }
	}
	return s.IsGitHubHost
}

// GitHubRemote picks the remote gh would use: the first GitHub-host remote
// by gh's name priority (upstream, github, origin, then config order). An
// SSH remote's host is looked up among the SSH configuration's aliases, as
// gh does, but only when that remote could still win: remotes are tried in
// that order, so a repository with a GitHub origin and another forge's SSH
// remote reads no SSH configuration. The chosen remote's Host is the
// normalised GitHub host.
func (s *Setup) GitHubRemote(info *repo.Info) (repo.Remote, bool) {
	counts := s.counts()
	// One SSH lookup per host, however many remotes.
	looked := map[string]bool{}
	for p := range 4 { // each of remotePriority's values in turn
		for _, r := range info.Remotes {
			if remotePriority(r.Name) != p {
				continue
			}
			host := repo.Host(r.URL)
			if host != "" && !counts(host) && repo.IsSSH(r.URL) && !looked[host] {
				looked[host] = true
				host = SSHHostName(host, s.env.Get("HOME"), s.env.Files())
			}
			if counts(host) {
				r.Host = NormalizeHostname(host)
				return r, true
			}
		}
	}
	return repo.Remote{}, false
}

// Digest is a short, stable digest of parts, each length-prefixed so no
// two lists give the same input. SHA-256, as token values are among the
// parts and what is kept on disk must not help guess them; half of it
// keeps a collision out of reach and keys as short as they were.
func Digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// GhRepo is the repository GH_REPO points gh at, read by gh's own parser
// ("[HOST/]OWNER/REPO" or a URL; the host defaults to GH_HOST, else
// github.com), as a remote; set is false when GH_REPO is unset, ok false
// when it does not parse or names a host gh does not know.
func (s *Setup) GhRepo() (r repo.Remote, set, ok bool) {
	v := s.env.Get("GH_REPO")
	if v == "" {
		return repo.Remote{}, false, false
	}
	gr, err := repository.ParseWithHost(v, cmp.Or(s.env.Get("GH_HOST"), github))
	if err != nil || gr.Owner == "" || gr.Name == "" {
		return repo.Remote{}, true, false
	}
	host := NormalizeHostname(gr.Host)
	if !s.IsGitHubHost(host) {
		return repo.Remote{}, true, false
	}
	return repo.Remote{Name: "GH_REPO", URL: "https://" + host + "/" + gr.Owner + "/" + gr.Name, Host: host}, true, true
}
