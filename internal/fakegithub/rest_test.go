package fakegithub

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

// ghREST runs `gh api -i --hostname github.localhost [-H If-None-Match] PATH`
// and returns its stdout, stderr and exit code.
func ghREST(t *testing.T, s *Server, gh, etag, path string) (string, string, int) {
	t.Helper()
	home := t.TempDir()
	args := []string{"api", "-i", "--hostname", Host}
	if etag != "" {
		args = append(args, "-H", "If-None-Match: "+etag)
	}
	c := exec.Command(gh, append(args, path)...)
	c.Dir = home
	c.Env = append(s.GhEnv(filepath.Join(home, "gh")), "HOME="+home, "PATH="+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1")
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func etagOf(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "etag") {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// TestRESTConditional records what the probes are built on, with both gh
// versions: each REST answer carries an ETag; the same ETag back in
// If-None-Match gets 304, which gh prints as a status line on stdout with
// exit 1 and "gh: HTTP 304" on stderr; a change gets a new ETag and a
// 200; behind a proxy that drops If-None-Match, every answer is a 200.
// Only answers other than 304 are counted.
func TestRESTConditional(t *testing.T) {
	for _, name := range ghVersions {
		t.Run(name, func(t *testing.T) {
			gh := testenv.Need(t, name)
			s, err := Start(0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			const oid = "0123456789abcdef0123456789abcdef01234567"
			s.AddPR("octo/demo", PR{Number: 7, HeadRef: "feature", Title: "t", HeadOid: oid,
				Checks: []Check{{Name: "ci", Status: "IN_PROGRESS"}, {Context: "lint", State: "PENDING"}}})
			for _, path := range []string{"repos/octo/demo/pulls/7", "repos/octo/demo/pulls?head=octo%3Afeature&state=all",
				"repos/octo/demo/commits/" + oid + "/check-runs", "repos/octo/demo/commits/" + oid + "/status"} {
				out, _, code := ghREST(t, s, gh, "", path)
				tag := etagOf(out)
				if code != 0 || !strings.HasPrefix(out, "HTTP/1.1 200") || tag == "" {
					t.Fatalf("%s: exit %d, %q", path, code, out)
				}
				out, errs, code := ghREST(t, s, gh, tag, path)
				if code != 1 || !strings.HasPrefix(out, "HTTP/1.1 304") || !strings.Contains(errs, "HTTP 304") {
					t.Errorf("%s unchanged: exit %d, stdout %q, stderr %q", path, code, out, errs)
				}
			}
			if st := s.REST(); st.NotModified != 4 || st.Counted() != 4 || st.Conditional != 4 {
				t.Errorf("counted %+v", st)
			}
			out, _, _ := ghREST(t, s, gh, "", "repos/octo/demo/pulls/7")
			tag := etagOf(out)
			s.AddPR("octo/demo", PR{Number: 8, HeadRef: "other"}) // another PR: no change to #7
			if out, _, code := ghREST(t, s, gh, tag, "repos/octo/demo/pulls/7"); code != 1 || !strings.HasPrefix(out, "HTTP/1.1 304") {
				t.Errorf("another PR changed #7's answer: %q", out)
			}
			s.SetRepoPR("octo/demo", "feature", PR{Number: 7, Title: "renamed", HeadOid: oid})
			out, _, code := ghREST(t, s, gh, tag, "repos/octo/demo/pulls/7")
			if code != 0 || !strings.HasPrefix(out, "HTTP/1.1 200") || etagOf(out) == tag || !strings.Contains(out, `"renamed"`) {
				t.Errorf("a change: exit %d, %q", code, out)
			}
			s.DropConditional(true)
			tag = etagOf(out)
			if out, _, code := ghREST(t, s, gh, tag, "repos/octo/demo/pulls/7"); code != 0 || !strings.HasPrefix(out, "HTTP/1.1 200") || etagOf(out) != tag {
				t.Errorf("a proxy dropping If-None-Match: exit %d, %q", code, out)
			}
			if _, errs, code := ghREST(t, s, gh, "", "repos/octo/demo/pulls/99"); code != 1 || !strings.Contains(errs, "404") {
				t.Errorf("no such PR: exit %d, %q", code, errs)
			}
		})
	}
}
