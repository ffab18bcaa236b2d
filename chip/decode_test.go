package chip

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fill sets every exported field of v (recursively) to a random non-zero
// value, or leaves it zero with probability pZero (fields of a value
// that is set are left zero with the same probability), so that a field
// the hand-written decoder forgets shows up as a difference.
func fill(rng *rand.Rand, v reflect.Value, pZero float64) {
	if rng.Float64() < pZero {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(randText(rng))
	case reflect.Int, reflect.Int64:
		n := rng.Int64N(1 << 40)
		if rng.IntN(3) == 0 {
			n = -n
		}
		v.SetInt(n)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(rng, p.Elem(), pZero)
		v.Set(p)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := rng.IntN(4); i >= 0; i-- {
			k := reflect.New(v.Type().Key()).Elem()
			fill(rng, k, 0)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(rng, e, pZero/3)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Slice:
		n := rng.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(rng, s.Index(i), pZero/3)
		}
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("", -5*3600-1800)}
			t := time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(zones[rng.IntN(len(zones))])
			v.Set(reflect.ValueOf(t))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), pZero)
			}
		}
	default:
		panic("fill: add a case for " + v.Type().String())
	}
}

func randText(rng *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f", "\u2028", "é", "😀", "<>&", "\xff", "\xed\xa0\x80", "%F{red}", "$(x)"}
	var b strings.Builder
	for i := rng.IntN(6); i >= 0; i-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestDecodeMatchesEncodingJSON round-trips random records, every field
// set in some of them, through json.Marshal and both decoders.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var rs RepoState
		fill(rng, reflect.ValueOf(&rs).Elem(), 0.3)
		b, err := json.Marshal(&rs)
		if err != nil {
			t.Fatal(err)
		}
		compareRepoState(t, b)
		var g Global
		fill(rng, reflect.ValueOf(&g).Elem(), 0.3)
		gb, _ := json.Marshal(&g)
		compareGlobal(t, gb)
		if t.Failed() {
			t.Fatalf("round %d", i)
		}
	}
}

// TestDecodeSeesEveryField fails when a field is added to the state types
// without a case in decode.go: a record with every field set must decode
// to a value with every field set.
func TestDecodeSeesEveryField(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var rs RepoState
	fill(rng, reflect.ValueOf(&rs).Elem(), 0)
	if !allSet(reflect.ValueOf(rs)) {
		t.Fatalf("fill left a field zero: %#v", rs)
	}
	b, _ := json.Marshal(&rs)
	got, err := decodeRepoState(b)
	if err != nil {
		t.Fatal(err)
	}
	if !allSet(reflect.ValueOf(got)) {
		t.Fatalf("a field was not decoded:\n%s\n%#v", b, got)
	}
}

// allSet reports whether every field, recursively, is non-zero.
func allSet(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return !v.IsNil() && allSet(v.Elem())
	case reflect.Map:
		if v.Len() == 0 {
			return false
		}
		for it := v.MapRange(); it.Next(); {
			if !allSet(it.Value()) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return v.Len() > 0
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return !v.Interface().(time.Time).IsZero()
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !allSet(v.Field(i)) {
				return false
			}
		}
		return true
	}
	return !v.IsZero()
}

func compareRepoState(t *testing.T, b []byte) { t.Helper(); compareWith(t, b, decodeRepoState) }

func compareGlobal(t *testing.T, b []byte) { t.Helper(); compareWith(t, b, decodeGlobal) }

// compareWith decodes b with decode and with encoding/json, and compares.
func compareWith[T any](t *testing.T, b []byte, decode func([]byte) (T, error)) {
	t.Helper()
	var want T
	werr := json.Unmarshal(b, &want)
	got, gerr := decode(b)
	compare(t, b, werr, gerr, want, got)
}

func compare(t *testing.T, b []byte, werr, gerr error, want, got any) {
	t.Helper()
	if (werr == nil) != (gerr == nil) {
		t.Errorf("%q: encoding/json says %v, decoder says %v", b, werr, gerr)
		return
	}
	if werr == nil && comparable(b) && !reflect.DeepEqual(want, got) {
		t.Errorf("%q:\nencoding/json %#v\ndecoder       %#v", b, want, got)
	}
}

// comparable reports whether values must match for b: not when an object
// repeats a key (encoding/json merges the two values; the decoder keeps
// the last, as documented) or a key is not ASCII (encoding/json folds a
// few non-ASCII letters onto ASCII ones).
func comparable(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		obj     bool
		seen    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k := tok.(string)
			for i := 0; i < len(k); i++ {
				if k[i] >= 0x80 {
					return false
				}
			}
			if top.seen[strings.ToLower(k)] {
				return false
			}
			top.seen[strings.ToLower(k)] = true
			top.wantKey = false
			continue
		}
		if top != nil && top.obj {
			top.wantKey = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, seen: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

var decodeCases = []string{
	`{}`, `null`, ` {"root":"/r"} `, `{"root":null}`, `{"ROOT":"/r"}`, `{"Root":"/a","root":"/b"}`,
	`{"root":"\u00e9\ud83d\ude00\ud800x\udc00\\\/\b\f\n\r\t"}`, "{\"root\":\"\xff\xfe\"}",
	`{"root":1}`, `{"root":"a"} x`, `{"root":"a"`, `{"root":"a",}`, `[]`, `"x"`, `1`, ``, ` `,
	`{"invalidations":1.0}`, `{"invalidations":1e2}`, `{"invalidations":-0}`, `{"invalidations":9223372036854775807}`,
	`{"invalidations":9223372036854775808}`, `{"invalidations":"1"}`, `{"invalidations":true}`, `{"invalidations":01}`,
	`{"chips":null}`, `{"chips":{}}`, `{"chips":{"pr":null}}`, `{"chips":[]}`, `{"chips":{"pr":{"stale":"yes"}}}`,
	`{"chips":{"pr":{"checked_at":"2026-11-30T06:00:00Z","next_attempt":"2026-11-30T07:00:00.5+01:00"}}}`,
	`{"chips":{"pr":{"checked_at":"2026-11-30T06:00:00"}}}`, `{"chips":{"pr":{"checked_at":"\u0032026-11-30T06:00:00Z"}}}`,
	`{"chips":{"pr":{"checked_at":null,"pr":null,"outcome":null}}}`, `{"chips":{"pr":{"checked_at":5}}}`,
	`{"chips":{"pr":{"outcome":{"recovery_actions":[]}}}}`, `{"chips":{"pr":{"outcome":{"recovery_actions":["a",null,"b"]}}}}`,
	`{"chips":{"pr":{"outcome":{"recovery_actions":[1]}}}}`, `{"chips":{"pr":{"outcome":{"recovery_actions":"a"}}}}`,
	`{"chips":{"pr":{"pr":{"number":42,"draft":false,"title":"t","extra":[1,{"a":[]}]}}}}`,
	`{"unknown":{"deep":[[[{"x":null}]]]},"root":"r"}`, `{"unknown":tru}`, `{"unknown":"\x"}`, "{\"root\":\"a\tb\"}",
	`{"chips":{"pr":{"pr":{"number":4.2}}}}`, `{"chips":{"pr":{"outcome":{"exit_code":-1,"duration_ms":12,"timed_out":true}}}}`,
	`{"chips":{"pr":{"failures":1},"pr":{"value":"v"}}}`, `{ "root" : "r" , "invalidations" : 3 }`,
}

func TestDecodeTricky(t *testing.T) {
	for _, c := range decodeCases {
		compareRepoState(t, []byte(c))
	}
	for _, c := range []string{`{"validation":"suppressed","suppressed_at":"2026-01-02T03:04:05Z"}`, `{"validation":1}`,
		`{"Validation":"validated","gh_version":"gh version 2.23.0","GH_VERSION_OF":"x"}`, `{"suppressed_at":"bad"}`} {
		compareGlobal(t, []byte(c))
	}
	// The cases must include both outcomes.
	var ok, bad int
	for _, c := range decodeCases {
		if _, err := decodeRepoState([]byte(c)); err != nil {
			bad++
		} else {
			ok++
		}
	}
	if ok < 10 || bad < 10 {
		t.Fatalf("cases: %d accepted, %d refused", ok, bad)
	}
}

func FuzzDecodeRepoState(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		var rs RepoState
		fill(rng, reflect.ValueOf(&rs).Elem(), 0.3)
		b, _ := json.Marshal(&rs)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		compareRepoState(t, b)
		compareGlobal(t, b)
	})
}
