package ghauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
)

// BenchmarkGitHubRemote is ghauth's share of a render: gh's setup read and
// the remote chosen, for a GitHub origin and for an SSH alias remote
// beside another forge's.
func BenchmarkGitHubRemote(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("GH_CONFIG_DIR", dir)
	os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte("github.com:\n  oauth_token: gho_abcdefghijkl\n"), 0o600)
	b.Setenv("HOME", dir)
	os.MkdirAll(filepath.Join(dir, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(dir, ".ssh", "config"), []byte("Host lab\n  HostName gitlab.com\nHost github-work\n  HostName github.com\n"), 0o600)
	for _, c := range []struct {
		name    string
		remotes []repo.Remote
	}{
		{"origin", []repo.Remote{{Name: "origin", URL: "git@github.com:o/r.git"}}},
		{"alias", []repo.Remote{{Name: "lab", URL: "git@lab:o/r"}, {Name: "origin", URL: "git@github-work:o/r"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := ReadSetup(env.Process()).GitHubRemote(&repo.Info{Remotes: c.remotes}); !ok {
					b.Fatal("no remote")
				}
			}
		})
	}
}
