//go:build !linux

package worker

// FishSupported: the fish worker needs inotify and pidfds; the fish hook
// starts no worker where /proc is missing, and renders with the one-shot
// command.
const FishSupported = false

func runFish(Options) error { return nil }
