package jsonread

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var validCases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `"a\u00e9\ud83d\ude00"`, ` { "a" : [ 1 , { } ] } `,
	``, ` `, `{`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `"\x"`, "\"\x01\"", `"\u12"`, `tru`, `nul`,
	`{"a" 1}`, `{1:2}`, `[1 2]`, `"a" "b"`, `{}{}`, "\"\xff\"",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

func checkValid(t *testing.T, b []byte) {
	r := New(b)
	r.Skip()
	got := r.Finish() == nil
	if want := json.Valid(b); got != want {
		t.Errorf("%.60q: valid %v, encoding/json says %v", b, got, want)
	}
}

// TestValidMatchesEncodingJSON: what a Reader accepts as JSON is what
// encoding/json accepts, up to its nesting limit.
func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, c := range validCases {
		checkValid(t, []byte(c))
	}
}

func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkValid)
}

func TestKeyIs(t *testing.T) {
	for _, c := range []struct {
		key, name string
		want      bool
	}{{"root", "root", true}, {"ROOT", "root", true}, {"Root", "root", true}, {"roo", "root", false}, {"rootx", "root", false}, {"r0ot", "root", false}, {"gh_version", "gh_version", true}, {"GH_VERSION", "gh_version", true}, {"gh-version", "gh_version", false}} {
		if got := KeyIs([]byte(c.key), c.name); got != c.want {
			t.Errorf("KeyIs(%q, %q) = %v", c.key, c.name, got)
		}
	}
}

// Strings without escapes share the text's memory, the others are copied
// out of the reused unescaping buffer: every value must still be what
// encoding/json reads after all of them are read.
func TestStringsSharedAndCopied(t *testing.T) {
	var parts []string
	for i := range 400 {
		s := strings.Repeat(string(rune('a'+i%26)), i%37)
		if i%50 == 7 {
			s += "\xff\xfe\xfd"
		}
		if i%60 == 3 {
			s += `\u00e9\n`
		}
		parts = append(parts, `"`+s+`"`)
	}
	text := []byte("[" + strings.Join(parts, ",") + "]")
	var want []string
	if err := json.Unmarshal(text, &want); err != nil {
		t.Fatal(err)
	}
	r := New(text)
	var got []string
	r.Array(func() {
		var s string
		r.String(&s)
		got = append(got, s)
	})
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
