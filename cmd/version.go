package cmd

import (
	"cmp"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Set by the release build (-ldflags "-X ...").
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func newVersionCmd(base baseOptions) *cobra.Command {
	return plainCmd("version", "Print version, commit and build date", func() error {
		fmt.Fprintln(base.IO.Stdout, versionLine())
		return nil
	})
}

// versionLine is "prchip VERSION (commit C, built D)": from the release
// build's -X flags, else from the module's build information.
func versionLine() string {
	v, cm, d := version, commit, date
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && cm == "":
				cm = s.Value
			case s.Key == "vcs.time" && d == "":
				d = s.Value
			}
		}
	}
	return fmt.Sprintf("prchip %s (commit %s, built %s)", v, cmp.Or(cm, "unknown"), cmp.Or(d, "unknown"))
}
