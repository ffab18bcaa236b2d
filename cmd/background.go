package cmd

import "github.com/prchip/prchip/internal/render"

// runBackground is the detached refresh a render started (render.Refresh).
func runBackground(o *IO, paths Paths, args []string) int {
	if len(args) != 1 {
		return ExitUsage
	}
	q := render.Request{Dir: args[0], Env: o.Env, State: paths.State, Config: paths.Config, Runtime: paths.Runtime}
	if err := render.Refresh(q); err != nil {
		return ExitRetryable
	}
	return ExitOK
}
