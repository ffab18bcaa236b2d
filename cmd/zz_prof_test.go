package cmd

import (
	"os"
	"testing"

	"github.com/prchip/prchip/sanitize"
)

func BenchmarkAnswerProf(b *testing.B) {
	W := "/tmp/prchip-bench-2608733773"
	for k, v := range map[string]string{"HOME": W, "XDG_STATE_HOME": W + "/state", "XDG_CONFIG_HOME": W + "/config", "GH_HOST": "github.localhost", "GH_TOKEN": "x", "GH_CONFIG_DIR": W + "/gh"} {
		os.Setenv(k, v)
	}
	o := &IO{Dir: W + "/src/demo"}
	for b.Loop() {
		r := render(o, DefaultPaths(), sanitize.Zsh, false)
		if r.Text != "#42" {
			b.Fatal(r.Text)
		}
	}
}
