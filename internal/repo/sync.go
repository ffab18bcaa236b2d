package repo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"github.com/prchip/prchip/internal/rawfile"
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
	if loose, err := readSmall(info.env.Files(), filepath.Join(info.CommonDir, filepath.FromSlash(ref))); err == nil {
		oid := strings.TrimSpace(string(loose))
		if !IsOid(oid) {
			return ""
		}
		return strings.ToLower(oid)
	}
	packed, err := readSmall(info.env.Files(), filepath.Join(info.CommonDir, "packed-refs"))
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
	// SyncUnknown: the repository is beyond what a refresh may read for
	// sync (an object, a delta chain, an alternates chain or the walk
	// too large), so the refresh records that it could not tell instead
	// of running out of memory or time.
	SyncUnknown = "unknown"
)

// Sync compares the branch's commit local with the PR's head commit head
// by walking the repository's history, in the background refresh (never
// on the render path). SyncUnknown when the repository hits one of the
// bounds below; "" when it cannot be told otherwise: no local commit,
// object names it cannot read (SHA-256), a shallow or broken history.
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
	if errors.Is(err, plumbing.ErrObjectNotFound) && !s.bounded {
		// Only a fetch can tell: the branch may be behind or diverged.
		return SyncNotFetched
	}
	if err != nil {
		return s.unsure()
	}
	l, err := s.commit(plumbing.NewHash(local))
	if err != nil {
		return s.unsure()
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
	return s.unsure()
}

// unsure is the answer when the walk could not decide: unknown when a
// bound stopped it, "" when the history itself is incomplete.
func (o *objects) unsure() string {
	if o.bounded {
		return SyncUnknown
	}
	return ""
}

// The bounds of one Sync. A hostile repository (a commit with a
// gigabyte message, alternates naming themselves, delta chains that
// loop) must cost a refresh a few MiB and a fraction of a second, not
// the machine's memory; real repositories stay far inside them.
const (
	// maxWalk bounds the commits one reaches visits: a prompt's
	// background refresh must not read a large repository's whole history.
	maxWalk = 20000
	// maxObject is the largest object read: the biggest real commits are
	// a few hundred KiB. A larger one is refused from its declared size,
	// before anything is inflated.
	maxObject = 4 << 20
	// maxInflated and maxReads bound the total work: bytes inflated and
	// objects read (delta bases included).
	maxInflated = 128 << 20
	maxReads    = 200000
	// maxDeltaDepth bounds a delta chain (git writes 50 at most by
	// default); a chain of ref-deltas that loops ends here too.
	maxDeltaDepth = 100
	// maxAlternateDepth is git's own limit on nested alternates;
	// maxObjectDirs and maxPacks bound how many are looked in at all.
	maxAlternateDepth = 5
	maxObjectDirs     = 32
	maxPacks          = 512
	// maxBaseCache bounds the delta bases kept, so that commits deltified
	// against each other are not inflated again for every descendant.
	maxBaseCache = 16 << 20
)

// errBound is a read refused by one of the bounds.
var errBound = errors.New("repository beyond the bounds of a sync walk")

// clockSlack is how far a parent's commit time may be after its child's
// for the walk to still find it (git's own walks allow a day too).
const clockSlack = 24 * time.Hour

// reaches reports whether target is an ancestor of from, and whether the
// answer is sure: the walk goes newest first and stops below target's
// commit time (less clockSlack), so a typical branch costs a few commits;
// it is unsure when a parent is missing (a shallow clone) or a bound
// stopped it (s.bounded tells which).
func reaches(s *objects, from, target *commit) (found, sure bool) {
	floor := target.when.Add(-clockSlack)
	q := &commitQueue{from}
	seen := map[plumbing.Hash]bool{from.hash: true}
	for n := 0; q.Len() > 0; n++ {
		if n >= maxWalk {
			s.bounded = true
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

// objects reads a repository's objects in git's formats (loose objects,
// version 2 pack indexes and packs, deltas resolved with go-git's
// PatchDelta), looking in the objects directory and its alternates as git
// does, within the bounds above. It is neither go-git's
// storage/filesystem nor its packfile.Packfile: those inflate an object
// whole whatever its declared size, follow alternates without a cycle
// check, and link packages whose initialisation every `prchip prompt`
// process would pay for, to read nothing but commits.
type objects struct {
	dirs     []string
	packs    []*pack // loaded on the first miss among loose objects
	open     bool
	bounded  bool  // a bound refused something: answers are unknown
	inflated int64 // bytes inflated so far
	reads    int   // objects read so far
	bases    map[baseKey]baseObject
	baseSize int
}

type baseKey struct {
	p   *pack
	off int64
}

type baseObject struct {
	t plumbing.ObjectType
	b []byte
}

type pack struct {
	idx  *packIndex
	file *os.File
	size int64
}

func openObjects(dir string) *objects {
	o := &objects{}
	seen := map[string]bool{}
	o.addDir(dir, 0, seen)
	return o
}

// addDir adds an objects directory and, as git does, the ones its
// info/alternates names; a directory already added (by its real path:
// a symlink or "../objects" naming itself) is skipped, and a chain deeper
// than git's limit or more directories than maxObjectDirs make the
// answer unknown rather than a wrong "not fetched".
func (o *objects) addDir(dir string, depth int, seen map[string]bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return
	}
	if seen[real] {
		return
	}
	if len(o.dirs) >= maxObjectDirs {
		o.bounded = true
		return
	}
	seen[real] = true
	o.dirs = append(o.dirs, dir)
	b, err := readSmall(rawfile.Reader{}, filepath.Join(dir, "info", "alternates")) // the refresh's: nothing watches it
	if err != nil {
		return
	}
	for line := range strings.Lines(string(b)) {
		alt := strings.TrimSpace(line)
		if alt == "" || alt[0] == '#' {
			continue
		}
		if depth >= maxAlternateDepth {
			o.bounded = true
			return
		}
		if !filepath.IsAbs(alt) {
			alt = filepath.Join(dir, alt)
		}
		o.addDir(filepath.Clean(alt), depth+1, seen)
		if len(o.dirs) >= maxObjectDirs && o.bounded {
			return
		}
	}
}

// spend counts one object read of n inflated bytes against the bounds.
func (o *objects) spend(n int64) error {
	o.reads++
	o.inflated += n
	if n > maxObject || o.reads > maxReads || o.inflated > maxInflated {
		o.bounded = true
		return errBound
	}
	return nil
}

// raw is an object's type and content.
func (o *objects) raw(h plumbing.Hash, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > maxDeltaDepth {
		o.bounded = true
		return 0, nil, errBound
	}
	hex := h.String()
	for _, d := range o.dirs {
		f, err := openRegular(filepath.Join(d, hex[:2], hex[2:]))
		if err != nil {
			continue
		}
		defer f.Close()
		return o.loose(f)
	}
	o.loadPacks()
	for _, p := range o.packs {
		off, ok, err := p.idx.find(h)
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return o.packed(p, off, depth)
		}
	}
	return 0, nil, plumbing.ErrObjectNotFound
}

// loose reads a loose object: a zlib stream of "TYPE SIZE\0" and content.
// The header is read byte by byte up to its bounded length, and the
// content only after its declared size passed the bounds.
func (o *objects) loose(f *os.File) (plumbing.ObjectType, []byte, error) {
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", f.Name(), err)
	}
	defer zr.Close()
	var hdr []byte
	var c [1]byte
	for {
		if _, err := io.ReadFull(zr, c[:]); err != nil {
			return 0, nil, fmt.Errorf("loose object %s: %w", f.Name(), err)
		}
		if c[0] == 0 {
			break
		}
		if len(hdr) >= 32 {
			return 0, nil, errors.New("loose object " + f.Name() + ": bad header")
		}
		hdr = append(hdr, c[0])
	}
	typ, size, ok := strings.Cut(string(hdr), " ")
	t, err := plumbing.ParseObjectType(typ)
	n, err2 := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || err2 != nil || n < 0 || t == plumbing.OFSDeltaObject || t == plumbing.REFDeltaObject {
		return 0, nil, errors.New("loose object " + f.Name() + ": bad header")
	}
	if err := o.spend(n); err != nil {
		return 0, nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(zr, b); err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", f.Name(), err)
	}
	return t, b, nil
}

// packed reads the object at off in p, resolving deltas. Each step reads
// the entry's declared size first and inflates only within the bounds;
// a delta's result size is checked before its base is read.
func (o *objects) packed(p *pack, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > maxDeltaDepth {
		o.bounded = true
		return 0, nil, errBound
	}
	if c, ok := o.bases[baseKey{p, off}]; ok {
		return c.t, c.b, nil
	}
	e, err := p.entry(off)
	if err != nil {
		return 0, nil, err
	}
	if err := o.spend(e.size); err != nil {
		return 0, nil, err
	}
	zr, err := zlib.NewReader(bufio.NewReader(io.NewSectionReader(p.file, e.data, p.size-e.data)))
	if err != nil {
		return 0, nil, fmt.Errorf("pack %s at %d: %w", p.file.Name(), off, err)
	}
	b := make([]byte, e.size)
	_, err = io.ReadFull(zr, b)
	zr.Close()
	if err != nil {
		return 0, nil, fmt.Errorf("pack %s at %d: %w", p.file.Name(), off, err)
	}
	var t plumbing.ObjectType
	var base []byte
	switch e.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		return e.typ, b, nil
	case plumbing.OFSDeltaObject, plumbing.REFDeltaObject:
		src, rest, ok := leb128(b)
		target, _, ok2 := leb128(rest)
		if !ok || !ok2 {
			return 0, nil, errors.New("bad delta in " + p.file.Name())
		}
		if src > maxObject || target > maxObject {
			o.bounded = true
			return 0, nil, errBound
		}
		if e.typ == plumbing.OFSDeltaObject {
			t, base, err = o.packed(p, e.base, depth+1)
			if err == nil {
				o.keepBase(baseKey{p, e.base}, t, base)
			}
		} else {
			t, base, err = o.raw(e.ref, depth+1)
		}
		if err != nil {
			return 0, nil, err
		}
	default:
		return 0, nil, errors.New("bad object type in " + p.file.Name())
	}
	out, err := packfile.PatchDelta(base, b)
	if err != nil {
		return 0, nil, fmt.Errorf("pack %s at %d: %w", p.file.Name(), off, err)
	}
	if err := o.spend(int64(len(out))); err != nil {
		return 0, nil, err
	}
	return t, out, nil
}

// keepBase remembers a delta's base, forgetting them all when full.
func (o *objects) keepBase(k baseKey, t plumbing.ObjectType, b []byte) {
	if len(b) > maxBaseCache/4 {
		return
	}
	if o.bases == nil || o.baseSize+len(b) > maxBaseCache {
		o.bases, o.baseSize = map[baseKey]baseObject{}, 0
	}
	o.bases[k] = baseObject{t, b}
	o.baseSize += len(b)
}

// leb128 reads a delta header's size (little-endian base 128).
func leb128(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}

// packEntry is a pack entry's header: its type, declared (inflated)
// size, where its zlib data starts, and a delta's base.
type packEntry struct {
	typ  plumbing.ObjectType
	size int64
	data int64
	base int64 // OFS delta: the base's offset
	ref  plumbing.Hash
}

// entry reads the header of the pack entry at off.
func (p *pack) entry(off int64) (packEntry, error) {
	bad := fmt.Errorf("pack %s: bad entry at %d", p.file.Name(), off)
	if off < 12 || off >= p.size-20 {
		return packEntry{}, bad
	}
	var buf [64]byte
	n, err := p.file.ReadAt(buf[:], off)
	if n == 0 {
		return packEntry{}, fmt.Errorf("pack %s: %w", p.file.Name(), err)
	}
	h := buf[:n]
	e := packEntry{typ: plumbing.ObjectType(h[0] >> 4 & 7), size: int64(h[0] & 0x0f)}
	i, shift := 1, 4
	for c := h[0]; c&0x80 != 0; i++ {
		if i >= len(h) || shift > 56 {
			return packEntry{}, bad
		}
		c = h[i]
		e.size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch e.typ {
	case plumbing.OFSDeltaObject:
		if i >= len(h) {
			return packEntry{}, bad
		}
		c := h[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(h) || rel > 1<<48 {
				return packEntry{}, bad
			}
			c = h[i]
			i++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel > off {
			return packEntry{}, bad
		}
		e.base = off - rel
	case plumbing.REFDeltaObject:
		if i+20 > len(h) {
			return packEntry{}, bad
		}
		copy(e.ref[:], h[i:i+20])
		i += 20
	}
	e.data = off + int64(i)
	return e, nil
}

func (o *objects) loadPacks() {
	if o.open {
		return
	}
	o.open = true
	for _, d := range o.dirs {
		names, _ := filepath.Glob(filepath.Join(d, "pack", "pack-*.idx"))
		for _, n := range names {
			if len(o.packs) >= maxPacks {
				o.bounded = true
				return
			}
			if p := openPack(n); p != nil {
				o.packs = append(o.packs, p)
			}
		}
	}
}

func openPack(idxPath string) *pack {
	idx, err := openIndex(idxPath)
	if err != nil {
		return nil
	}
	pf, err := openRegular(strings.TrimSuffix(idxPath, ".idx") + ".pack")
	if err != nil {
		idx.f.Close()
		return nil
	}
	st, err := pf.Stat()
	if err != nil || st.Size() < 32 {
		idx.f.Close()
		pf.Close()
		return nil
	}
	return &pack{idx: idx, file: pf, size: st.Size()}
}

func (o *objects) close() {
	for _, p := range o.packs {
		p.file.Close()
		p.idx.f.Close()
	}
}

// openRegular opens a regular file without blocking: a FIFO planted as an
// object or pack must not hang the refresh.
func openRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, errors.New(p + ": not a regular file")
	}
	return f, nil
}

// packIndex looks object names up in a version 2 pack index by
// positioned reads (the fan-out table, then a binary search of the sorted
// names), so a pack of millions of objects costs a few small reads, not
// its whole index in memory.
type packIndex struct {
	f      *os.File
	size   int64
	count  int64
	fanout [256]uint32
}

const idxHeader = 8 + 256*4

func openIndex(p string) (*packIndex, error) {
	f, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	x := &packIndex{f: f}
	if err := x.load(); err != nil {
		f.Close()
		return nil, fmt.Errorf("pack index %s: %w", p, err)
	}
	return x, nil
}

func (x *packIndex) load() error {
	st, err := x.f.Stat()
	if err != nil {
		return err
	}
	x.size = st.Size()
	var h [idxHeader]byte
	if _, err := x.f.ReadAt(h[:], 0); err != nil {
		return err
	}
	if string(h[:4]) != "\xfftOc" || binary.BigEndian.Uint32(h[4:8]) != 2 {
		return errors.New("not a version 2 index")
	}
	prev := uint32(0)
	for i := range x.fanout {
		v := binary.BigEndian.Uint32(h[8+4*i:])
		if v < prev {
			return errors.New("bad fan-out table")
		}
		x.fanout[i], prev = v, v
	}
	x.count = int64(prev)
	if x.size < idxHeader+x.count*28+40 {
		return errors.New("truncated")
	}
	return nil
}

// find returns the pack offset of h.
func (x *packIndex) find(h plumbing.Hash) (int64, bool, error) {
	lo := int64(0)
	if h[0] > 0 {
		lo = int64(x.fanout[h[0]-1])
	}
	hi := int64(x.fanout[h[0]])
	var name [20]byte
	for lo < hi {
		mid := lo + (hi-lo)/2
		if _, err := x.f.ReadAt(name[:], idxHeader+mid*20); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(name[:], h[:]); {
		case c == 0:
			return x.offset(mid)
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

func (x *packIndex) offset(i int64) (int64, bool, error) {
	var b [8]byte
	if _, err := x.f.ReadAt(b[:4], idxHeader+x.count*24+i*4); err != nil {
		return 0, false, err
	}
	v := binary.BigEndian.Uint32(b[:4])
	if v&0x80000000 == 0 {
		return int64(v), true, nil
	}
	at := idxHeader + x.count*28 + int64(v&0x7fffffff)*8
	if at+8 > x.size-40 {
		return 0, false, errors.New("bad large offset in " + x.f.Name())
	}
	if _, err := x.f.ReadAt(b[:], at); err != nil {
		return 0, false, err
	}
	off := binary.BigEndian.Uint64(b[:])
	if off > 1<<62 {
		return 0, false, errors.New("bad large offset in " + x.f.Name())
	}
	return int64(off), true, nil
}

// commit reads a commit's parents and committer time from its header.
func (o *objects) commit(h plumbing.Hash) (*commit, error) {
	t, b, err := o.raw(h, 0)
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
