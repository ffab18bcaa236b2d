package chip

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// BenchmarkRender is the render path in process: gather facts, read the
// state, render. With 1 and 500 repositories in the state file.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1, 500} {
		b.Run(fmt.Sprintf("repos=%d", n), func(b *testing.B) {
			r := newBenchRig(b, n, "t")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				f := Gather(r.repo, r.now, env.Process())
				v := LoadView(r.env.Store, f.Key)
				text, _ := r.env.Render(f, &v, sanitize.Plain)
				if text != "#8" {
					b.Fatalf("chip %q", text)
				}
			}
		})
	}
}

// BenchmarkRenderTitle renders a chip that shows the title, cut to the
// default 40 columns: plain ASCII (the fast path) and a title of CJK and
// emoji sequences (grapheme clusters and their widths).
func BenchmarkRenderTitle(b *testing.B) {
	for _, c := range []struct{ name, title string }{
		{"ascii", "Fix the prompt chip for repositories with a detached HEAD"},
		{"cjk-emoji", "🚀 プロンプトのチップを修正 👨‍👩‍👧‍👦 🇯🇵 👍🏽 and more words"},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := newBenchRig(b, 1, c.title)
			r.env.Config.Format = "#{number} {title}"
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				f := Gather(r.repo, r.now, env.Process())
				v := LoadView(r.env.Store, f.Key)
				text, _ := r.env.Render(f, &v, sanitize.Zsh)
				if !strings.HasPrefix(text, "#8 ") || !strings.HasSuffix(text, "…") {
					b.Fatalf("chip %q", text)
				}
			}
		})
	}
}

func newBenchRig(b *testing.B, repos int, title string) *rig {
	r := newRigTB(b)
	r.gh.set(`echo '{"number":8,"title":"` + title + `","state":"OPEN","isDraft":false,"url":"u"}'`)
	if _, err := r.env.Refresh(context.Background(), r.facts(), RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	// Pad the state file with other repositories' records.
	err := r.env.Store.Update(func(tx *cache.Tx) error {
		rec := tx.Repo(RepoKey(r.repo))
		for i := 1; i < repos; i++ {
			tx.PutRepo(RepoKey(fmt.Sprintf("/home/u/src/repo-%d", i)), rec)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// Keep the clock inside the freshness window.
	r.now = r.now.Add(time.Second)
	return r
}

// BenchmarkRenderSync renders a chip that shows sync: the one case where
// the render reads the branch's ref, to notice the branch moved.
func BenchmarkRenderSync(b *testing.B) {
	r := newRigTB(b)
	c := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "a")
	c.Dir = r.repo
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	head := (&repo.Info{CommonDir: filepath.Join(r.repo, ".git"), Branch: "feature"}).BranchOid()
	r.env.Config.Format = "#{number}( {sync})"
	r.gh.set(`echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefOid":"` + head + `"}'`)
	if _, err := r.env.Refresh(context.Background(), r.facts(), RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	r.now = r.now.Add(time.Second)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f := Gather(r.repo, r.now, env.Process())
		v := LoadView(r.env.Store, f.Key)
		text, _ := r.env.Render(f, &v, sanitize.Plain)
		if text != "#8 same" {
			b.Fatalf("chip %q", text)
		}
	}
}

// BenchmarkRenderBranches renders with 8 branches remembered for the
// repository, the current one refreshed first (so last in the record).
func BenchmarkRenderBranches(b *testing.B) {
	r := newBenchRig(b, 1, "t")
	commit := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x")
	commit.Dir = r.repo
	if out, err := commit.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	for i := 1; i < 8; i++ {
		c := exec.Command("git", "checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		c.Dir = r.repo
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		if _, err := r.env.Refresh(context.Background(), r.facts(), RefreshOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	c := exec.Command("git", "checkout", "-q", "feature")
	c.Dir = r.repo
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f := Gather(r.repo, r.now, env.Process())
		v := LoadView(r.env.Store, f.Key)
		if text, _ := r.env.Render(f, &v, sanitize.Plain); text != "#8" {
			b.Fatalf("chip %q", text)
		}
	}
}

// BenchmarkRenderGlobalConfig renders with a typical ~/.gitconfig (user,
// aliases, a few sections, one insteadOf rule), which the render reads for
// the remotes' rewrites and the lookup's fingerprint.
func BenchmarkRenderGlobalConfig(b *testing.B) {
	r := newBenchRig(b, 1, "t")
	var cfg strings.Builder
	cfg.WriteString("[user]\n\tname = A Developer\n\temail = dev@example.com\n[core]\n\teditor = vim\n\texcludesfile = ~/.gitignore\n")
	cfg.WriteString("[init]\n\tdefaultBranch = main\n[pull]\n\trebase = true\n[push]\n\tautoSetupRemote = true\n")
	cfg.WriteString("[url \"git@github.com:\"]\n\tpushInsteadOf = https://github.com/\n[alias]\n")
	for i := range 40 {
		fmt.Fprintf(&cfg, "\ta%d = log --graph --pretty=format:'%%h %%s' -n %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte(cfg.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	// The fingerprint covers the new file: refresh once under it.
	if _, err := r.env.Refresh(context.Background(), r.facts(), RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f := Gather(r.repo, r.now, env.Process())
		v := LoadView(r.env.Store, f.Key)
		if text, _ := r.env.Render(f, &v, sanitize.Plain); text != "#8" {
			b.Fatalf("chip %q", text)
		}
	}
}
