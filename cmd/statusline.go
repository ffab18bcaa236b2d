package cmd

import (
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/internal/sanitize"
)

// Bounds on reading the caller's JSON. Claude Code writes a few KiB at
// once and closes the pipe; a caller that writes nothing, or keeps the pipe
// open, costs one wait of statuslineWait and is answered for the current
// directory. The status line redraws several times a second: this is the
// only wait.
const (
	statuslineWait     = 100 * time.Millisecond
	maxStatuslineInput = 1 << 20
)

// statuslineInput is what prchip reads of Claude Code's status line JSON;
// every other field is skipped.
type statuslineInput struct {
	Cwd       string `json:"cwd"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
	} `json:"workspace"`
}

// runStatusline is `prchip statusline`: the render of `prchip prompt`, for
// the directory the caller's JSON names.
func runStatusline(opts *statuslineOptions) {
	defer survive()
	o := opts.IO
	if dir := callerDir(o.Stdin); dir != "" {
		if o = o.at(dir); o == nil {
			return // the caller is somewhere prchip cannot look
		}
	}
	shell := sanitize.Statusline
	if opts.Plain {
		shell = sanitize.Plain
	}
	show(o, o.request(opts.Paths, shell, false), "\n")
}

// callerDir is the directory the JSON on stdin names: workspace.current_dir,
// else cwd; "" when there is none, or no JSON within statuslineWait.
func callerDir(stdin io.Reader) string {
	if stdin == nil {
		return ""
	}
	if f, ok := stdin.(*os.File); ok {
		// A terminal (or /dev/null) sends no JSON: waiting would only eat
		// what the user types next.
		if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return ""
		}
	}
	got := make(chan statuslineInput, 1)
	// A blocked read cannot be abandoned, a goroutine can: the process
	// ends after printing.
	go func() {
		var in statuslineInput
		// One value is decoded, so a caller that keeps the pipe open is
		// answered as soon as it is complete. A field of the wrong type
		// is skipped, the others kept.
		err := json.NewDecoder(io.LimitReader(stdin, maxStatuslineInput)).Decode(&in)
		var wrongType *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &wrongType) {
			in = statuslineInput{}
		}
		got <- in
	}()
	select {
	case in := <-got:
		return cmp.Or(in.Workspace.CurrentDir, in.Cwd)
	case <-time.After(statuslineWait):
		return ""
	}
}

type statuslineOptions struct {
	baseOptions
	Plain bool
}

func newStatuslineCmd(base baseOptions) *cobra.Command {
	statuslineOpts := &statuslineOptions{baseOptions: base}
	statusline := plainCmd("statusline", "Print the chip for an agent's or editor's status line (Claude Code)", func() error {
		runStatusline(statuslineOpts)
		return nil
	})
	statusline.Long = "statusline reads the JSON its caller pipes to a status line command on stdin and prints\n" +
		"the chip, with colours, for the directory it names (Claude Code: workspace.current_dir,\n" +
		"else cwd; with no JSON, the current directory). Like prompt it never waits for GitHub,\n" +
		"never prints an error and always exits 0."
	statusline.Flags().BoolVar(&statuslineOpts.Plain, "plain", false, "no colours or links")
	return statusline
}
