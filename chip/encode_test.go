package chip

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestEncodeMatchesEncodingJSON holds the hand-written writers to
// encoding/json's bytes for random values of every type they write. fill
// sets every exported field (recursively) with probability 1-pZero, and
// the pZero=0 rounds set them all: a field added to a type but not to its
// writer makes the bytes differ.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		pZero := []float64{0, 0.2, 0.5, 0.9}[i%4]

		var g Global
		fill(rng, reflect.ValueOf(&g).Elem(), pZero)
		same(t, "Global", &g, encodeGlobal)

		var rs RepoState
		fill(rng, reflect.ValueOf(&rs).Elem(), pZero)
		same(t, "RepoState", &rs, encodeRepoState)

		var s Status
		fill(rng, reflect.ValueOf(&s).Elem(), pZero)
		want := new(bytes.Buffer)
		enc := json.NewEncoder(want)
		enc.SetIndent("", "  ")
		werr := enc.Encode(&s)
		got, gerr := s.JSON()
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Status (round %d):\ngot  %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
		}
	}
}

func same[T any](t *testing.T, name string, v *T, encode func(*T) ([]byte, error)) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, gerr := encode(v)
	if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("%s:\ngot  %s (%v)\nwant %s (%v)", name, got, gerr, want, werr)
	}
}

// Times JSON cannot hold are refused as encoding/json refuses them, not
// written as text a reader would reject.
func TestEncodeRefusesTimesOutOfRange(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		g := Global{Validation: Suppressed, SuppressedAt: tm}
		if _, werr := json.Marshal(&g); werr == nil {
			t.Fatalf("encoding/json accepted %v", tm)
		}
		if b, err := encodeGlobal(&g); err == nil {
			t.Fatalf("%v written as %s", tm, b)
		}
	}
}

// The records written are read back to the same values. (Invalid UTF-8
// is written as U+FFFD, as encoding/json writes it, so the comparison is
// between the first record read back and its own next round.)
func TestEncodeDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		var rs RepoState
		fill(rng, reflect.ValueOf(&rs).Elem(), 0.3)
		b, err := encodeRepoState(&rs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeRepoState(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, _ := encodeRepoState(&back)
		again, err := decodeRepoState(b2)
		if err != nil {
			t.Fatalf("%s: %v", b2, err)
		}
		if !reflect.DeepEqual(back, again) {
			t.Fatalf("round trip changed the record:\n%s\n%s", b, b2)
		}
		if !strings.ContainsRune(string(b), utf8.RuneError) && !strings.Contains(string(b), `\ufffd`) && !bytes.Equal(b, b2) {
			t.Fatalf("valid text changed in a round trip:\n%s\n%s", b, b2)
		}
	}
}

// decodeGhPR reads gh's output as encoding/json reads it into the same
// type: random documents with every field, and hand-picked odd ones.
func TestDecodeGhPRMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var docs [][]byte
	for i := range 2000 {
		var p ghPR
		fill(rng, reflect.ValueOf(&p).Elem(), []float64{0, 0.3, 0.7}[i%3])
		b, err := json.Marshal(&p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	docs = append(docs, [][]byte{
		[]byte(`{"number":42,"statusCheckRollup":null}`),
		[]byte(`{"number":42,"statusCheckRollup":[]}`),
		[]byte(`{"number":42,"statusCheckRollup":[null,{"STATE":"failure"}]}`),
		[]byte(`{"NUMBER":7,"IsDraft":true,"extra":{"a":[1,2,{}]}}`),
		[]byte(`{"number":null,"title":null}`),
		[]byte(`{"number":"42"}`),
		[]byte(`{"number":4.2}`),
		[]byte(`{"number":42,"statusCheckRollup":{}}`),
		[]byte(`{"number":42,"isDraft":"yes"}`),
		[]byte(`{"number":42} x`),
		[]byte(`[]`),
		[]byte(`null`),
		[]byte(``),
	}...)
	for _, b := range docs {
		var want ghPR
		werr := json.Unmarshal(b, &want)
		got, gerr := decodeGhPR(b)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: error %v, encoding/json %v", b, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\ngot  %+v\nwant %+v", b, got, want)
		}
	}
}
