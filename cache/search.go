package cache

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// searchMin is the file size above which ReadRepo searches the file, not
// a copy read whole (a variable for the tests): below it one read call is
// cheapest; above it, reading every page of a file of hundreds of
// repositories cost a render ~0.3 ms, a binary search a dozen small reads.
var searchMin int64 = 64 << 10

// inMemory is a file read whole, read as a file: short at the end, no error.
type inMemory []byte

func (b inMemory) ReadAt(p []byte, off int64) (int, error) {
	return copy(p, b[min(off, int64(len(b))):]), nil
}

// window is how many bytes one probe reads: more than a typical record
// line, so a probe usually finds a line start and its key in one read.
var window = 1024

// lineReader reads a file's lines through one reusable window.
type lineReader struct {
	f   io.ReaderAt
	buf []byte
}

// line returns the line starting at off, without its newline, and the
// offset after it. The line aliases the window (valid until the next
// read) unless it is longer than the window.
func (r *lineReader) line(off int64) ([]byte, int64, error) {
	n, err := r.f.ReadAt(r.buf, off)
	if err != nil {
		return nil, 0, err
	}
	b := r.buf[:n]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], off + int64(i) + 1, nil
	}
	long := append([]byte(nil), b...)
	for n > 0 {
		if n, err = r.f.ReadAt(r.buf, off+int64(len(long))); err != nil {
			return nil, 0, err
		}
		if i := bytes.IndexByte(r.buf[:n], '\n'); i >= 0 {
			long = append(long, r.buf[:i]...)
			return long, off + int64(len(long)) + 1, nil
		}
		long = append(long, r.buf[:n]...)
	}
	return long, off + int64(len(long)), nil // the end of the file
}

// lineAfter finds the first line starting at or after pos and before hi,
// and its record key; start is hi when there is none.
func (r *lineReader) lineAfter(pos, hi int64) (start int64, key []byte, err error) {
	off := pos - 1 // a line starts at pos when the byte before it ends one
	for off < hi-1 {
		n, err := r.f.ReadAt(r.buf, off)
		if err != nil || n == 0 {
			return hi, nil, err
		}
		i := bytes.IndexByte(r.buf[:n], '\n')
		if i < 0 {
			off += int64(n)
			continue
		}
		start = off + int64(i) + 1
		if start >= hi {
			return hi, nil, nil
		}
		if k, complete := recordKey(r.buf[i+1 : n]); complete {
			return start, k, nil
		}
		line, _, err := r.line(start) // the key did not fit in this window
		if err != nil {
			return hi, nil, err
		}
		k, _ := recordKey(line)
		return start, k, nil
	}
	return hi, nil, nil
}

// recordKey is the key of a line "R\t<key>\t..." from b, which starts at
// the line's start and may hold only part of it. complete is false when b
// ends before the key does; a line that is no record has no key.
func recordKey(b []byte) (key []byte, complete bool) {
	if len(b) < 2 {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(b, []byte("R\t"))
	if !ok {
		return nil, true
	}
	for i, c := range rest {
		switch c {
		case '\t':
			return rest[:i], true
		case '\n':
			return nil, true
		}
	}
	return nil, false
}

// search reads the header, the global record and key's record of a file
// of size bytes.
func (s *Store) search(f io.ReaderAt, size int64, key string) (global, repo []byte, p *Problem) {
	r := &lineReader{f: f, buf: make([]byte, window)}
	head, next, err := r.line(0)
	if err != nil {
		return nil, nil, s.readProblem(err)
	}
	if next != int64(len(head))+1 { // the file ended before the header did
		return nil, nil, &Problem{s.Path, "truncated (no complete header); ignored"}
	}
	name, ver, _ := strings.Cut(string(head), " ")
	switch v, err := strconv.Atoi(ver); {
	case name != header:
		return nil, nil, &Problem{s.Path, "is not a prchip state file; ignored"}
	case err != nil:
		return nil, nil, &Problem{s.Path, "has a malformed version; ignored"}
	case v != Version:
		return nil, nil, &Problem{s.Path, fmt.Sprintf("has version %d, this prchip reads version %d; ignored", v, Version)}
	}
	if next == size {
		return nil, nil, nil
	}
	var last [1]byte
	if n, err := f.ReadAt(last[:], size-1); err != nil || n != 1 || last[0] != '\n' {
		return nil, nil, &Problem{s.Path, "truncated (last record incomplete); ignored"}
	}
	line, after, err := r.line(next)
	if err != nil {
		return nil, nil, s.readProblem(err)
	}
	if g, isG := bytes.CutPrefix(line, []byte("G\t")); isG {
		global = bytes.Clone(g) // the window is read into again below
		next = after
	}
	if key == "" {
		return global, nil, nil
	}
	// The record, if present, starts in [lo, hi), and lo is a line start.
	lo, hi := next, size
	for hi-lo > int64(window) {
		mid := lo + (hi-lo)/2
		start, k, err := r.lineAfter(mid, hi)
		if err != nil {
			return global, nil, s.readProblem(err)
		}
		if start >= hi {
			hi = mid
			continue
		}
		switch { // string(k) in a comparison allocates nothing
		case key == string(k):
			lo, hi = start, start+1
		case key < string(k):
			hi = start
		default:
			lo = start
		}
	}
	for pos := lo; pos < hi; {
		line, after, err := r.line(pos)
		if err != nil {
			return global, nil, s.readProblem(err)
		}
		if rest, found := bytes.CutPrefix(line, []byte("R\t"+key+"\t")); found {
			if _, js, ok := bytes.Cut(rest, []byte{'\t'}); ok { // after the last-used time
				return global, js, nil
			}
			return global, nil, &Problem{s.Path, "malformed repository record; ignored"}
		}
		pos = after
	}
	return global, nil, nil
}
