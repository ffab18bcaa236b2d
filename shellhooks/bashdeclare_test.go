package shellhooks

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

// The hook's one expansion of the variables, parsed, is what a command
// the shell starts finds in its environment: real bash, hostile values
// (quotes, tabs, newlines, escapes, bytes that are not UTF-8), names set
// but not exported, exported but without a value, an exported array.
func TestParseBashDeclareMatchesTheEnvironment(t *testing.T) {
	bash := testenv.Need(t, "bash")
	snippet, _ := Snippet("bash", Options{Exe: "/x/prchip"})
	var expand string
	for line := range strings.SplitSeq(snippet, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), `_prchip_ae="`) {
			expand = strings.TrimSpace(line)
		}
	}
	if expand == "" {
		t.Fatal("no _prchip_ae= line in the bash snippet")
	}
	for _, locale := range []string{"C", "C.UTF-8"} {
		script := `
export GH_TOKEN=$'it\'s a \ttab\nnewline \\ back \e esc \x01 \xff\xfe end'
export GITHUB_TOKEN='' PATH="$PATH" HOME='/home/ü ✓'
GH_HOST=not-exported
export GH_REPO; unset GH_REPO; export GH_REPO
declare -ax GH_CONFIG_DIR=(a b)
declare -ix GIT_CONFIG_COUNT=2
declare -rx NO_COLOR=1
export XDG_CONFIG_HOME=$'\x7f\x80'"'"'$(x)'"'"'"q"'
` + expand + `
printf '%s' "$_prchip_ae" > "$1"
command env -0 > "$2"
`
		dir := t.TempDir()
		cmd := exec.Command(bash, "-c", script, "bash", filepath.Join(dir, "ae"), filepath.Join(dir, "env"))
		cmd.Env = append(os.Environ(), "LC_ALL="+locale)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", locale, err, out)
		}
		dump, _ := os.ReadFile(filepath.Join(dir, "ae"))
		envb, _ := os.ReadFile(filepath.Join(dir, "env"))
		want := map[string]string{}
		for kv := range bytes.SplitSeq(envb, []byte{0}) {
			k, v, _ := strings.Cut(string(kv), "=")
			if slices.Contains(env.Names, k) {
				want[k] = v
			}
		}
		got := map[string]string{}
		ParseBashDeclare(string(dump), got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed %q\nthe environment has %q\n(dump %q)", locale, got, want, dump)
		}
		if _, ok := got["GH_TOKEN"]; !ok {
			t.Errorf("%s: GH_TOKEN missing", locale)
		}
	}
}

// A frame reads back in bash, with the hook's two reads and ${body@E},
// as the chip the worker wrote, in a byte locale and a UTF-8 one.
func TestBashFrameReadByBash(t *testing.T) {
	bash := testenv.Need(t, "bash")
	chips := []string{"", "#42", "\x01\x1b[32m\x02#5 ✓ 日本\x01\x1b[0m\x02", `a\b\\c`, "\x1b]8;;https://x/\x1b\\link\x1b]8;;\x1b\\", strings.Repeat("é", 300)}
	for _, locale := range []string{"C", "C.UTF-8"} {
		for _, chip := range chips {
			frame := append(BashFrame("0", "12345"), BashFrame("7", chip)...)
			script := `
for want in 0 7; do
  IFS= read -r -N 16 line || exit 3
  n=$(( 10#${line:10} )) body=
  if (( n > 0 )); then IFS= read -r -N "$n" body || exit 4; fi
  (( 10#${line:0:10} == want )) || exit 5
done
printf '%s' "${body@E}"`
			cmd := exec.Command(bash, "-c", script)
			cmd.Env = append(os.Environ(), "LC_ALL="+locale)
			cmd.Stdin = bytes.NewReader(frame)
			out, err := cmd.Output()
			if err != nil || string(out) != chip {
				t.Errorf("%s: chip %q came back as %q (%v)", locale, chip, out, err)
			}
		}
	}
}

// testenv.ReadBashFrame (the tests' reader) reads what bash reads.
func TestReadBashFrame(t *testing.T) {
	for _, chip := range []string{"", "it's \\ \x41", "\x01\x1b[1m\x02#1 ✓\x01\x1b[0m\x02", "日本"} {
		id, body, err := testenv.ReadBashFrame(bufio.NewReader(bytes.NewReader(BashFrame("12", chip))))
		if err != nil || id != "12" || body != chip {
			t.Errorf("chip %q read as %q %q %v", chip, id, body, err)
		}
	}
}

func TestBashFrameIDs(t *testing.T) {
	for id, head := range map[string]string{"0": "0000000000", "7": "0000000007", "4294967296": "4294967296", "x": "9999999999", "99999999999": "9999999999"} {
		if got := string(BashFrame(id, "ab")[:16]); got != head+"000002" {
			t.Errorf("id %q: header %q", id, got)
		}
	}
}

func FuzzParseBashDeclare(f *testing.F) {
	f.Add("declare -x PATH='/bin'\tdeclare -x HOME=$'a\\nb\\001'\tGH_HOST='x'")
	f.Add(`declare -x GH_TOKEN='it'\''s'`)
	f.Add(`declare -x GH_TOKEN=$'\x4`)
	f.Fuzz(func(t *testing.T, dump string) {
		m := map[string]string{}
		ParseBashDeclare(dump, m)
		for k := range m {
			if !slices.Contains(env.Names, k) {
				t.Fatalf("parsed a name not in env.Names: %q", k)
			}
		}
	})
}
