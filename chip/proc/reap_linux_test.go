package proc

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Between the look at /proc and the signal, a descendant may exit and its
// number come to name another process. Here the scan is the one from
// before: it shows two unrelated processes (children of a shell that is
// none of the run's) as the leader's child and as an orphan of this
// subreaper. The tree refuses both and signals neither.
func TestTreeRefusesReusedPids(t *testing.T) {
	leader := exec.Command("sleep", "30")
	if err := leader.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { leader.Process.Kill(); leader.Wait() })
	other := exec.Command("sh", "-c", "sleep 30 & echo $!; sleep 30 & echo $!; wait")
	out, _ := other.StdoutPipe()
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	var unrelated []int
	for sc := bufio.NewScanner(out); len(unrelated) < 2 && sc.Scan(); {
		unrelated = append(unrelated, atoi(sc.Text()))
	}
	if len(unrelated) < 2 {
		t.Fatal("the unrelated processes did not start")
	}
	t.Cleanup(func() {
		for _, pid := range unrelated {
			unix.Kill(pid, unix.SIGKILL)
		}
	})

	fd, err := unix.PidfdOpen(leader.Process.Pid, 0)
	if err != nil {
		t.Skipf("no pidfds: %v", err)
	}
	self := os.Getpid()
	tr := &tree{self: self, leader: leader.Process.Pid, orphans: true, fds: map[int]int{leader.Process.Pid: fd}}
	defer tr.close()
	stale := map[int]Stat{
		leader.Process.Pid: {PPID: self, State: 'S'},
		unrelated[0]:       {PPID: leader.Process.Pid, State: 'S'},
		unrelated[1]:       {PPID: self, State: 'S'},
	}
	check := func(when string) {
		time.Sleep(50 * time.Millisecond) // signals are delivered asynchronously
		for _, pid := range unrelated {
			if st, ok := ReadStat(pid); !ok || st.State == 'T' || st.State == 'Z' {
				t.Errorf("%s, the unrelated process %d was signalled (alive %v, state %c)", when, pid, ok, st.State)
			}
		}
	}
	if n := tr.take(stale); n != 0 || len(tr.fds) != 1 {
		t.Errorf("took %d processes (members %v), want none", n, tr.fds)
	}
	check("after the stale scan")
	tr.signalAll(unix.SIGKILL)
	leader.Wait()
	check("after the kill")
}

// What adopt's proof rests on: a pidfd's process counts as unreaped while
// it is a zombie, and no longer once reaped (its number is then free).
func TestUnreapedAfterReap(t *testing.T) {
	c := exec.Command("true")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.PidfdOpen(c.Process.Pid, 0)
	if err != nil {
		t.Skipf("no pidfds: %v", err)
	}
	defer unix.Close(fd)
	waitExit(c.Process.Pid)
	if !unreaped(fd) {
		t.Fatal("an exited, unreaped child counts as reaped")
	}
	c.Wait()
	if unreaped(fd) {
		t.Fatalf("the reaped child %d counts as unreaped", c.Process.Pid)
	}
}

// waitGone returns once every member has exited, not before: here the
// members are killed one after the other, a moment after it is called.
func TestWaitGoneWaitsForEveryMember(t *testing.T) {
	tr := &tree{fds: map[int]int{}}
	defer tr.close()
	var members []*exec.Cmd
	for range 3 {
		c := exec.Command("sleep", "30")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		fd, err := unix.PidfdOpen(c.Process.Pid, 0)
		if err != nil {
			t.Skipf("no pidfds: %v", err)
		}
		tr.fds[c.Process.Pid] = fd
		members = append(members, c)
	}
	go func() {
		for _, c := range members {
			time.Sleep(50 * time.Millisecond)
			c.Process.Signal(unix.SIGKILL)
		}
	}()
	tr.waitGone(time.Now().Add(time.Minute))
	for _, c := range members {
		if st, ok := ReadStat(c.Process.Pid); !ok || st.State != 'Z' {
			t.Errorf("waitGone returned while member %d was %c (alive %v)", c.Process.Pid, st.State, ok)
		}
	}
}
