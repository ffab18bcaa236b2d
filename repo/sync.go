package repo

import (
	"bytes"
	"container/heap"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// BranchOid is the commit the checked-out branch points at, read as git
// resolves a branch: the loose ref under the common directory, else its
// line in packed-refs. "" when it cannot be told (no branch, an unborn
// one, a name git would refuse, a symbolic ref, a reftable repository).
// The render reads it to notice that the branch moved since sync was
// computed: one small file read, and packed-refs only for a packed branch.
func (info *Info) BranchOid() string {
	if info.Detached {
		return ""
	}
	return info.RefOid("refs/heads/" + info.Branch)
}

// RefOid is the commit a full ref name ("refs/remotes/origin/x") points
// at, read as BranchOid reads a branch; "" when it cannot be told.
func (info *Info) RefOid(ref string) string {
	rest, ok := strings.CutPrefix(ref, "refs/")
	if !ok || !safeRefName(rest) {
		return ""
	}
	if loose, err := readSmall(filepath.Join(info.CommonDir, filepath.FromSlash(ref))); err == nil {
		oid := strings.TrimSpace(string(loose))
		if !IsOid(oid) {
			return ""
		}
		return strings.ToLower(oid)
	}
	packed, err := readSmall(filepath.Join(info.CommonDir, "packed-refs"))
	if err != nil {
		return ""
	}
	for line := range bytes.Lines(packed) {
		oid, name, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte{' '})
		if ok && string(name) == ref && IsOid(string(oid)) {
			return strings.ToLower(string(oid))
		}
	}
	return ""
}

// safeRefName refuses what git's check-ref-format refuses that would let
// a branch name read outside refs/heads.
func safeRefName(b string) bool {
	if b == "" || strings.Contains(b, "..") || strings.ContainsAny(b, "\x00\\") ||
		strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.Contains(b, "//") {
		return false
	}
	for _, part := range strings.Split(b, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// IsOid reports whether s is a full SHA-1 or SHA-256 object name.
func IsOid(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Sync values: how the local branch stands against the PR's head.
const (
	SyncSame       = "same"
	SyncAhead      = "ahead"       // local commits not pushed
	SyncBehind     = "behind"      // the PR has commits the branch lacks
	SyncDiverged   = "diverged"    // both
	SyncNotFetched = "not_fetched" // the head commit is not in the repository
)

// Sync compares the branch's commit local with the PR's head commit head
// by walking the repository's history with go-git, in the background
// refresh (never on the render path). "" when it cannot be told: no
// local commit, object names it cannot read (SHA-256), a shallow or
// broken history, or a walk longer than maxWalk commits.
func Sync(info *Info, local, head string) string {
	if local == "" || head == "" {
		return ""
	}
	if local == head {
		return SyncSame
	}
	if len(local) != 40 || len(head) != 40 {
		return ""
	}
	s := openObjects(filepath.Join(info.CommonDir, "objects"))
	defer s.close()
	h, err := s.commit(plumbing.NewHash(head))
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		// Only a fetch can tell: the branch may be behind or diverged.
		return SyncNotFetched
	}
	if err != nil {
		return ""
	}
	l, err := s.commit(plumbing.NewHash(local))
	if err != nil {
		return ""
	}
	hasHead, ok1 := reaches(s, l, h)
	hasLocal, ok2 := reaches(s, h, l)
	switch {
	case hasHead:
		return SyncAhead
	case hasLocal:
		return SyncBehind
	case ok1 && ok2:
		return SyncDiverged
	}
	return ""
}

// maxWalk bounds the commits one reaches visits: a prompt's background
// refresh must not read a large repository's whole history.
const maxWalk = 20000

// clockSlack is how far a parent's commit time may be after its child's
// for the walk to still find it (git's own walks allow a day too).
const clockSlack = 24 * time.Hour

// reaches reports whether target is an ancestor of from, and whether the
// answer is sure: the walk goes newest first and stops below target's
// commit time (less clockSlack), so a typical branch costs a few commits;
// it is unsure when a parent is missing (a shallow clone) or the walk
// ran past maxWalk.
func reaches(s *objects, from, target *commit) (found, sure bool) {
	floor := target.when.Add(-clockSlack)
	q := &commitQueue{from}
	seen := map[plumbing.Hash]bool{from.hash: true}
	for n := 0; q.Len() > 0; n++ {
		if n >= maxWalk {
			return false, false
		}
		c := heap.Pop(q).(*commit)
		if c.hash == target.hash {
			return true, true
		}
		if c.when.Before(floor) {
			// The newest left is older than target could be: no path.
			return false, true
		}
		for _, p := range c.parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := s.commit(p)
			if err != nil {
				return false, false
			}
			heap.Push(q, pc)
		}
	}
	return false, true
}

// commit is what the walk needs of a commit object.
type commit struct {
	hash    plumbing.Hash
	parents []plumbing.Hash
	when    time.Time // committer time
}

// objects reads a repository's objects with go-git's formats (loose
// objects, pack indexes and packs, deltas resolved), looking in the
// objects directory and its alternates as git does. It is not go-git's
// storage/filesystem, nor plumbing/object: those link a config parser,
// OpenPGP, diff and image packages whose initialisation every
// `prchip prompt` process would pay for, to read nothing but commits.
type objects struct {
	dirs  []string
	packs []*pack // loaded on the first miss among loose objects
	open  bool
}

type pack struct {
	idx  *idxfile.MemoryIndex
	file *os.File
	pf   *packfile.Packfile
}

// maxAlternates bounds the alternates followed, as git's own depth limit.
const maxAlternates = 5

func openObjects(dir string) *objects {
	o := &objects{}
	o.addDir(dir, 0)
	return o
}

func (o *objects) addDir(dir string, depth int) {
	o.dirs = append(o.dirs, dir)
	b, err := readSmall(filepath.Join(dir, "info", "alternates"))
	if err != nil || depth >= maxAlternates {
		return
	}
	for line := range strings.Lines(string(b)) {
		alt := strings.TrimSpace(line)
		if alt == "" || alt[0] == '#' {
			continue
		}
		if !filepath.IsAbs(alt) {
			alt = filepath.Join(dir, alt)
		}
		o.addDir(filepath.Clean(alt), depth+1)
	}
}

// raw is an object's type and content, at most max bytes of it.
func (o *objects) raw(h plumbing.Hash, max int64) (plumbing.ObjectType, []byte, error) {
	hex := h.String()
	for _, d := range o.dirs {
		f, err := os.Open(filepath.Join(d, hex[:2], hex[2:]))
		if err != nil {
			continue
		}
		defer f.Close()
		r, err := objfile.NewReader(f)
		if err != nil {
			return 0, nil, err
		}
		defer r.Close()
		t, _, err := r.Header()
		if err != nil {
			return 0, nil, err
		}
		b, err := io.ReadAll(io.LimitReader(r, max))
		return t, b, err
	}
	o.loadPacks()
	for _, p := range o.packs {
		if ok, _ := p.idx.Contains(h); !ok {
			continue
		}
		obj, err := p.pf.Get(h)
		if err != nil {
			return 0, nil, err
		}
		r, err := obj.Reader()
		if err != nil {
			return 0, nil, err
		}
		defer r.Close()
		b, err := io.ReadAll(io.LimitReader(r, max))
		return obj.Type(), b, err
	}
	return 0, nil, plumbing.ErrObjectNotFound
}

func (o *objects) loadPacks() {
	if o.open {
		return
	}
	o.open = true
	for _, d := range o.dirs {
		names, _ := filepath.Glob(filepath.Join(d, "pack", "pack-*.idx"))
		for _, n := range names {
			if p := openPack(n); p != nil {
				o.packs = append(o.packs, p)
			}
		}
	}
}

func openPack(idxPath string) *pack {
	f, err := os.Open(idxPath)
	if err != nil {
		return nil
	}
	idx := idxfile.NewMemoryIndex()
	err = idxfile.NewDecoder(f).Decode(idx)
	f.Close()
	if err != nil {
		return nil
	}
	pf, err := os.Open(strings.TrimSuffix(idxPath, ".idx") + ".pack")
	if err != nil {
		return nil
	}
	return &pack{idx: idx, file: pf, pf: packfile.NewPackfile(idx, nil, billyFile{pf}, 0)}
}

func (o *objects) close() {
	for _, p := range o.packs {
		p.file.Close()
	}
}

// billyFile is an *os.File as the billy.File go-git's packfile reads
// (it only reads, seeks and closes; the lock is never taken).
type billyFile struct{ *os.File }

func (billyFile) Lock() error   { return nil }
func (billyFile) Unlock() error { return nil }

// commit reads a commit's parents and committer time from its header.
func (o *objects) commit(h plumbing.Hash) (*commit, error) {
	// The header ends at the first empty line; 64 KiB holds any real one.
	t, b, err := o.raw(h, 64<<10)
	if err != nil {
		return nil, err
	}
	if t != plumbing.CommitObject {
		return nil, errors.New(h.String() + " is not a commit")
	}
	c := &commit{hash: h}
	for line := range bytes.Lines(b) {
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if len(line) == 0 {
			break
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "parent":
			if len(val) != 40 || !IsOid(string(val)) {
				return nil, errors.New("bad parent in commit " + h.String())
			}
			c.parents = append(c.parents, plumbing.NewHash(string(val)))
		case "committer":
			// "Name <email> 1700000000 +0100": the time is the next to last word.
			if f := strings.Fields(string(val)); len(f) >= 2 {
				if sec, err := strconv.ParseInt(f[len(f)-2], 10, 64); err == nil {
					c.when = time.Unix(sec, 0)
				}
			}
		}
	}
	return c, nil
}

// commitQueue is a max-heap of commits by commit time.
type commitQueue []*commit

func (q commitQueue) Len() int           { return len(q) }
func (q commitQueue) Less(i, j int) bool { return q[i].when.After(q[j].when) }
func (q commitQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)        { *q = append(*q, x.(*commit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
