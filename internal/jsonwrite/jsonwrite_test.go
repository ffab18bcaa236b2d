package jsonwrite

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// write writes a tree of the values the writers use.
func write(w *Writer, v any) {
	switch v := v.(type) {
	case nil:
		w.Null()
	case string:
		w.String(v)
	case int64:
		w.Int(v)
	case bool:
		w.Bool(v)
	case time.Time:
		w.Time(v)
	case []string:
		w.Strings(v)
	case []any:
		w.BeginArray()
		for _, e := range v {
			write(w, e)
		}
		w.EndArray()
	case map[string]any:
		w.BeginObject()
		for _, k := range SortedKeys(v) {
			w.Key(k)
			write(w, v[k])
		}
		w.EndObject()
	default:
		panic("write: no case for a value")
	}
}

var texts = []string{"", "a", "Z z", "\"", "\\", "/", "\n\r\t\b\f", "\x00\x01\x1f\x7f", "\u2028\u2029", "é", "😀",
	"<script>&amp;", "\xff", "\xed\xa0\x80", "\xf0\x9f\x98", "%F{red}$(x)`y`", "\u00a0\ufeff"}

func randValue(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(9); {
	case k == 0:
		return nil
	case k == 1:
		var b strings.Builder
		for i := rng.IntN(4); i >= 0; i-- {
			b.WriteString(texts[rng.IntN(len(texts))])
		}
		return b.String()
	case k == 2:
		return []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, rng.Int64()}[rng.IntN(7)]
	case k == 3:
		return rng.IntN(2) == 0
	case k == 4:
		zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("", -9*3600-1800)}
		return time.Unix(rng.Int64N(3e11)-1e11, rng.Int64N(1e9)).In(zones[rng.IntN(3)])
	case k == 5:
		if rng.IntN(3) == 0 {
			return []string(nil)
		}
		return []string{"x", "<y>"}[:rng.IntN(3)]
	case depth > 3:
		return "leaf"
	case k == 6 || k == 7:
		m := map[string]any{}
		for i := rng.IntN(4); i > 0; i-- {
			m[texts[rng.IntN(len(texts))]] = randValue(rng, depth+1)
		}
		return m
	default:
		a := []any{}
		for i := rng.IntN(4); i > 0; i-- {
			a = append(a, randValue(rng, depth+1))
		}
		return a
	}
}

// Random trees, compact and indented, byte for byte as encoding/json
// (Marshal; Encoder with SetIndent) writes them.
func TestMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		v := randValue(rng, 0)
		want, werr := json.Marshal(v)
		w := New()
		write(w, v)
		got, gerr := w.Bytes()
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("compact:\ngot  %s (%v)\nwant %s (%v)", got, gerr, want, werr)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		werr = enc.Encode(v)
		w = NewIndented("  ")
		write(w, v)
		got, gerr = w.Bytes()
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, buf.Bytes()) {
			t.Fatalf("indented:\ngot  %s (%v)\nwant %s (%v)", got, gerr, buf.Bytes(), werr)
		}
	}
}

// Any string is escaped as encoding/json escapes it.
func FuzzString(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
