package worker

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A bash worker's FIFO directory goes under another name before its FIFOs
// do: bash's `<>` at a prompt in between would otherwise create a regular
// file in their place and write the request into it. The inotify events
// of the parent and of the directory come in the order they happened.
func TestBashFIFOsGoWithTheirDirectoryFirst(t *testing.T) {
	for _, byName := range []bool{true, false} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "prchip.x")
		os.Mkdir(dir, 0o700)
		for _, f := range []string{"req", "resp"} {
			if err := syscall.Mkfifo(filepath.Join(dir, f), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		if _, err := unix.InotifyAddWatch(fd, parent, unix.IN_MOVED_FROM|unix.IN_DELETE); err != nil {
			t.Fatal(err)
		}
		if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_DELETE); err != nil {
			t.Fatal(err)
		}
		removeFIFOs(dir, byName, true)
		var events []string
		buf := make([]byte, 4096)
		n, _ := unix.Read(fd, buf)
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := string(buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)])
			for len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			kind := "delete"
			if ev.Mask&unix.IN_MOVED_FROM != 0 {
				kind = "move"
			}
			events = append(events, kind+" "+name)
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
		if len(events) == 0 {
			t.Fatal("no events")
		}
		if first := events[0]; byName != (first == "move prchip.x") {
			t.Errorf("byName %v: events %q", byName, events)
		}
		for _, p := range []string{dir, dir + ".gone"} {
			if _, err := os.Lstat(p); !os.IsNotExist(err) {
				t.Errorf("byName %v: %s is left (%v)", byName, p, err)
			}
		}
	}
}

// The worker waits for a request in read(2): its FIFOs are blocking and
// not in Go's poller (a deadline cannot be set on a file outside it).
func TestFIFOsAreReadBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "req")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := openFIFO(p, syscall.O_RDWR)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.SetReadDeadline(time.Now()); err == nil {
		t.Error("the FIFO is in Go's poller")
	}
	sc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	sc.Control(func(fd uintptr) { flags, _ = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if flags&unix.O_NONBLOCK != 0 {
		t.Error("the FIFO is non-blocking")
	}
}
