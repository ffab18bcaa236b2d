package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/chip"
)

// status names what the calling shell's hook runs: the recorded binary,
// or, when that cannot run, the prchip on PATH it falls back to, or none.
func TestStatusNamesTheHooksBinary(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "v1", "prchip")
	notExe := filepath.Join(dir, "plain", "prchip")
	onPath := filepath.Join(dir, "bin", "prchip")
	for p, mode := range map[string]os.FileMode{exe: 0o755, notExe: 0o644, onPath: 0o755} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	for _, c := range []struct {
		name, hook, path string
		want             *chip.StatusHook
		line             string
	}{
		{"no hook", "", filepath.Dir(onPath), nil, ""},
		{"recorded binary", exe, filepath.Dir(onPath), &chip.StatusHook{Exe: exe, Runs: exe}, "runs " + exe + "\n"},
		{"gone, one on PATH", filepath.Join(dir, "gone", "prchip"), empty + ":" + filepath.Dir(onPath),
			&chip.StatusHook{Exe: filepath.Join(dir, "gone", "prchip"), Missing: "gone", Runs: onPath},
			"which is gone; it falls back to prchip on PATH (" + onPath + ")"},
		{"not executable, none on PATH", notExe, empty + ":" + filepath.Dir(notExe),
			&chip.StatusHook{Exe: notExe, Missing: "not an executable file"},
			"which is not an executable file, and there is no prchip on PATH: the chip is off in this shell"},
		{"a directory", filepath.Dir(exe), empty, &chip.StatusHook{Exe: filepath.Dir(exe), Missing: "not an executable file"}, "the chip is off"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PRCHIP_HOOK_EXE", c.hook)
			t.Setenv("PATH", c.path)
			out, _, _ := runIn(t, "status", "--json")
			var s struct{ Hook *chip.StatusHook }
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if (s.Hook == nil) != (c.want == nil) || s.Hook != nil && *s.Hook != *c.want {
				t.Fatalf("hook %+v, want %+v", s.Hook, c.want)
			}
			human, _, _ := runIn(t, "status")
			if c.line == "" && strings.Contains(human, "hook:") || !strings.Contains(human, c.line) {
				t.Fatalf("want a hook row with %q:\n%s", c.line, human)
			}
		})
	}
}
