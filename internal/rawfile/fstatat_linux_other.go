//go:build linux && !amd64 && !arm64

package rawfile

// sysFstatat 0: use syscall.Stat on the other architectures.
const sysFstatat = 0
