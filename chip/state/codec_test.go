package state

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/internal/sanitize"
)

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

// Times outside RFC 3339's years are refused, not written unreadable.
func TestEncodeRefusesTimesOutOfRange(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		g := Global{Validation: Suppressed, SuppressedAt: tm}
		if b, err := EncodeGlobal(&g); err == nil {
			t.Fatalf("%v written as %s", tm, b)
		}
	}
}

// The records written are read back to the same values. (Invalid UTF-8
// is written as U+FFFD, so the comparison is between the first record
// read back and its own next round.)
func TestEncodeDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		var rs RepoState
		fill(rng, reflect.ValueOf(&rs).Elem(), 0.3)
		b, err := EncodeRepoState(&rs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeRepoState(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, _ := EncodeRepoState(&back)
		again, err := DecodeRepoState(b2)
		if err != nil {
			t.Fatalf("%s: %v", b2, err)
		}
		if !reflect.DeepEqual(back, again) {
			t.Fatalf("round trip changed the record:\n%s\n%s", b, b2)
		}
		// What is only compared comes back as written; what is shown
		// comes back clean.
		if !strings.ContainsRune(string(b), utf8.RuneError) && !strings.Contains(string(b), `\ufffd`) {
			for _, br := range rs.Branches {
				if br == nil {
					continue
				}
				for name, st := range br.Chips {
					if st == nil {
						continue
					}
					got := back.Chip(br.Branch, br.Target, br.Auth, name)
					if got == nil && len(back.Branches) == MaxBranches {
						continue // beyond the bound, dropped
					}
					if got == nil || got.Fingerprint != st.Fingerprint || got.FailureFP != st.FailureFP {
						t.Fatalf("a compared field changed in a round trip:\n%s\n%s", b, b2)
					}
				}
			}
		}
		checkShownClean(t, reflect.ValueOf(back), "", string(b))
	}
}

// notShown are the fields decoding leaves as stored: identities that are
// compared, never shown, and the root, never read.
var notShown = map[string]bool{"Branch": true, "Target": true, "Auth": true, "Fingerprint": true, "FailureFP": true,
	"SuppressedSetup": true, "GhVersionOf": true, "Validation": true, "Root": true, "SyncLocal": true, "GhLacks": true, "GhLacksOf": true, "Fields": true, "InvalidatedOnce": true}

// checkShownClean fails when a string field of v that may be shown holds
// what sanitize.Text would remove or a token.
func checkShownClean(t *testing.T, v reflect.Value, field, src string) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if !notShown[field] && (sanitize.Text(s, 0) != s || strings.Contains(s, "ghp_")) {
			t.Fatalf("%s read back as %q from\n%s", field, s, src)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			checkShownClean(t, v.Elem(), field, src)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			checkShownClean(t, v.MapIndex(k), field, src)
		}
	case reflect.Slice:
		for i := range v.Len() {
			checkShownClean(t, v.Index(i), field, src)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				checkShownClean(t, v.Field(i), f.Name, src)
			}
		}
	}
}

// A planted record (docs/threat-model.md, "A planted state file or config file"):
// every string decoding gives back that may be shown is clean, tokens
// redacted; a payload smuggled into a stored outcome is dropped.
func TestDecodeCleansPlantedRecords(t *testing.T) {
	const h = `x\u001b[31m\u001b]52;c;aGk=\u0007\u009b2J\u202e\u200b\n\u2028y ghp_PLANTED0123456789abcdefghijklmnopq \ufffd`
	rec := strings.ReplaceAll(`{"root":"H","branches":[null,{"branch":"H","target":"H","chips":{"x":null,"pr":{"fingerprint":"H","value":"H",
		"pr":{"number":1,"url":"H","state":"H","title":"H","review":"H","checks":"H","merge_state":"H","failing_check":"H",
			"head_oid":"H","sync":"H","sync_local":"H","queue":{"position":1,"state":"H",
			"removed_at":"2026-11-30T10:00:00Z","removal_cause":"H","removal_reason":"H","removal_head_oid":"H"}},
		"outcome":{"class":"H","category":"H","detail":"H","recovery_actions":["H","H","H","H"],
			"pr":{"number":2,"title":"H"},"value":"H"}}}}]}`, "H", h)
	rs, err := DecodeRepoState([]byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	checkShownClean(t, reflect.ValueOf(rs), "", rec)
	if len(rs.Branches) != 1 || len(rs.Branches[0].Chips) != 1 {
		t.Fatalf("planted nulls kept: %+v", rs.Branches)
	}
	br := rs.Branches[0]
	st := br.Chips["pr"]
	if st.PR.Title == "" || !strings.Contains(st.PR.Title, "[REDACTED]") || strings.Contains(st.PR.Title, "  ") {
		t.Errorf("title %q", st.PR.Title)
	}
	if q := st.PR.Queue; q.RemovalCause != "unknown" || q.RemovalReason == "" || len(q.RemovalReason) > classify.MaxRemovalReason {
		t.Errorf("a planted removal from the merge queue read back as cause %q, reason %q", q.RemovalCause, q.RemovalReason)
	}
	if br.Branch == st.PR.Title || st.Fingerprint != br.Branch || br.Target != br.Branch {
		t.Errorf("the branch, target and fingerprint were changed: %q %q %q", br.Branch, br.Target, st.Fingerprint)
	}
	if o := st.Outcome; o.PR != nil || o.Value != "" || len(o.Recovery) != 3 {
		t.Errorf("stored outcome keeps a payload or too many actions: %+v", o)
	}
	g, err := DecodeGlobal([]byte(strings.ReplaceAll(`{"gh_version":"H","gh_version_of":"H"}`, "H", h)))
	if err != nil {
		t.Fatal(err)
	}
	checkShownClean(t, reflect.ValueOf(g), "", h)
}

// A record that does not decode reads as the zero value, never as half of
// one; the cases hold both kinds.
func TestDecodeBadRecords(t *testing.T) {
	var ok, bad int
	for _, c := range decodeCases {
		rs, err := DecodeRepoState([]byte(c))
		if err != nil {
			bad++
			if !reflect.DeepEqual(rs, RepoState{}) {
				t.Errorf("%s: refused, but read as %+v", c, rs)
			}
		} else {
			ok++
		}
	}
	if ok < 10 || bad < 10 {
		t.Fatalf("cases: %d accepted, %d refused", ok, bad)
	}
	if g, err := DecodeGlobal([]byte(`{"validation":1,"gh_version":"x"}`)); err == nil || !reflect.DeepEqual(g, Global{}) {
		t.Errorf("a global record of the wrong type read as %+v, %v", g, err)
	}
}

// Whatever the bytes, decoding gives a record or an error, and a record
// read survives its own round trip.
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
		rs, err := DecodeRepoState(b)
		if err != nil {
			return
		}
		out, err := EncodeRepoState(&rs)
		if err != nil {
			return // a time out of range
		}
		if _, err := DecodeRepoState(out); err != nil {
			t.Fatalf("%s re-encoded as %s, which does not decode: %v", b, out, err)
		}
	})
}
