// Package ghauth applies gh's own rules for which hosts are GitHub hosts and
// where gh keeps its setup. It mirrors github.com/cli/go-gh/v2/pkg/auth,
// which the tests use as the oracle.
package ghauth

import (
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/repo"
)

const (
	github    = "github.com"
	localhost = "github.localhost"
	tenancy   = "ghe.com"
)

// TokenVars are the environment variables gh reads a token from. Only
// whether and which are set reaches the fingerprint, as a digest.
var TokenVars = []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}

// NormalizeHostname follows go-gh: subdomains of github.com and
// github.localhost collapse to them, tenancy hosts to NAME.ghe.com.
func NormalizeHostname(host string) string {
	h := strings.ToLower(host)
	if strings.HasSuffix(h, "."+github) {
		return github
	}
	if strings.HasSuffix(h, "."+localhost) {
		return localhost
	}
	if before, ok := strings.CutSuffix(h, "."+tenancy); ok {
		return before[strings.LastIndexByte(before, '.')+1:] + "." + tenancy
	}
	return h
}

// ConfigDir is gh's configuration directory, as gh computes it on Unix.
func ConfigDir() string {
	if d := os.Getenv("GH_CONFIG_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "gh")
	}
	home := os.Getenv("HOME") // os.UserHomeDir's rule on Unix
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "gh")
}

// HostsFile is the path of gh's hosts.yml ("" when no home is known).
func HostsFile() string {
	d := ConfigDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "hosts.yml")
}

// Setup is gh's local setup as far as it decides a PR chip's result. It
// never holds a token: only digests and file identities.
type Setup struct {
	// GhPath is the gh found on PATH, "" when missing.
	GhPath string
	// GhIdentity is "path size mtime" of gh, or "missing".
	GhIdentity string
	// Auth digests hosts.yml's identity, GH_HOST, GH_CONFIG_DIR and which
	// token variables hold which values.
	Auth string
	// hostsFile is gh's hosts.yml when it exists; it is read only when a
	// remote's host is neither github.com, *.ghe.com nor GH_HOST.
	hostsFile   string
	hostsLoaded bool
	hosts       []string
	hostsErr    error

	identity string // computed once by Identity
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
func ReadSetup() *Setup {
	s := new(Setup)
	s.Read()
	return s
}

// Read is ReadSetup into memory the caller owns.
func (s *Setup) Read() {
	*s = Setup{GhIdentity: "missing"}
	if p, st := LookPath("gh"); p != "" {
		s.GhPath = p
		s.GhIdentity = p + " " + strconv.FormatInt(st.Size, 10) + " " + strconv.FormatInt(st.MtimeNs, 10)
	}
	// Which token variables are set to what, GH_HOST, GH_CONFIG_DIR and
	// hosts.yml's identity, as one digest.
	var buf [12]string // on the stack: 2 per token variable and 4 more
	parts := buf[:0]
	for _, v := range TokenVars {
		parts = append(parts, v, os.Getenv(v))
	}
	parts = append(parts, os.Getenv("GH_HOST"), os.Getenv("GH_CONFIG_DIR"))
	if hf := HostsFile(); hf != "" {
		if st, err := rawfile.Stat(hf); err == nil {
			parts = append(parts, hf, strconv.FormatInt(st.Size, 10)+" "+strconv.FormatInt(st.MtimeNs, 10))
			s.hostsFile = hf
		} else {
			parts = append(parts, hf, "none")
		}
	}
	s.Auth = Digest(parts...)
}

// LookPath finds an executable regular file named name on PATH, as gh's
// safeexec does (never the current directory).
func LookPath(name string) (string, rawfile.FileInfo) {
	path := os.Getenv("PATH")
	for path != "" {
		dir := path
		if i := strings.IndexByte(path, os.PathListSeparator); i >= 0 {
			dir, path = path[:i], path[i+1:]
		} else {
			path = ""
		}
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		st, err := rawfile.Stat(p)
		if err != nil || !st.IsRegular() || st.Perm()&0o111 == 0 {
			continue
		}
		return p, st
	}
	return "", rawfile.FileInfo{}
}

// Hosts are the hosts in gh's hosts.yml, read on first use.
func (s *Setup) Hosts() []string {
	if !s.hostsLoaded && s.hostsFile != "" {
		s.hosts, s.hostsErr = readHosts(s.hostsFile)
	}
	s.hostsLoaded = true
	return s.hosts
}

// HostsErr says why hosts.yml could not be read, if it exists but is unusable.
func (s *Setup) HostsErr() error {
	s.Hosts()
	return s.hostsErr
}

// readHosts returns the top-level keys of gh's hosts.yml. gh writes this file
// itself as a plain block mapping, so a line-based read of unindented keys
// is exact for it and avoids a YAML parser on the render path.
func readHosts(p string) ([]string, error) {
	b, _, err := rawfile.Read(p, 1<<20, syscall.O_NONBLOCK, nil)
	if err != nil {
		return nil, err
	}
	var hosts []string
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line == "---" {
			continue
		}
		k, _, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		if k != "" {
			hosts = append(hosts, k)
		}
	}
	return hosts, nil
}

// IsGitHubHost reports whether gh would treat host as a GitHub host.
func (s *Setup) IsGitHubHost(host string) bool {
	if host == "" {
		return false
	}
	n := NormalizeHostname(host)
	if n == github || strings.HasSuffix(n, "."+tenancy) {
		return true
	}
	if gh := os.Getenv("GH_HOST"); gh != "" && NormalizeHostname(gh) == n {
		return true
	}
	for _, h := range s.Hosts() {
		if NormalizeHostname(h) == n {
			return true
		}
	}
	return false
}

// remotePriority is gh's order for choosing among remotes.
func remotePriority(name string) int {
	switch name {
	case "upstream":
		return 0
	case "github":
		return 1
	case "origin":
		return 2
	}
	return 3
}

// GitHubRemote picks the remote gh would use: the first GitHub-host remote
// by gh's name priority (upstream, github, origin, then config order). An
// SSH remote's host is looked up among the SSH configuration's aliases, as
// gh does, but only when that remote could still win: a repository with
// a GitHub origin and another forge's SSH remote reads no SSH
// configuration. The chosen remote's Host is the normalised GitHub host.
func (s *Setup) GitHubRemote(info *repo.Info) (repo.Remote, bool) {
	best, bestAt := repo.Remote{}, -1
	better := func(i int, name string) bool {
		if bestAt < 0 {
			return true
		}
		p, q := remotePriority(name), remotePriority(best.Name)
		return p < q || p == q && i < bestAt
	}
	for i, r := range info.Remotes {
		if host := repo.Host(r.URL); s.IsGitHubHost(host) && better(i, r.Name) {
			r.Host = NormalizeHostname(host)
			best, bestAt = r, i
		}
	}
	// A remote the first pass took, or could have, loses to the best here
	// (the order is total), so only SSH remotes that would win are looked
	// at again, and the render does no work twice for the common GitHub
	// origin.
	for i, r := range info.Remotes {
		if !better(i, r.Name) || !repo.IsSSH(r.URL) {
			continue
		}
		host := repo.Host(r.URL)
		if host == "" {
			continue
		}
		if alias := SSHHostName(host, os.Getenv("HOME")); s.IsGitHubHost(alias) {
			r.Host = NormalizeHostname(alias)
			best, bestAt = r, i
		}
	}
	return best, bestAt >= 0
}

// fnv128a is the digest behind fingerprints: 128-bit FNV-1a. Fingerprints
// only need to change when their inputs change; they are not a defence of
// the token (the state file is private to the user, and a 128-bit digest of
// many fields cannot give a 40-character token back). crypto/sha256 would
// link Go's FIPS module, whose initialisation costs about 0.3 ms on every
// prompt. It is hash/fnv's New128a without the interface and the
// buffers: digests run on every render, and each allocation size a cold
// process touches first costs it fresh memory. TestFNVMatchesHashFNV keeps
// it equal to hash/fnv, so stored fingerprints never change.
type fnv128a [2]uint64 // high, low

func newFNV() fnv128a { return fnv128a{0x6c62272e07bb0142, 0x62b821756295c58d} }

func (s *fnv128a) writeByte(c byte) {
	const primeLower, primeShift = 0x13b, 24
	s[1] ^= uint64(c)
	hi, lo := bits.Mul64(primeLower, s[1])
	hi += s[1]<<primeShift + primeLower*s[0]
	s[0], s[1] = hi, lo
}

func (s *fnv128a) writeString(p string) {
	for i := 0; i < len(p); i++ {
		s.writeByte(p[i])
	}
}

func (s *fnv128a) hex() string {
	const digits = "0123456789abcdef"
	var b [32]byte
	for i, w := range s {
		for j := 0; j < 16; j++ {
			b[i*16+j] = digits[(w>>(60-4*j))&0xf]
		}
	}
	return string(b[:])
}

// Digest hashes parts unambiguously (each as "len:part;"); fingerprints
// and repository keys are built with it.
func Digest(parts ...string) string {
	h := newFNV()
	var num [20]byte
	for _, p := range parts {
		for _, c := range strconv.AppendInt(num[:0], int64(len(p)), 10) {
			h.writeByte(c)
		}
		h.writeByte(':')
		h.writeString(p)
		h.writeByte(';')
	}
	return h.hex()
}
