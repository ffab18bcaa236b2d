package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

// fixture builds a repository with go-git: one commit on branch, remotes.
func fixture(t *testing.T, branch string, remotes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := r.Worktree()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	wt.Add("f")
	h, err := wt.Commit("init", &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@e"}})
	if err != nil {
		t.Fatal(err)
	}
	ref := plumbing.NewBranchReferenceName(branch)
	if err := r.Storer.SetReference(plumbing.NewHashReference(ref, h)); err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(remotes))
	for n := range remotes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := r.CreateRemote(&gitconfig.RemoteConfig{Name: n, URLs: []string{remotes[n]}}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// oracle is what go-git says about the repository at dir.
func oracle(t *testing.T, dir string) (branch string, detached bool, remotes map[string]string) {
	t.Helper()
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		t.Fatalf("go-git open: %v", err)
	}
	head, err := r.Reference(plumbing.HEAD, false)
	if err != nil {
		t.Fatalf("go-git HEAD: %v", err)
	}
	if head.Type() == plumbing.SymbolicReference && head.Target().IsBranch() {
		branch = head.Target().Short()
	} else {
		detached = true
	}
	cfg, err := r.Config()
	if err != nil {
		t.Fatal(err)
	}
	remotes = map[string]string{}
	for n, rc := range cfg.Remotes {
		if len(rc.URLs) > 0 {
			remotes[n] = rc.URLs[0]
		}
	}
	return
}

func check(t *testing.T, dir, wantRoot string) *Info {
	t.Helper()
	info, err := Find(dir, env.Process())
	if err != nil {
		t.Fatalf("Find(%s): %v", dir, err)
	}
	if wantRoot != "" && info.Root != wantRoot {
		t.Errorf("root %q want %q", info.Root, wantRoot)
	}
	branch, detached, remotes := oracle(t, dir)
	if info.Branch != branch || info.Detached != detached {
		t.Errorf("branch %q detached %v; go-git says %q %v", info.Branch, info.Detached, branch, detached)
	}
	got := map[string]string{}
	for _, r := range info.Remotes {
		got[r.Name] = r.URL
	}
	if !reflect.DeepEqual(got, remotes) {
		t.Errorf("remotes %v; go-git says %v", got, remotes)
	}
	return info
}

func TestFindAgainstGoGit(t *testing.T) {
	cases := []struct {
		name    string
		branch  string
		remotes map[string]string
	}{
		{"normal", "main", map[string]string{"origin": "https://github.com/octo/demo.git"}},
		{"no remote", "main", nil},
		{"several remotes", "dev", map[string]string{"origin": "git@github.com:me/demo.git", "upstream": "https://github.com/octo/demo", "gitlab": "https://gitlab.com/x/y.git"}},
		{"non-GitHub remote", "main", map[string]string{"origin": "ssh://git@gitlab.example.com:2222/x/y.git"}},
		{"branch with slashes", "feature/deep/nested", map[string]string{"origin": "https://github.com/o/r"}},
		{"non-ASCII branch", "feature/ünïcode-β-日本", map[string]string{"origin": "https://github.com/o/r"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := fixture(t, c.branch, c.remotes)
			sub := filepath.Join(dir, "a", "b")
			os.MkdirAll(sub, 0o755)
			check(t, dir, dir)
			check(t, sub, dir)
		})
	}
}

func TestFindDetachedAndPackedRefs(t *testing.T) {
	dir := fixture(t, "main", map[string]string{"origin": "https://github.com/o/r"})
	testenv.Git(t, dir, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); err == nil {
		t.Fatal("ref not packed")
	}
	if info := check(t, dir, dir); info.Branch != "main" {
		t.Fatalf("packed branch %q", info.Branch)
	}
	testenv.Git(t, dir, "checkout", "-q", "--detach")
	if info := check(t, dir, dir); !info.Detached {
		t.Fatal("not detached")
	}
}

func TestFindLinkedWorktree(t *testing.T) {
	dir := fixture(t, "main", map[string]string{"origin": "https://github.com/o/r"})
	wt := filepath.Join(t.TempDir(), "wt")
	testenv.Git(t, dir, "worktree", "add", "-q", "-b", "side/β", wt)
	info := check(t, filepath.Join(wt), wt)
	if info.Branch != "side/β" || len(info.Remotes) != 1 {
		t.Fatalf("worktree branch %q remotes %v", info.Branch, info.Remotes)
	}
	if info.CommonDir != filepath.Join(dir, ".git") {
		t.Errorf("common dir %q", info.CommonDir)
	}
}

func TestFindSubmodule(t *testing.T) {
	sub := fixture(t, "main", map[string]string{"origin": "https://github.com/o/sub"})
	top := fixture(t, "main", map[string]string{"origin": "https://github.com/o/top"})
	testenv.Git(t, top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mod")
	mod := filepath.Join(top, "mod")
	if st, err := os.Lstat(filepath.Join(mod, ".git")); err != nil || st.IsDir() {
		t.Fatalf("submodule .git is not a file: %v", err)
	}
	info, err := Find(mod, env.Process())
	if err != nil {
		t.Fatal(err)
	}
	if info.Root != mod || info.Remotes[0].URL != sub {
		t.Fatalf("submodule root %q remotes %v", info.Root, info.Remotes)
	}
}

func TestNotARepository(t *testing.T) {
	if _, err := Find(t.TempDir(), env.Process()); err != ErrNotRepository {
		t.Fatalf("err %v", err)
	}
	if _, err := Find("relative/dir", env.Process()); err == nil {
		t.Fatal("relative dir accepted")
	}
}

func TestConfigParsing(t *testing.T) {
	cfg := `[core]
	bare = false
[remote "origin"]
	url = "https://github.com/o/r.git" ; trailing comment
	fetch = +refs/heads/*:refs/remotes/origin/*
[Remote "Up Stream"]
	URL = gh:octo/demo
[branch "feature/x"]
	remote = Up Stream
[url "https://github.com/"]
	insteadOf = gh:
[remote "origin"]
	url = https://second-url-is-ignored
`
	info := &Info{Branch: "feature/x"}
	parseConfig([]byte(cfg), info)
	want := []Remote{{Name: "origin", URL: "https://github.com/o/r.git"}, {Name: "Up Stream", URL: "https://github.com/octo/demo"}}
	if !reflect.DeepEqual(info.Remotes, want) {
		t.Fatalf("remotes %+v", info.Remotes)
	}
	if info.BranchRemote != "Up Stream" {
		t.Fatalf("branch remote %q", info.BranchRemote)
	}
}

// parseConfig reads one config file's text as Find reads all of them.
func parseConfig(b []byte, info *Info) {
	c := newPlanConfig(info)
	c.render = true
	eachEntry(b, c.entry)
	c.fill(info)
}

// TestIsSSH: the scp-like form and the ssh schemes (any case) reach
// their host over SSH; other schemes, local paths and an scp-like URL
// without a host do not.
func TestIsSSH(t *testing.T) {
	for url, want := range map[string]bool{
		"git@github.com:o/r.git": true, "github.com:o/r": true, "ssh://git@github.com/o/r": true,
		"SSH://github.com:22/o/r": true, "git+ssh://github.com/o/r": true, "ssh+git://github.com/o/r": true,
		"https://github.com/o/r": false, "git://github.com/o/r": false, "file:///srv/r": false,
		"/srv/git/r.git": false, "./rel:x": false, ":o/r": false, "git@:o/r": false,
	} {
		if got := IsSSH(url); got != want {
			t.Errorf("IsSSH(%q) = %v, want %v", url, got, want)
		}
	}
}

func TestHost(t *testing.T) {
	cases := map[string]string{
		"https://github.com/o/r.git":      "github.com",
		"https://user:tok@GitHub.com/o/r": "github.com",
		"ssh://git@github.com:22/o/r.git": "github.com",
		"git@github.com:o/r.git":          "github.com",
		"github.com:o/r":                  "github.com",
		"git://ghe.corp.example/o/r":      "ghe.corp.example",
		"ssh://[::1]:22/x":                "::1",
		"/srv/git/repo.git":               "",
		"./relative":                      "",
		"file:///srv/repo":                "",
		"https://octo.ghe.com/o/r":        "octo.ghe.com",
	}
	for in, want := range cases {
		if got := Host(in); got != want {
			t.Errorf("Host(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("[remote \"origin\"]\n\turl = https://github.com/o/r\n"), "main")
	f.Add([]byte("[url \"a\"]\ninsteadOf=\n[remote \"x\"]url=b"), "x")
	f.Fuzz(func(t *testing.T, b []byte, branch string) {
		info := &Info{Branch: branch}
		parseConfig(b, info)
		for _, r := range info.Remotes {
			if r.Name == "" {
				t.Fatal("remote without a name")
			}
			_ = Host(r.URL)
		}
		if !strings.Contains(string(b), "remote") && len(info.Remotes) > 0 {
			t.Fatal("remote out of nowhere")
		}
	})
}

// TestUnquote pins the subsection unquoting against strings.Replacer,
// which it replaced on the render path.
func TestUnquote(t *testing.T) {
	oracle := strings.NewReplacer(`\"`, `"`, `\\`, `\`)
	for _, in := range []string{`"origin"`, `"a\"b"`, `"a\\b"`, `"a\\\"b"`, `"a\b"`, `"tail\"`, `"\\\\"`, `plain`, `"`, `""`, `x\`, `"\\"x"`} {
		s := in
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			s = s[1 : len(s)-1]
		}
		if got, want := unquote(in), oracle.Replace(s); got != want {
			t.Errorf("unquote(%q) = %q, want %q", in, got, want)
		}
	}
}

// sectionQuoteUnspaced finds a section header whose subsection's quote
// follows the name with no space, which git refuses ("bad config line").
var sectionQuoteUnspaced = regexp.MustCompile(`(?m)^[ \t]*\[[^]"\n]*[^ \t"\n]"`)

// parseConfig reads what go-git's config parser reads, for every input
// go-git accepts: the remotes (first url of each, after the longest
// matching insteadOf), and the current branch's remote.
func FuzzParseConfigMatchesGoGit(f *testing.F) {
	f.Add([]byte("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = \"https://github.com/o/r.git\" ; c\n[url \"https://github.com/\"]\n\tinsteadOf = gh:\n[remote \"b\"]\n\turl = gh:x/y\n[branch \"main\"]\n\tremote = b\n"), "main")
	f.Add([]byte("[remote \"a\\\"q\"]\nurl = x#y\n[Remote \"origin\"]\n\tURL = a\\tb\n"), "x")
	f.Add([]byte("[remote\"0\"]\nurl=0\n"), "x")
	f.Fuzz(func(t *testing.T, b []byte, branch string) {
		if sectionQuoteUnspaced.Match(b) {
			return // [remote"x"]: git refuses the file, go-git reads a remote
		}
		cfg := gitconfig.NewConfig()
		if err := cfg.Unmarshal(b); err != nil {
			return
		}
		for _, ss := range cfg.Raw.Section("url").Subsections {
			if len(ss.Options.GetAll("insteadOf")) > 1 {
				return // go-git keeps one insteadOf per base, git (and prchip) all
			}
		}
		info := &Info{Branch: branch}
		parseConfig(b, info)
		got := map[string]string{}
		for _, r := range info.Remotes {
			got[r.Name] = r.URL
		}
		want := map[string]string{}
		for name, rc := range cfg.Remotes {
			if len(rc.URLs) == 0 || name == "" {
				continue
			}
			if slices.Contains(rc.URLs, "") {
				return // a bare "url" key: git refuses it, go-git reads ""
			}
			u, best := rc.URLs[0], -1
			for base, rw := range cfg.URLs {
				if p := rw.InsteadOf; strings.HasPrefix(rc.URLs[0], p) && len(p) > best {
					best, u = len(p), base+rc.URLs[0][len(p):]
				}
			}
			want[name] = u
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("remotes %q, go-git %q", got, want)
		}
		if br := cfg.Branches[branch]; br != nil && branch != "" && br.Remote != info.BranchRemote {
			t.Fatalf("branch remote %q, go-git %q", info.BranchRemote, br.Remote)
		}
	})
}

// A legal config of a megabyte (30,000 remotes, many insteadOf rules) is
// read in time linear in its size: ten times the remotes take about ten
// times as long, not a hundred (a name lookup per remote made it 0.8 s).
func TestParseConfigIsLinear(t *testing.T) {
	config := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "[remote \"r%d\"]\n\turl = h:o/%d\n[url \"https://x/%d/\"]\n\tinsteadOf = y%d:\n", i, i, i, i)
		}
		return []byte(b.String())
	}
	took := func(n int) time.Duration {
		b := config(n)
		best := time.Hour
		for range 3 {
			start := time.Now()
			var info Info
			parseConfig(b, &info)
			if len(info.Remotes) != n {
				t.Fatalf("%d remotes read, want %d", len(info.Remotes), n)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := took(2000), took(20000)
	if ratio := float64(large) / float64(small); ratio > 40 {
		t.Fatalf("10x the remotes took %.0fx as long (%v, %v)", ratio, small, large)
	}
}
