package cache

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// forceSearch makes ReadRepo search every non-empty file, through a small
// window, so that short test files take the path large ones take.
func forceSearch(t *testing.T, w int) {
	t.Helper()
	oldMin, oldWindow := searchMin, window
	searchMin, window = 0, w
	t.Cleanup(func() { searchMin, window = oldMin, oldWindow })
}

// The binary search, over the file or over the file read whole, finds
// exactly what parsing the whole file (Load) finds, for every key present
// and for absent keys before, between and after them, with windows smaller
// and larger than the records.
func TestSearchMatchesWholeRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for round := range 60 {
		s := newStore(t)
		n := []int{0, 1, 2, 3, 10, 50}[round%6]
		keys := map[string]bool{}
		if err := s.Update(func(tx *Tx) error {
			if round%4 != 0 {
				tx.SetGlobal([]byte(`{"validation":"` + strings.Repeat("v", rng.IntN(3000)) + `"}`))
			}
			for range n {
				k := fmt.Sprintf("%016x", rng.Uint64())[:1+rng.IntN(16)]
				keys[k] = true
				tx.PutRepo(k, []byte(`{"v":"`+strings.Repeat("x", rng.IntN(2500))+`"}`))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		probe := []string{"", "0", "00", "fffffffffffffffff", "8", "g", "7fffffff"}
		for k := range keys {
			probe = append(probe, k, k+"0", k[:len(k)-1])
			if len(probe) > 60 {
				break
			}
		}
		whole := s.Load()
		for _, w := range []int{8, 64, 1024} {
			for _, k := range probe {
				wg, wr, wp := whole.Global, whole.Repo(k), whole.Problem
				for _, least := range []int64{0, 1 << 62} { // searched in the file, in memory
					searchMin, window = least, w
					g, r, p := s.ReadRepo(k)
					searchMin, window = 64<<10, 1024
					if !bytes.Equal(g, wg) || !bytes.Equal(r, wr) || (p == nil) != (wp == nil) {
						t.Fatalf("round %d window %d in memory %v key %q: search %.40q %.40q %v, whole read %.40q %.40q %v", round, w, least > 0, k, g, r, p, wg, wr, wp)
					}
					if keys[k] && r == nil {
						t.Fatalf("key %q not found", k)
					}
				}
			}
		}
	}
}

// Broken files read as empty with a problem through the search too.
func TestBrokenStateFilesSearched(t *testing.T) {
	forceSearch(t, 8)
	TestBrokenStateFiles(t)
}

// Whatever the file holds, the search never panics, and a record it
// returns is one the file holds for that key.
func FuzzSearch(f *testing.F) {
	f.Add([]byte("prchip-state 2\nG\t{}\nR\ta\t1\t{\"a\":1}\nR\tb\t1\t{\"b\":1}\n"), "b", uint8(4))
	f.Add([]byte("prchip-state 2\nR\tb\t1\t{}\nR\ta\t1\t{}\nR\tb\t2\t{\"x\":1}\n"), "a", uint8(1))
	f.Add([]byte("prchip-state 2\nR\ta\nR\t\t\t\n\n\nR\tc\t1\t{}\n"), "c", uint8(3))
	f.Add([]byte("prchip-state 2\n"), "", uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, key string, w uint8) {
		if strings.ContainsAny(key, "\t\n") {
			return // keys are hex digests
		}
		oldMin, oldWindow := searchMin, window
		searchMin, window = 0, 1+int(w)
		defer func() { searchMin, window = oldMin, oldWindow }()
		s := &Store{Path: t.TempDir() + "/state"}
		if err := os.WriteFile(s.Path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		_, r, _ := s.ReadRepo(key)
		if r == nil {
			return
		}
		for _, line := range bytes.Split(b, []byte{'\n'}) {
			if rest, ok := bytes.CutPrefix(line, []byte("R\t"+key+"\t")); ok {
				if _, js, _ := bytes.Cut(rest, []byte{'\t'}); bytes.Equal(js, r) {
					return
				}
			}
		}
		t.Fatalf("record %q for %q is not in the file", r, key)
	})
}
