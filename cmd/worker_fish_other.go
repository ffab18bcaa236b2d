//go:build !linux

package cmd

// runFishWorker needs inotify and pidfds; the fish hook starts no worker
// where /proc is missing, and renders with the one-shot command.
func runFishWorker(*workerOptions, int) error {
	return usageError("worker: the fish worker needs Linux")
}
