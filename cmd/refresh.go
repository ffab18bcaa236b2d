package cmd

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/state"
)

type refreshOptions struct {
	baseOptions
	Force bool
}

func newRefreshCmd(base baseOptions) *cobra.Command {
	refreshOpts := &refreshOptions{baseOptions: base}
	refresh := plainCmd("refresh", "Run the chip command now and print the outcome", func() error { return runRefresh(refreshOpts) })
	refresh.Long = "refresh decides exactly as the prompt would (suppression, cached failures) but ignores\n" +
		"freshness and backoff, runs the chip command now, records and prints the outcome.\n" +
		"Exit status: 0 validated or not applicable, 1 retryable, 4 auth failure or missing gh."
	refresh.Flags().BoolVar(&refreshOpts.Force, "force", false, "also ignore suppression and a cached failure")
	return refresh
}

func runRefresh(opts *refreshOptions) error {
	o := opts.IO
	proc.BecomeSubreaper()
	env, f := opts.gather(true)
	if f.Repo != nil {
		lock, _ := env.Store.WaitLock(f.Key, env.Config.Timeout+2*time.Second)
		if lock != nil {
			defer lock.Close()
		}
	}
	results, err := env.Refresh(context.Background(), f, chip.RefreshOptions{Foreground: true, Force: opts.Force})
	code := ExitOK
	for _, r := range results {
		line, rc := describe(r)
		if len(results) > 1 {
			line = r.Name + ": " + line
		}
		fmt.Fprintln(o.Stdout, line)
		if r.Name == "pr" {
			code = rc
		}
	}
	if err != nil {
		return &ExitError{Code: max(code, ExitRetryable), Err: err}
	}
	if code != ExitOK {
		return &ExitError{Code: code}
	}
	return nil
}

// describe renders one refresh result as a line and its exit code.
func describe(r chip.RefreshResult) (string, int) {
	if r.Outcome == nil {
		why := cmp.Or(map[string]string{
			state.ReasonModeOff:       "mode is off",
			state.ReasonSuppressed:    "suppressed after an auth failure or a missing gh; fix gh, or run prchip refresh --force",
			state.ReasonFailureCached: "this setup failed before (cached failure); fix gh's auth, or run prchip refresh --force",
			state.ReasonMissingGh:     "gh was missing and the setup has not changed",
		}[r.Skipped], r.Skipped)
		if r.Name != "pr" && r.Skipped == state.ReasonFailureCached {
			// A shell chip's: about its command, not gh.
			why = "its command failed before, for this command and branch (suppress_on_failure); fix it, or run prchip refresh --force"
		}
		code := ExitOK
		if r.Skipped != state.ReasonModeOff && r.Name == "pr" {
			code = ExitAuth
		}
		if r.Previous != nil && r.Previous.Category != "" {
			why += " [last: " + string(r.Previous.Class) + "/" + r.Previous.Category + "]"
		}
		return "skipped: " + why, code
	}
	o := r.Outcome
	line := string(o.Class) + " (" + o.Category + ")"
	if o.PR != nil {
		line += fmt.Sprintf(": #%d %s", o.PR.Number, o.PR.Title)
	} else if v := cmp.Or(o.Value, o.Detail); v != "" {
		line += ": " + v
	}
	return line, exitCodes[o.Class]
}

// exitCodes are SPEC 2's codes for the outcomes that are not ExitOK.
var exitCodes = map[classify.Class]int{classify.Retryable: ExitRetryable, classify.AuthFailure: ExitAuth, classify.MissingGh: ExitAuth}
