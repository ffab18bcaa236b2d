package worker

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/prchip/prchip/shellhooks"
)

// answerCache lets the worker answer a prompt again without rendering:
// the same request, no refresh come due, and nothing changed in the
// directories the render looked in, which inotify watches. The kernel
// queues an event before the system call that made a change returns, so
// whatever a shell changed before it sent its request is seen when the
// worker drains the queue before answering. It saves a prompt about
// 40 µs of system calls on a cold cache (docs/performance.md).
type answerCache struct {
	fd   int
	wds  map[int32]string  // watch descriptor → directory
	seen map[string]string // directory looked in → the one watched for it (itself or an ancestor)
	// names are the {watched directory, entry} whose events matter: the
	// files the render looked at there, the next part of a path still
	// missing, or "" for any (a listing). Events about other entries (a
	// shell's history file in $HOME, where ~/.gitconfig is looked for)
	// leave the answer standing.
	names map[[2]string]bool
	buf   []byte

	key, text string
	until     time.Time // the cached answer holds before until; zero: none

	// memo is the bash or zsh hook's FIFO directory (-1: none). While an answer
	// is cached, its memo file there holds it, and the hook reads that
	// instead of asking (docs/worker-protocol.md, "The memo"); memoLine
	// writes the file's line, and memoKept says whether one is there.
	memo     int
	memoLine func(until time.Time, text string) []byte
	memoKept bool
}

// maxWatches bounds the directories watched; past it the watches start over.
const maxWatches = 256

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// newAnswerCache returns nil when inotify cannot be had (the per-user
// instance limit, say): every answer is then rendered.
func newAnswerCache() *answerCache {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	c := &answerCache{fd: fd, buf: make([]byte, 64<<10), memo: -1}
	c.reset()
	return c
}

// reset starts over with no watches and nothing cached. The descriptor
// stays (watchMemo waits on it): the watches are removed, and the events
// already queued, theirs included, dropped.
func (c *answerCache) reset() {
	for wd := range c.wds {
		unix.InotifyRmWatch(c.fd, uint32(wd))
	}
	for {
		if n, err := unix.Read(c.fd, c.buf); n <= 0 && err != unix.EINTR {
			break
		}
	}
	c.wds, c.seen, c.names = map[int32]string{}, map[string]string{}, map[[2]string]bool{}
	c.forget()
}

// drain reads every queued event; an event about an entry the render
// depends on ends the cached answer. A directory watched for a missing one
// is then looked at again next time (the missing one may be there now),
// and a watch the kernel dropped (its directory went) is forgotten.
func (c *answerCache) drain() {
	for {
		n, err := unix.Read(c.fd, c.buf)
		if err == unix.EINTR {
			continue
		}
		if n <= 0 {
			return
		}
		changed := false
		inotifyEvents(c.buf[:n], func(ev *unix.InotifyEvent, name []byte) {
			// It matters when it names an entry the render depends on, or
			// the watched directory itself, or the queue overflowed.
			d, known := c.wds[ev.Wd]
			changed = changed || !known || ev.Mask&unix.IN_Q_OVERFLOW != 0 ||
				len(name) == 0 || c.names[[2]string{d, ""}] || c.names[[2]string{d, string(name)}]
			// A watched directory moved or deleted: its watch no longer
			// stands for its path (and IN_IGNORED: the kernel dropped it).
			if known && ev.Mask&(unix.IN_IGNORED|unix.IN_MOVE_SELF|unix.IN_DELETE_SELF) != 0 {
				unix.InotifyRmWatch(c.fd, uint32(ev.Wd))
				delete(c.wds, ev.Wd)
				for s, w := range c.seen {
					if w == d {
						delete(c.seen, s)
					}
				}
			}
		})
		if changed {
			c.forget()
			for d, w := range c.seen {
				if w != d {
					delete(c.seen, d)
				}
			}
		}
	}
}

// inotifyEvents calls fn for each event in buf, as read from an inotify
// descriptor, with the name it carries (without its NUL padding).
func inotifyEvents(buf []byte, fn func(ev *unix.InotifyEvent, name []byte)) {
	for off := 0; off+unix.SizeofInotifyEvent <= len(buf); {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
		name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		fn(ev, name)
		off += unix.SizeofInotifyEvent + int(ev.Len)
	}
}

// lookup returns the cached answer for key, if it still holds at now.
func (c *answerCache) lookup(key string, now time.Time) (string, bool) {
	if c == nil {
		return "", false
	}
	c.drain()
	if c.key == key && now.Before(c.until) {
		return c.text, true
	}
	return "", false
}

// forget ends the cached answer, and its memo.
func (c *answerCache) forget() {
	if c == nil {
		return
	}
	c.until = time.Time{}
	if c.memoKept {
		unix.Unlinkat(c.memo, shellhooks.MemoFile, 0)
		c.memoKept = false
	}
}

// watch adds watches for the directories a render looked in: each path's
// parent (or, for a listing, the directory itself), or the nearest
// ancestor that exists, whose events then tell of the missing part
// appearing. It reports false when a path cannot be watched.
func (c *answerCache) watch(paths []touched) bool {
	if len(c.wds)+len(paths) > maxWatches {
		c.reset()
	}
	// A path reached through a symbolic link changes where the link points
	// to as well (gh on PATH is often a link): watch there too.
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p.path); err == nil && real != p.path {
			paths = append(paths, touched{real, p.entries})
		}
	}
	for _, p := range paths {
		if !filepath.IsAbs(p.path) {
			return false
		}
		target := watchTarget(p)
		name := "" // any entry, for a listing
		if !p.entries {
			name = filepath.Base(filepath.Clean(p.path))
		}
		// Added again even when watched: the path may name another
		// directory now (the kernel returns the same watch for the same one).
		d := target
		for {
			wd, err := unix.InotifyAddWatch(c.fd, d, watchMask)
			if err == nil {
				c.wds[int32(wd)] = d
				break
			}
			if d == "/" || !(errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR)) {
				return false
			}
			d, name = filepath.Dir(d), filepath.Base(d)
		}
		c.names[[2]string{d, name}] = true
		c.seen[target] = d
	}
	return true
}

// covers reports whether watch has seen to every path already.
func (c *answerCache) covers(paths []touched) bool {
	for _, p := range paths {
		if _, ok := c.seen[watchTarget(p)]; !ok {
			return false
		}
	}
	return true
}

// watchTarget is the directory whose events tell of a change to p.
func watchTarget(p touched) string {
	d := filepath.Clean(p.path)
	if !p.entries {
		d = filepath.Dir(d)
	}
	return d
}

// set caches text for key until then, and writes its memo (a rename:
// the hook reads the old line or the new one, never part of one).
func (c *answerCache) set(key, text string, until time.Time) {
	c.key, c.text, c.until = key, text, until
	if c.memo < 0 {
		return
	}
	c.memoKept = replaceAt(c.memo, shellhooks.MemoFile, c.memoLine(until, text)) == nil
}

// replaceAt replaces file name in directory dirFD whole: written to
// name.tmp (0600, not through a link), then renamed over name, so a
// reader finds the old content or the new, never part of either. A write
// cut short (a full disk) replaces nothing.
func replaceAt(dirFD int, name string, b []byte) error {
	tmp := name + ".tmp"
	fd, err := unix.Openat(dirFD, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	n, err := unix.Write(fd, b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err = errors.Join(err, unix.Close(fd)); err != nil {
		return err
	}
	return unix.Renameat(dirFD, tmp, dirFD, name)
}

// openPrivateDir opens directory dir (not through a link) and makes sure,
// on the descriptor, that it is the user's alone: its owner the user, no
// access for group or others.
func openPrivateDir(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Uid != uint32(os.Geteuid()) || st.Mode&0o077 != 0 {
		unix.Close(fd)
		return -1, fmt.Errorf("%w: %s", errSharedChannel, dir)
	}
	return fd, nil
}

// keepMemo has the cache keep a memo in the hook's FIFO directory
// dir, opened once (a directory put in its place later gets nothing) and
// only when it is the user's alone; false when it is not.
func (c *answerCache) keepMemo(dir string, line func(until time.Time, text string) []byte) bool {
	if c == nil {
		return false
	}
	fd, err := openPrivateDir(dir)
	if err != nil {
		return false
	}
	c.memo, c.memoLine = fd, line
	return true
}

// watchMemo ends the memo as soon as inotify tells of a change the cached
// answer depends on, not at the next request: the hook reads the memo
// without asking. It runs for the worker's life (bash and zsh).
func (w *Worker) watchMemo() {
	for {
		p := []unix.PollFd{{Fd: int32(w.cache.fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(p, -1); err != nil && err != unix.EINTR {
			return
		}
		w.mu.Lock()
		w.cache.drain()
		w.mu.Unlock()
	}
}
