package shellhooks

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/prchip/prchip/internal/env"
)

func TestRequestRoundTrip(t *testing.T) {
	reqs := []Request{
		{ID: "1", Dir: "/home/u/src/repo", Env: map[string]string{}},
		{ID: "42", Dir: "/tmp/with space/and\nnewline", Invalidate: true,
			Env: map[string]string{"PATH": "/usr/bin:/bin", "GH_TOKEN": "tok=with=equals", "NO_COLOR": ""}},
	}
	var stream bytes.Buffer
	for _, r := range reqs {
		stream.Write(r.Encode())
	}
	br := bufio.NewReader(&stream)
	for _, want := range reqs {
		got, err := ReadRequest(br)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %+v, want %+v", got, want)
		}
	}
	if _, err := ReadRequest(br); err != io.EOF {
		t.Fatalf("after the last request: %v, want EOF", err)
	}
}

// What the hooks write, byte for byte: zsh's print -rN and bash's
// printf '%s\0' of the fields and a final empty one.
func TestReadRequestAsHooksWrite(t *testing.T) {
	raw := "prchip1\x007\x00/repo\x001\x00PATH=/bin\x00HOME=/home/u\x00UNKNOWN=x\x00\x00"
	r, err := ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	want := Request{ID: "7", Dir: "/repo", Invalidate: true, Env: map[string]string{"PATH": "/bin", "HOME": "/home/u"}}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got %+v, want %+v (a name not in env.Names is dropped)", r, want)
	}
}

// The invalidate field may name the invalidation ("1:NAME", "2:NAME"),
// which round-trips; a name without an invalidation means nothing.
func TestReadRequestOnce(t *testing.T) {
	for field, want := range map[string]Request{
		"1:123.4.5": {Invalidate: true, Once: "123.4.5"},
		"2:x":       {Probe: true, Once: "x"},
		"0:x":       {},
		"1:":        {Invalidate: true},
		"2":         {Probe: true},
	} {
		raw := "prchip1\x009\x00/r\x00" + field + "\x00\x00"
		r, err := ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			t.Fatal(err)
		}
		want.ID, want.Dir, want.Env = "9", "/r", map[string]string{}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("%q: got %+v, want %+v", field, r, want)
		}
		again, _ := ReadRequest(bufio.NewReader(bytes.NewReader(r.Encode())))
		if !reflect.DeepEqual(again, r) {
			t.Errorf("%q: re-encoded as %+v", field, again)
		}
	}
}

// git's configuration from the environment travels with a request: the
// fixed names, and GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n for n below
// GitConfigPairs in git's decimal form; nothing else of that shape.
func TestReadRequestGitConfigPairs(t *testing.T) {
	raw := "prchip1\x001\x00/r\x000\x00GIT_CONFIG_COUNT=2\x00GIT_CONFIG_KEY_0=safe.directory\x00GIT_CONFIG_VALUE_0=/r\x00" +
		"GIT_CONFIG_KEY_63=a.b\x00GIT_CONFIG_KEY_64=c.d\x00GIT_CONFIG_KEY_01=e.f\x00GIT_CONFIG_KEY_x=g\x00GIT_CONFIG_GLOBAL=/g\x00\x00"
	r, err := ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "/r",
		"GIT_CONFIG_KEY_63": "a.b", "GIT_CONFIG_GLOBAL": "/g"}
	if !reflect.DeepEqual(r.Env, want) {
		t.Fatalf("env %q, want %q", r.Env, want)
	}
	again, err := ReadRequest(bufio.NewReader(bytes.NewReader(r.Encode())))
	if err != nil || !reflect.DeepEqual(again, r) {
		t.Fatalf("Encode does not round-trip: %+v, %v", again, err)
	}
}

func TestReadRequestRejects(t *testing.T) {
	for name, raw := range map[string]string{
		"other protocol": "prchip2\x001\x00/r\x000\x00\x00",
		"no id":          "prchip1\x00\x00/r\x000\x00\x00",
		"huge field":     "prchip1\x001\x00/" + strings.Repeat("x", 70<<10) + "\x000\x00\x00",
		"endless fields": "prchip1\x001\x00/r\x000\x00" + strings.Repeat("PATH=x\x00", 300) + "\x00",
	} {
		if _, err := ReadRequest(bufio.NewReaderSize(strings.NewReader(raw), 64<<10)); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: %v, want ErrBadRequest", name, err)
		}
	}
}

func TestLines(t *testing.T) {
	if got := string(Answer("3", "#42 title")); got != "3 #42 title\n" {
		t.Errorf("answer %q", got)
	}
	if got := string(Hello(99)); got != "hello 99\n" {
		t.Errorf("hello %q", got)
	}
	if got := string(Push("")); got != "push \n" {
		t.Errorf("push %q", got)
	}
}

// The snippets collect exactly env.Names, and carry no placeholder.
func TestSnippetsCarryTheProtocol(t *testing.T) {
	for _, sh := range []string{"zsh", "bash"} {
		s, _ := Snippet(sh, Options{Exe: "/bin/prchip", InvalidateOn: []string{"git"}})
		if strings.Contains(s, "@PRCHIP_") {
			t.Errorf("%s: a placeholder is left", sh)
		}
		for _, n := range env.Names {
			form := `"` + n + `=$` + n + `"`
			if sh == "bash" {
				form = "${" + n + "@A}" // one expansion of all (ParseBashDeclare)
			}
			if !strings.Contains(s, form) {
				t.Errorf("%s does not send %s", sh, n)
			}
		}
		if !strings.Contains(s, Magic) {
			t.Errorf("%s does not speak %s", sh, Magic)
		}
	}
}

// FuzzReadRequest: any bytes give a request or an error, never a panic or
// a request the encoder would not have written.
func FuzzReadRequest(f *testing.F) {
	f.Add([]byte("prchip1\x001\x00/r\x000\x00PATH=/bin\x00\x00"))
	f.Add([]byte("prchip1\x00\x00\x00\x00\x00"))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ReadRequest(bufio.NewReaderSize(bytes.NewReader(b), 64<<10))
		if err != nil {
			return
		}
		if r.ID == "" {
			t.Fatal("a request without an id")
		}
		for k := range r.Env {
			if !env.IsName(k) {
				t.Fatalf("variable %q is not one a request carries", k)
			}
		}
		again, err := ReadRequest(bufio.NewReader(bytes.NewReader(r.Encode())))
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("re-encoded request reads as %+v, %v; want %+v", again, err, r)
		}
	})
}

// The starship block is valid TOML whatever the binary's path holds, and
// its command, run by sh, names exactly that path.
func TestStarshipBlockQuotesAnyPath(t *testing.T) {
	for _, exe := range []string{"/usr/bin/prchip", `/opt/we"ird/pr'chip\x`, "/tmp/a b/$(touch x)/`id`/prchip", "/tmp/tab\there"} {
		s, _ := Snippet("starship", Options{Exe: exe})
		var cfg struct {
			Custom map[string]struct{ Command string }
		}
		if _, err := toml.Decode(s, &cfg); err != nil {
			t.Fatalf("%q: not TOML: %v\n%s", exe, err, s)
		}
		word, ok := strings.CutSuffix(cfg.Custom["prchip"].Command, " prompt --shell plain")
		if !ok {
			t.Fatalf("%q: command %q", exe, cfg.Custom["prchip"].Command)
		}
		out, err := exec.Command("sh", "-c", `eval "set -- $1"; printf %s "$1"`, "sh", word).Output()
		if err != nil || string(out) != exe {
			t.Fatalf("%q: sh reads the command's word as %q (%v)", exe, out, err)
		}
	}
}
