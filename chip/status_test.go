package chip

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/env"
)

// Relative rounds to one unit and says which way.
func TestRelative(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                           "now",
		400 * time.Millisecond:      "now",
		9 * time.Second:             "in 9 s",
		-99 * time.Second:           "99 s ago",
		100 * time.Second:           "in 2 min",
		9*time.Minute - time.Second: "in 9 min",
		-2 * time.Minute:            "2 min ago",
		3 * time.Hour:               "in 3 h",
		-72 * time.Hour:             "3 days ago",
	} {
		if got := Relative(d); got != want {
			t.Errorf("Relative(%v) = %q, want %q", d, got, want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// The human status, for the states a user meets: one plain "why" line on
// top (what the chip shows and the one reason), advice that follows where
// gh's token comes from (with GH_TOKEN set, gh auth login refuses to run:
// fix or unset GH_TOKEN), no internal counters (the invalidation count
// stays in --json), and plurals that agree ("1 failure"). Golden:
// testdata/status-human.golden (go test ./chip -run TestHumanStatusGolden
// -update rewrites it).
func TestHumanStatusGolden(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	cases := []struct {
		name  string
		setup func(t *testing.T, r *rig)
	}{
		{"open PR", func(t *testing.T, r *rig) {
			r.gh.set(`echo '{"number":42,"title":"Add the chip","state":"OPEN","isDraft":false,"url":"https://github.com/octo/demo/pull/42"}'`)
			r.background(t)
		}},
		{"no PR", func(t *testing.T, r *rig) {
			r.gh.set(`echo 'no pull requests found for branch "feature"' >&2; exit 1`)
			r.background(t)
		}},
		{"never refreshed", func(t *testing.T, r *rig) { r.gh.set("exit 0") }},
		{"token from GH_TOKEN rejected", func(t *testing.T, r *rig) {
			t.Setenv("GH_TOKEN", "ghp_rejected0123456789")
			r.gh.set(`echo 'HTTP 401: Bad credentials (https://api.github.com/graphql)' >&2; exit 1`)
			r.background(t)
		}},
		{"token from hosts.yml rejected", func(t *testing.T, r *rig) {
			t.Setenv("GH_TOKEN", "")
			os.MkdirAll(os.Getenv("GH_CONFIG_DIR"), 0o700)
			os.WriteFile(filepath.Join(os.Getenv("GH_CONFIG_DIR"), "hosts.yml"), []byte("github.com:\n    oauth_token: gho_old0123456789\n"), 0o600)
			r.gh.set(`echo 'HTTP 401: Bad credentials (https://api.github.com/graphql)' >&2; exit 1`)
			r.background(t)
		}},
		{"suppressed by an earlier refresh, on another branch", func(t *testing.T, r *rig) {
			t.Setenv("GITHUB_TOKEN", "ghp_other0123456789")
			t.Setenv("GH_TOKEN", "")
			r.gh.set(`echo 'HTTP 401: Bad credentials (https://api.github.com/graphql)' >&2; exit 1`)
			r.background(t)
			r.git(t, "checkout", "-q", "-b", "other")
		}},
		{"backing off after one failure", func(t *testing.T, r *rig) {
			r.gh.set(`echo 'HTTP 502: Bad Gateway (https://api.github.com/graphql)' >&2; exit 1`)
			r.background(t)
		}},
		{"gh missing", func(t *testing.T, r *rig) {
			os.Remove(filepath.Join(r.gh.dir, "gh"))
			r.background(t)
		}},
		{"not a repository", func(t *testing.T, r *rig) { r.env.Dir = filepath.Dir(r.repo) }},
	}
	var b strings.Builder
	for _, c := range cases {
		r := newRig(t)
		c.setup(t, r)
		f := Gather(r.env.Dir, r.now, env.Process())
		s := r.env.Status(f)
		if s.LastOutcome != nil {
			s.LastOutcome.DurationMS = 0
		}
		raw, err := s.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), `"invalidation_count"`) {
			t.Errorf("%s: --json lacks invalidation_count", c.name)
		}
		// The advice JSON gives follows the token's source too.
		for _, v := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
			if s.Gh.TokenSource == v && s.Validation == "suppressed" && s.Gh.Found &&
				(slices.Contains(s.RecoveryActions, "gh auth login") || !slices.ContainsFunc(s.RecoveryActions, func(a string) bool { return strings.HasPrefix(a, "fix or unset "+v) })) {
				t.Errorf("%s: recovery actions %q with the token from %s", c.name, s.RecoveryActions, v)
			}
		}
		var h strings.Builder
		s.WriteHuman(&h)
		out := strings.ReplaceAll(h.String(), filepath.Dir(r.gh.dir), "$HOME")
		fmt.Fprintf(&b, "== %s\n%s\n", c.name, out)
	}
	golden := filepath.Join("testdata", "status-human.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("human status differs from %s (-update rewrites it):\n%s", golden, b.String())
	}
}
