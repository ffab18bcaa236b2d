package cmd

import (
	"io"
	"os"
	"path/filepath"

	"github.com/prchip/prchip/internal/render"
	"github.com/prchip/prchip/internal/sanitize"
)

// runPrompt is `prchip prompt`: print the chip, maybe start one background
// refresh. It never prints an error.
//
// Two hidden flags serve the one-shot hooks' redraw (zsh's fallback path,
// fish): async adds a second line "refreshing" when a background refresh
// is in flight, and wait only waits (bounded) for that refresh to end and
// prints nothing: the hooks render again themselves, where the shell is by
// then.
func runPrompt(o *IO, paths Paths, shell sanitize.Shell, noRefresh, async, wait bool) {
	defer func() {
		// The prompt must survive anything, including a bug of ours.
		recover()
	}()
	if wait {
		render.Wait(o.request(paths, shell, true))
		return
	}
	r := render.Render(o.request(paths, shell, noRefresh))
	if r.Text != "" { // no write call for an empty chip
		o.print(r.Text)
	}
	if r.Child != nil {
		r.Child.Release()
	}
	if async && r.InFlight {
		o.print("\nrefreshing")
	}
}

// request is the render's question for o in paths' files: o's directory,
// environment, clock and runner.
func (o *IO) request(paths Paths, shell sanitize.Shell, noRefresh bool) render.Request {
	return render.Request{Dir: o.dir(), Env: o.Env, State: paths.State, Config: paths.Config, Runtime: paths.Runtime,
		Shell: shell, NoRefresh: noRefresh, Now: o.Now, Run: o.Run}
}

func (o *IO) print(s string) { io.WriteString(o.Stdout, s) }

// at is o for a directory named by the caller (prompt --dir, the JSON of
// statusline) instead of the working directory: relative to the working
// directory, and nil, for nothing to be shown, when it is not a directory.
// The stat is needed: the repository search would walk up from a
// directory that is gone and show the chip of the repository above it.
func (o *IO) at(dir string) *IO {
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(o.dir(), dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	c := *o
	c.Dir = dir
	return &c
}
