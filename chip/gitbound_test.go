package chip

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/testenv"
)

// hugeZlib is a zlib stream of prefix followed by n copies of fill, made
// without compressing n bytes: a deflate block of back-references into
// 32 KiB of fill decodes the same wherever it stands after such a run, so
// one block for 1 MiB is repeated. A 1 GiB run costs about 1 MiB, as in
// a hostile repository's pack.
func hugeZlib(t *testing.T, prefix []byte, fill byte, n int64) []byte {
	t.Helper()
	const window, chunk = 32 << 10, 1 << 20
	if n < window || (n-window)%chunk != 0 {
		t.Fatalf("hugeZlib: n must be 32 KiB plus whole MiB, not %d", n)
	}
	run := bytes.Repeat([]byte{fill}, window)
	out := bytes.NewBuffer([]byte{0x78, 0x01})
	fw, _ := flate.NewWriter(out, flate.BestCompression)
	fw.Write(prefix)
	fw.Write(run)
	fw.Flush() // byte-aligned, not final
	var block bytes.Buffer
	bw, _ := flate.NewWriterDict(&block, flate.BestCompression, run)
	bw.Write(bytes.Repeat([]byte{fill}, chunk))
	bw.Flush()
	for i := int64(0); i < (n-window)/chunk; i++ {
		out.Write(block.Bytes())
	}
	out.Write([]byte{0x03, 0x00}) // an empty final block
	// Adler-32 of prefix and the run, the run summed by formula.
	const mod = 65521
	a, b := uint64(1), uint64(0)
	for _, c := range prefix {
		a = (a + uint64(c)) % mod
		b = (b + a) % mod
	}
	m := uint64(n) % mod
	tri := (uint64(n) % (2 * mod)) * ((uint64(n) + 1) % (2 * mod)) / 2 % mod
	b = (b + m*a + uint64(fill)*tri) % mod
	a = (a + uint64(fill)*m) % mod
	binary.Write(out, binary.BigEndian, uint32(b<<16|a))
	return out.Bytes()
}

// The crafted stream is a real one: it inflates to exactly what it says,
// checksum included.
func TestHugeZlibIsReal(t *testing.T) {
	prefix := []byte("commit 1234\x00tree x\n\n")
	n := int64(32<<10 + 3<<20)
	z := hugeZlib(t, prefix, 'a', n)
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("inflate: %v", err)
	}
	want := append(append([]byte{}, prefix...), bytes.Repeat([]byte{'a'}, int(n))...)
	if !bytes.Equal(got, want) {
		t.Fatalf("inflated %d bytes, want %d", len(got), len(want))
	}
}

// giant is the size of the hostile commit's message: a gigabyte.
const giant = 32<<10 + 1<<30

// commitText is a commit object's content with parent and a message
// header; the message itself follows.
func commitText(parent string) []byte {
	return []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent " + parent +
		"\nauthor t <t@e> 1700000000 +0000\ncommitter t <t@e> 1700000000 +0000\n\n")
}

// packHeader is a pack entry's type and size header.
func packHeader(typ byte, size int64) []byte {
	b := []byte{typ<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// writePack writes a version 2 pack of the given entries (each a header
// and its zlib data) and its index, naming entry i names[i].
func writePack(t *testing.T, objDir string, names []string, entries [][]byte) {
	t.Helper()
	var pk bytes.Buffer
	pk.WriteString("PACK")
	binary.Write(&pk, binary.BigEndian, uint32(2))
	binary.Write(&pk, binary.BigEndian, uint32(len(entries)))
	offsets := map[string]uint32{}
	for i, e := range entries {
		offsets[names[i]] = uint32(pk.Len())
		pk.Write(e)
	}
	sum := sha1.Sum(pk.Bytes())
	pk.Write(sum[:])
	sorted := append([]string{}, names...)
	for i := range sorted { // a few names: insertion sort
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	var idx bytes.Buffer
	idx.WriteString("\xfftOc")
	binary.Write(&idx, binary.BigEndian, uint32(2))
	for i := 0; i < 256; i++ {
		c := uint32(0)
		for _, n := range sorted {
			if b, _ := hex.DecodeString(n[:2]); int(b[0]) <= i {
				c++
			}
		}
		binary.Write(&idx, binary.BigEndian, c)
	}
	for _, n := range sorted {
		b, _ := hex.DecodeString(n)
		idx.Write(b)
	}
	for range sorted {
		binary.Write(&idx, binary.BigEndian, uint32(0)) // CRCs: not read
	}
	for _, n := range sorted {
		binary.Write(&idx, binary.BigEndian, offsets[n])
	}
	idx.Write(sum[:])
	isum := sha1.Sum(idx.Bytes())
	idx.Write(isum[:])
	base := filepath.Join(objDir, "pack", "pack-"+hex.EncodeToString(sum[:]))
	os.MkdirAll(filepath.Dir(base), 0o755)
	if err := os.WriteFile(base+".pack", pk.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idx.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deflate is data's zlib stream.
func deflate(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// leb is a delta header's size.
func leb(n int64) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// ofsDelta is an offset delta's distance to its base, in git's encoding.
func ofsDelta(rel int64) []byte {
	b := []byte{byte(rel & 0x7f)}
	for rel >>= 7; rel > 0; rel >>= 7 {
		rel--
		b = append([]byte{byte(0x80 | rel&0x7f)}, b...)
	}
	return b
}

// A hostile repository cannot make sync's git run without bound: a
// commit with a gigabyte message, loose or packed, a delta that expands
// to a gigabyte, ref-deltas that name each other end at git's allocation
// limit (GIT_ALLOC_LIMIT), at once; alternates that nest deeper than git allows or fan out are
// skipped by git and say unknown, not a wrong "not fetched"; alternates
// that name their own directory and more packs than git keeps open are
// read, and the answer is right.
func TestSyncBounded(t *testing.T) {
	const (
		hugeOid  = "1111111111111111111111111111111111111111"
		deltaOid = "2222222222222222222222222222222222222222"
		loopA    = "3333333333333333333333333333333333333333"
		loopB    = "4444444444444444444444444444444444444444"
		baseOid  = "5555555555555555555555555555555555555555"
	)
	cases := []struct {
		name  string
		setup func(t *testing.T, dir, objDir, c string) (local string)
		want  string
		head  string // the PR's head: a when empty
	}{
		{"loose commit with a 1 GiB message", func(t *testing.T, dir, objDir, c string) string {
			body := commitText(c)
			hdr := []byte("commit " + itoa64(int64(len(body))+giant) + "\x00")
			p := filepath.Join(objDir, hugeOid[:2], hugeOid[2:])
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, hugeZlib(t, append(hdr, body...), 'a', giant), 0o444); err != nil {
				t.Fatal(err)
			}
			return hugeOid
		}, repo.SyncUnknown, ""},
		{"packed commit with a 1 GiB message", func(t *testing.T, dir, objDir, c string) string {
			body := commitText(c)
			e := append(packHeader(1, int64(len(body))+giant), hugeZlib(t, body, 'a', giant)...)
			writePack(t, objDir, []string{hugeOid}, [][]byte{e})
			return hugeOid
		}, repo.SyncUnknown, ""},
		{"packed delta expanding to 1 GiB", func(t *testing.T, dir, objDir, c string) string {
			base := append(commitText(c), bytes.Repeat([]byte{'m'}, 1<<16)...)
			const target = 1 << 30
			delta := append(leb(int64(len(base))), leb(target)...)
			for n := 0; n < target; n += 1 << 16 {
				delta = append(delta, 0x80|0x01, 0) // copy from offset 0, size 0 = 64 KiB
			}
			be := append(packHeader(1, int64(len(base))), deflate(base)...)
			de := append(packHeader(6, int64(len(delta))), ofsDelta(int64(len(be)))...)
			de = append(de, deflate(delta)...)
			writePack(t, objDir, []string{baseOid, deltaOid}, [][]byte{be, de})
			return deltaOid
		}, repo.SyncUnknown, ""},
		{"ref-deltas naming each other", func(t *testing.T, dir, objDir, c string) string {
			delta := append(append(leb(10), leb(10)...), 0x80|0x10, 10)
			entry := func(ref string) []byte {
				b, _ := hex.DecodeString(ref)
				e := append(packHeader(7, int64(len(delta))), b...)
				return append(e, deflate(delta)...)
			}
			writePack(t, objDir, []string{loopA, loopB}, [][]byte{entry(loopB), entry(loopA)})
			return loopA
		}, repo.SyncUnknown, ""},
		{"alternates naming their own directory", func(t *testing.T, dir, objDir, c string) string {
			os.MkdirAll(filepath.Join(objDir, "info"), 0o755)
			os.Symlink(objDir, filepath.Join(dir, "again"))
			lines := strings.Repeat(objDir+"\n../objects\n../../again\n", 300)
			if err := os.WriteFile(filepath.Join(objDir, "info", "alternates"), []byte(lines), 0o644); err != nil {
				t.Fatal(err)
			}
			return c // c is in the repository: the cycles are skipped, the answer stands
		}, repo.SyncAhead, ""},
		{"alternates naming their own directory, head not fetched", func(t *testing.T, dir, objDir, c string) string {
			os.MkdirAll(filepath.Join(objDir, "info"), 0o755)
			os.Symlink(objDir, filepath.Join(dir, "again"))
			lines := strings.Repeat(objDir+"\n../objects\n../../again\n", 300)
			if err := os.WriteFile(filepath.Join(objDir, "info", "alternates"), []byte(lines), 0o644); err != nil {
				t.Fatal(err)
			}
			return c // a cycle is no bound: a missing head is still not fetched
		}, repo.SyncNotFetched, "0123456789abcdef0123456789abcdef01234567"},
		{"alternates nested deeper than git allows", func(t *testing.T, dir, objDir, c string) string {
			// The objects move to the end of a chain of 8 directories.
			prev := objDir
			for i := 0; i < 8; i++ {
				next := filepath.Join(dir, "alt"+itoa(i))
				os.MkdirAll(filepath.Join(prev, "info"), 0o755)
				os.MkdirAll(next, 0o755)
				if err := os.WriteFile(filepath.Join(prev, "info", "alternates"), []byte(next+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				prev = next
			}
			for _, sub := range []string{"pack"} {
				if err := os.Rename(filepath.Join(objDir, sub), filepath.Join(prev, sub)); err != nil {
					t.Fatal(err)
				}
				os.MkdirAll(filepath.Join(objDir, sub), 0o755)
			}
			return c
		}, repo.SyncUnknown, ""},
		{"alternates fanning out", func(t *testing.T, dir, objDir, c string) string {
			// Each of 40 directories names all 40: no cycle repeats, but
			// more directories than are looked in, and c is in none.
			var lines strings.Builder
			for i := 0; i < 40; i++ {
				lines.WriteString(filepath.Join(dir, "fan"+itoa(i)) + "\n")
			}
			for i := 0; i < 40; i++ {
				d := filepath.Join(dir, "fan"+itoa(i), "info")
				os.MkdirAll(d, 0o755)
				os.WriteFile(filepath.Join(d, "alternates"), []byte(lines.String()), 0o644)
			}
			os.MkdirAll(filepath.Join(objDir, "info"), 0o755)
			os.WriteFile(filepath.Join(objDir, "info", "alternates"), []byte(lines.String()), 0o644)
			os.RemoveAll(filepath.Join(objDir, "pack"))
			return c
		}, repo.SyncUnknown, ""},
		{"1100 packs", func(t *testing.T, dir, objDir, c string) string {
			idx, _ := filepath.Glob(filepath.Join(objDir, "pack", "pack-*.idx"))
			if len(idx) != 1 {
				t.Fatalf("packs after gc: %v", idx)
			}
			pk, _ := os.ReadFile(strings.TrimSuffix(idx[0], ".idx") + ".pack")
			ix, _ := os.ReadFile(idx[0])
			for i := range 1100 {
				name := filepath.Join(objDir, "pack", fmt.Sprintf("pack-%040x", i))
				os.WriteFile(name+".pack", pk, 0o444)
				os.WriteFile(name+".idx", ix, 0o444)
			}
			return c
		}, repo.SyncAhead, ""},
	}
	// Time enough for git to read a gigabyte: the bound seen is git's own.
	defer func(d time.Duration) { gitTimeout = d }(gitTimeout)
	gitTimeout = time.Minute
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			dir, a, _, c, _ := testenv.SyncRepo(t)
			testenv.Git(t, dir, "gc", "-q", "--prune=now")
			local := k.setup(t, dir, filepath.Join(dir, ".git", "objects"), c)
			head := k.head
			if head == "" {
				head = a
			}
			if got := syncIn(t, dir, local, head); got != k.want {
				t.Errorf("sync = %q, want %q", got, k.want)
			}
		})
	}
}

// Commits deltified against each other, by offset (git repack) and by
// name (git pack-objects without --delta-base-offset), are read through
// their delta chains, and sync agrees with git.
func TestSyncDeltified(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q", "-b", "feature")
	msg := strings.Repeat("A long and much repeated commit message line.\n", 100)
	var oids []string
	for i := 0; i < 30; i++ {
		testenv.Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg+itoa(i))
		oids = append(oids, testenv.Git(t, dir, "rev-parse", "HEAD"))
	}
	objDir := filepath.Join(dir, ".git", "objects")
	deltas := func() int {
		packs, _ := filepath.Glob(filepath.Join(objDir, "pack", "*.idx"))
		n := 0
		for _, p := range packs {
			for _, line := range strings.Split(testenv.Git(t, dir, "verify-pack", "-v", p), "\n") {
				if f := strings.Fields(line); len(f) == 7 && f[1] == "commit" {
					n++
				}
			}
		}
		return n
	}
	check := func(t *testing.T) {
		local := factsAt(t, dir).Repo.BranchOid()
		for _, k := range []struct{ head, want string }{
			{oids[0], repo.SyncAhead}, {oids[15], repo.SyncAhead}, {oids[29], repo.SyncSame},
		} {
			if got := syncIn(t, dir, local, k.head); got != k.want {
				t.Errorf("Sync against %s = %q, want %q", k.head, got, k.want)
			}
		}
		if got := syncIn(t, dir, oids[3], oids[20]); got != repo.SyncBehind {
			t.Errorf("Sync of an older commit = %q, want behind", got)
		}
	}
	t.Run("ofs-delta", func(t *testing.T) {
		testenv.Git(t, dir, "repack", "-q", "-a", "-d", "-f", "--window=50", "--depth=50")
		if n := deltas(); n < 10 {
			t.Fatalf("only %d commits deltified", n)
		}
		check(t)
	})
	t.Run("ref-delta", func(t *testing.T) {
		old, _ := filepath.Glob(filepath.Join(objDir, "pack", "pack-*"))
		list := testenv.Git(t, dir, "rev-list", "--objects", "--all")
		po := exec.Command("git", "pack-objects", "-q", "--window=50", "--depth=50", filepath.Join(objDir, "pack", "pack"))
		po.Dir, po.Stdin = dir, strings.NewReader(list+"\n")
		if out, err := po.CombinedOutput(); err != nil {
			t.Fatalf("pack-objects: %v %s", err, out)
		}
		for _, p := range old {
			os.Remove(p)
		}
		if n := deltas(); n < 10 {
			t.Fatalf("only %d commits deltified", n)
		}
		check(t)
	})
}

// A git that never ends (its alternates a FIFO nobody writes, which git
// blocks opening) is ended at the runner's timeout, its process gone:
// sync says unknown, cutFrom nothing.
func TestGitHangEndsAtTimeout(t *testing.T) {
	dir, a, _, c, _ := testenv.SyncRepo(t)
	testenv.Git(t, dir, "update-ref", "refs/remotes/origin/main", a)
	fifo := filepath.Join(dir, ".git", "objects", "info", "alternates")
	os.MkdirAll(filepath.Dir(fifo), 0o755)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { gitTimeout = d }(gitTimeout)
	gitTimeout = 300 * time.Millisecond
	e, f, ctx := &Engine{}, factsAt(t, dir), context.Background()
	if got := e.sync(ctx, f, c, a); got != repo.SyncUnknown {
		t.Errorf("sync = %q, want unknown", got)
	}
	if got := e.cutFrom(ctx, f, "origin", []string{"main"}); got != "" {
		t.Errorf("cutFrom = %q", got)
	}
	// No git is left waiting: the FIFO has no reader.
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("opening the FIFO for writing: %v, want no reader", err)
		w.Close()
	}
}

// A refresh whose budget is spent starts no git: sync is unknown, cutFrom
// nothing. With time left, a sync costs one git run.
func TestGitNotRunOutOfTime(t *testing.T) {
	dir, a, _, c, _ := testenv.SyncRepo(t)
	testenv.Git(t, dir, "update-ref", "refs/remotes/origin/main", a)
	runs := 0
	e := &Engine{Run: func(ctx context.Context, c proc.Command) proc.Result { runs++; return proc.Run(ctx, c) }}
	f := factsAt(t, dir)
	spent, cancel := context.WithCancel(context.Background())
	cancel()
	if got := e.sync(spent, f, c, a); got != repo.SyncUnknown {
		t.Errorf("sync out of time = %q, want unknown", got)
	}
	if got := e.cutFrom(spent, f, "origin", []string{"main"}); got != "" {
		t.Errorf("cutFrom out of time = %q", got)
	}
	if runs != 0 {
		t.Errorf("%d git runs out of time", runs)
	}
	if got := e.sync(context.Background(), f, c, a); got != repo.SyncAhead || runs != 1 {
		t.Errorf("sync = %q in %d runs, want ahead in one", got, runs)
	}
}

// Without git on the request's PATH, sync and cutFrom cannot tell, and a
// refresh records the PR as ever.
func TestSyncWithoutGit(t *testing.T) {
	dir, a, _, c, _ := testenv.SyncRepo(t)
	testenv.Git(t, dir, "update-ref", "refs/remotes/origin/main", a)
	e, f := &Engine{Env: env.Of(map[string]string{"PATH": t.TempDir()})}, factsAt(t, dir)
	if got := e.sync(context.Background(), f, c, a); got != "" {
		t.Errorf("sync = %q", got)
	}
	if got := e.cutFrom(context.Background(), f, "origin", []string{"main"}); got != "" {
		t.Errorf("cutFrom = %q", got)
	}
	r := newRig(t)
	r.commit(t)
	pushed := r.headOid(t)
	r.commit(t) // ahead of the PR's head, which only git can tell
	r.env.Config.Format = "#{number}( {sync})"
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefOid":"` + pushed + `"}'`)
	os.Remove(filepath.Join(r.gh.dir, "git"))
	r.background(t)
	if s := r.status(); s.Chip != "#4" || s.PR == nil || s.PR.Sync != nil {
		t.Fatalf("chip %q, pr %+v", s.Chip, s.PR)
	}
}

// git's own safe.directory rule holds: in a repository another user owns
// (chowned after the facts were read), git refuses, and sync and cutFrom
// say nothing.
func TestGitRefusesAnotherUsersRepository(t *testing.T) {
	testenv.NeedRoot(t)
	dir, a, _, c, _ := testenv.SyncRepo(t)
	testenv.Git(t, dir, "update-ref", "refs/remotes/origin/main", a)
	e, f := &Engine{}, factsAt(t, dir)
	if out, err := exec.Command("chown", "-R", "65534", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v %s", err, out)
	}
	if got := e.sync(context.Background(), f, c, a); got != "" {
		t.Errorf("sync = %q", got)
	}
	if got := e.cutFrom(context.Background(), f, "origin", []string{"main"}); got != "" {
		t.Errorf("cutFrom = %q", got)
	}
}

// A partial clone lacking the PR's head does not fetch it: the head is
// not fetched, and no pack arrived.
func TestSyncPartialCloneFetchesNothing(t *testing.T) {
	src, _, _, c, _ := testenv.SyncRepo(t)
	testenv.Git(t, src, "config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(t.TempDir(), "partial")
	testenv.Git(t, src, "clone", "-q", "--filter=blob:none", "-b", "feature", "file://"+src, clone)
	testenv.Git(t, src, "commit", "-q", "--allow-empty", "-m", "later")
	later := testenv.Git(t, src, "rev-parse", "HEAD")
	packs := func() []string {
		m, _ := filepath.Glob(filepath.Join(clone, ".git", "objects", "pack", "*.pack"))
		return m
	}
	before := packs()
	if got := syncIn(t, clone, c, later); got != repo.SyncNotFetched {
		t.Errorf("sync = %q, want not_fetched", got)
	}
	if after := packs(); len(after) != len(before) {
		t.Errorf("sync fetched: packs %v, then %v", before, after)
	}
}
