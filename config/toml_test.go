package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// oracle decodes with BurntSushi/toml, the reference this parser follows.
func oracle(src string) (map[string]any, error) {
	var m map[string]any
	_, err := toml.Decode(src, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m, err
}

var tomlSamples = []string{
	"",
	"# only a comment\n",
	"mode = \"auto\"\ntimeout = \"5s\"\nrefresh_interval = 30\n",
	"a = 'literal \\n stays'\nb = \"esc \\t \\\" \\\\ \\u00e9 \\U0001F600\"\n",
	"a = \"\"\"\nline one\nline two \\\n   joined\"\"\"\nb = '''\nraw \\n\n'''\n",
	"list = [\"git\", \"gh\",\n  \"gt\", # comment\n]\nempty = []\nnested = [[1, 2], [\"a\"]]\n",
	"n = -17\nh = 0xff\no = 0o17\nb = 0b101\nu = 1_000\np = +3\nz = 0\n",
	"t = true\nf = false\n",
	"[chips.k8s]\ncommand = \"kubectl\"\nsuppress_on_failure = true\n[chips.\"quoted name\"]\ncommand = 'x'\n",
	"a.b.c = 1\na.b.d = \"x\"\n[x]\ny.z = 2\n",
	"inline = { a = 1, b = \"two\", c.d = true }\n",
	"[a.b]\nx = 1\n[a]\ny = 2\n",
	"[a.b]\nx = 1\n[a]\nb.y = 2\n",
	"key = \"value\"   # trailing comment\r\nother = 1\r\n",
	"\"quoted key\" = 1\n'literal key' = 2\n",
	"s = \"\"\"two quotes at end\"\"\"\"\"\n",
}

func TestTOMLMatchesOracle(t *testing.T) {
	for _, src := range tomlSamples {
		doc, err := parseTOML(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		want, err := oracle(src)
		if err != nil {
			t.Fatalf("oracle rejects %q: %v", src, err)
		}
		if !reflect.DeepEqual(doc.root, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", src, doc.root, want)
		}
	}
}

func TestTOMLRejects(t *testing.T) {
	cases := []struct {
		src, msg string
		line     int
	}{
		{"a = 1\na = 2\n", "set twice", 2},
		{"[t]\n[t]\n", "defined twice", 2},
		{"a = 1.5\n", "not floats", 1},
		{"\n\nd = 1979-05-27\n", "dates", 3},
		{"[[arr]]\n", "arrays of tables", 1},
		{"a = \"open\n", "unterminated", 1},
		{"a = bare\n", "need quotes", 1},
		{"a = 1 b = 2\n", "one key = value per line", 1},
		{"a = \"\\q\"\n", "invalid escape", 1},
		{"a = 012\n", "leading zeros", 1},
		{"a = [1, 2\n", "unterminated", 2},
		{"a = \"\xff\"\n", "UTF-8", 1},
		{"a = { b = 1 }\n[a]\n", "already a value", 2},
		{"x = 1\n= 2\n", "expected a key", 2},
	}
	for _, c := range cases {
		_, err := parseTOML(c.src)
		te, ok := err.(*tomlError)
		if !ok || !strings.Contains(te.Msg, c.msg) || te.Line != c.line {
			t.Errorf("%q: got %v, want line %d %q", c.src, err, c.line, c.msg)
		}
		if _, oerr := oracle(c.src); oerr == nil && !strings.Contains(c.msg, "float") && !strings.Contains(c.msg, "dates") && !strings.Contains(c.msg, "arrays of tables") {
			t.Errorf("%q: the oracle accepts what prchip rejects", c.src)
		}
	}
}

func TestTOMLKeyLines(t *testing.T) {
	doc, err := parseTOML("a = 1\n\n[chips.x]\n# c\ncommand = \"\"\"\nmulti\n\"\"\"\ntimeout = \"1s\"\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 1, "chips": 3, "chips.x": 3, "chips.x.command": 5, "chips.x.timeout": 8}
	for k, l := range want {
		if doc.lines[k] != l {
			t.Errorf("line of %s: %d, want %d", k, doc.lines[k], l)
		}
	}
}

// FuzzTOMLAgainstOracle: whatever prchip accepts, BurntSushi/toml accepts
// with the same values.
func FuzzTOMLAgainstOracle(f *testing.F) {
	for _, s := range tomlSamples {
		f.Add(s)
	}
	f.Add("a = [1,\n# x\n2,]\n")
	f.Add("[a]\nb.c = 1\n[a.b.d]\n")
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := parseTOML(src)
		if err != nil {
			return
		}
		want, oerr := oracle(src)
		if oerr != nil {
			t.Fatalf("prchip accepts what the oracle rejects (%v): %q", oerr, src)
		}
		if !reflect.DeepEqual(doc.root, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", src, doc.root, want)
		}
	})
}
