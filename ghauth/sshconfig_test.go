package ghauth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/rawfile"
	"github.com/prchip/prchip/internal/testenv"
)

// TestSSHHostNameMatchesOpenSSH holds the resolver to `ssh -G -F FILE
// HOST` on random configurations: Host and Match blocks, patterns with
// * ? and !, Include, the syntax variants, tokens, repeated HostName.
func TestSSHHostNameMatchesOpenSSH(t *testing.T) {
	ssh := testenv.Need(t, "ssh")
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	hosts := []string{"gh", "gh-work", "work", "abc", "a1", "github-x"}
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	pattern := func() string {
		p := pick(append(hosts, "gh*", "*", "a?c", "*-work", "?1", "github-?")...)
		if rng.IntN(5) == 0 {
			p = "!" + p
		}
		return p
	}
	value := func() string {
		return pick("github.com", "Foo-%h", "%h.example.com", "x%%y", "GitHub.COM", "ssh.github.com", `"Quoted Name"`)
	}
	line := func(include string) string {
		switch rng.IntN(12) {
		case 0, 1:
			n := 1 + rng.IntN(3)
			var ps []string
			for range n {
				ps = append(ps, pattern())
			}
			return pick("Host ", "Host=", "host ", "HOST = ") + strings.Join(ps, " ")
		case 2, 3, 4:
			return pick("  HostName ", "\tHostname=", "HostName = ", "HOSTNAME ") + value()
		case 5:
			return "Match " + pick("all", "host "+pattern()+","+pattern(), "originalhost "+pattern(), "!host "+pattern(), "host "+pattern()+" originalhost "+pattern())
		case 6:
			if include != "" {
				return "Include " + include
			}
			return "# no include here"
		case 7:
			return pick("User git", "Port 22", "IdentityFile ~/.ssh/id_x")
		case 8:
			return "# HostName commented.out"
		default:
			return ""
		}
	}
	config := func(path, include string, n int) {
		var b strings.Builder
		for range n {
			b.WriteString(line(include) + "\n")
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Fixed cases first: edges a random run may miss.
	fixed := []struct{ config, host string }{
		{"Host gh*\n HostName star-empty\n", "gh"},
		{"Host *gh\n HostName star-front\n", "gh"},
		{"Host g*h*\n HostName stars\n", "gh"},
		{"Host gh?\n HostName q\n", "gh"},
		{"Host !gh *\n HostName neg\n", "gh"},
		{"Host *\n HostName %h.x\nHost gh\n HostName later\n", "gh"},
		{"HostName global\nHost gh\n HostName later\n", "gh"},
		{"Host gh\nMatch all\n HostName after-match-all\n", "work"},
		{"Host gh\n HostName x\nMatch host x\n HostName y\n", "gh"},
	}
	incDir := filepath.Join(dir, "conf.d")
	os.MkdirAll(incDir, 0o700)
	os.WriteFile(filepath.Join(incDir, "b.conf"), []byte("Host dot\n HostName from-b\n"), 0o600)
	os.WriteFile(filepath.Join(incDir, ".a.conf"), []byte("Host dot\n HostName from-hidden\n"), 0o600)
	os.WriteFile(filepath.Join(incDir, "c.txt"), []byte("Host dot\n HostName from-txt\n"), 0o600)
	os.WriteFile(filepath.Join(incDir, "a.conf"), []byte("Host sorted\n HostName from-a\n"), 0o600)
	os.WriteFile(filepath.Join(incDir, "z.conf"), []byte("Host sorted\n HostName from-z\n"), 0o600)
	fixed = append(fixed,
		struct{ config, host string }{"Include " + incDir + "/*.conf\n", "dot"},
		struct{ config, host string }{"Include " + incDir + "/*\n", "dot"},
		struct{ config, host string }{"Include " + incDir + "/?.conf\n", "sorted"},
		struct{ config, host string }{"Include " + incDir + "/[za].conf\n", "sorted"},
		struct{ config, host string }{"Include " + incDir + "/.*\n", "dot"},
	)
	type probe struct{ main, inc, host string }
	var probes []probe
	for i, f := range fixed {
		main := filepath.Join(dir, fmt.Sprintf("f%d", i))
		os.WriteFile(main, []byte(f.config), 0o600)
		probes = append(probes, probe{main, "", f.host})
	}
	for i := range 100 {
		main, inc := filepath.Join(dir, fmt.Sprintf("c%d", i)), filepath.Join(dir, fmt.Sprintf("i%d", i))
		config(inc, "", 1+rng.IntN(6))
		config(main, inc, 1+rng.IntN(12))
		for range 3 {
			probes = append(probes, probe{main, inc, pick(hosts...)})
		}
	}
	compared := 0
	for _, p := range probes {
		main, inc, h := p.main, p.inc, p.host
		out, err := exec.Command(ssh, "-G", "-F", main, h).Output()
		if err != nil {
			continue // a configuration ssh rejects: gh resolves nothing either
		}
		want := ""
		for l := range strings.Lines(string(out)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "hostname "); ok {
				want = v
			}
		}
		r := sshResolver{host: h, home: dir}
		r.file(main)
		got := r.hostname
		if got == "" {
			got = h
		}
		if got != want {
			b, _ := os.ReadFile(main)
			c, _ := os.ReadFile(inc)
			t.Fatalf("host %q: ssh says %q, resolver %q\nconfig:\n%s\nincluded:\n%s", h, want, got, b, c)
		}
		compared++
	}
	if compared < 200 {
		t.Fatalf("only %d comparisons: ssh rejected most configurations", compared)
	}
}

func TestSSHHostNameIncludesAndHome(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh", "conf.d"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte("Include conf.d/*.conf\nHost direct\n  HostName github.com\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".ssh", "conf.d", "b.conf"), []byte("Host github-work\n  HostName ssh.github.com\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".ssh", "conf.d", "a.conf"), []byte("Host github-*\n  HostName first.example\n"), 0o600)
	for host, want := range map[string]string{
		"direct":      "github.com",
		"github-work": "first.example", // a.conf is read before b.conf
		"elsewhere":   "",
	} {
		if got := SSHHostName(host, home, rawfile.Reader{}); got != want {
			t.Errorf("SSHHostName(%q) = %q, want %q", host, got, want)
		}
	}
	if got := SSHHostName("direct", "", rawfile.Reader{}); got == "github.com" {
		t.Errorf("without a home the user configuration was read")
	}
}

// FuzzSSHConfig: any configuration text parses without panicking, and a
// resolved name is lowercase, as ssh prints it.
func FuzzSSHConfig(f *testing.F) {
	f.Add("Host gh*\n  HostName %h.example\n", "gh-work")
	f.Add("Match host a,!b originalhost *\nHostName=\"Q x\"\n", "a")
	f.Add("Host \"unbalanced\n HostName x %\n", "x")
	f.Add("Include ~/none/*\nhostname %%%h%\n", "h")
	f.Fuzz(func(t *testing.T, config, host string) {
		// Include is not followed here: an input naming /usr/*/* would
		// glob the machine's files (TestSSHHostNameMatchesOpenSSH and
		// TestSSHIncludeLoopsAreBounded cover it).
		r := sshResolver{host: host, home: "/nonexistent", depth: maxSSHInclude}
		r.parse(config)
		if r.hostname != strings.ToLower(r.hostname) {
			t.Fatalf("resolved %q is not lowercase", r.hostname)
		}
	})
}

// TestWildcard: ssh's pattern semantics, and no exponential backtracking.
func TestWildcard(t *testing.T) {
	cases := []struct {
		p, s string
		want bool
	}{
		{"*", "", true}, {"*", "abc", true}, {"a*", "a", true}, {"*a", "a", true}, {"a?c", "abc", true},
		{"a?c", "ac", false}, {"?", "", false}, {"a*b*c", "axxbyyc", true}, {"a*b*c", "axxbyy", false},
		{"gh-*", "gh-", true}, {"gh-*", "gh", false}, {"**x", "x", true}, {"", "", true}, {"", "a", false},
	}
	for _, c := range cases {
		if got := wildcard(c.p, c.s); got != c.want {
			t.Errorf("wildcard(%q, %q) = %v", c.p, c.s, got)
		}
	}
	// A recursive matcher takes hours here (the test then dies by its
	// timeout); the linear one microseconds.
	if wildcard(strings.Repeat("*a", 40)+"*b", strings.Repeat("a", 200)) {
		t.Fatal("matched")
	}
}

// Configurations that include each other stop at a bounded number of
// reads instead of fanning out.
func TestSSHIncludeLoopsAreBounded(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	loop := "Include a b\n"
	for _, f := range []string{"config", "a", "b"} {
		os.WriteFile(filepath.Join(home, ".ssh", f), []byte(loop), 0o600)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "b"), []byte(loop+"Host x\n HostName found\n"), 0o600)
	r := sshResolver{host: "x", home: home}
	r.file(filepath.Join(home, ".ssh", "config"))
	if r.files != maxSSHFiles || r.hostname != "found" {
		t.Fatalf("read %d files, resolved %q", r.files, r.hostname)
	}
}
