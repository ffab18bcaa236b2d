package env

import (
	"os"
	"strings"
	"testing"
)

// The child half of TestFromStartMatchesOS: compares every lookup with the
// os package's answer in a process started with an odd environment.
func TestMain(m *testing.M) {
	if os.Getenv("PRCHIP_ENV_CHILD") == "" {
		os.Exit(m.Run())
	}
	FromStart()
	keys := []string{"", "A", "B", "C", "D", "E", "E=1", "=", "=X", "F", "G", "PATH", "HOME", "MISSING", "a", "PRCHIP_ENV_CHILD", "LONG", "ÜML"}
	bad := 0
	for _, k := range keys {
		v1, ok1 := Lookup(k)
		v2, ok2 := os.LookupEnv(k)
		if v1 != v2 || ok1 != ok2 || Get(k) != os.Getenv(k) {
			os.Stdout.WriteString("key " + k + ": env " + v1 + " " + boolStr(ok1) + ", os " + v2 + " " + boolStr(ok2) + "\n")
			bad++
		}
	}
	os.Stdout.WriteString("checked\n")
	if bad > 0 {
		os.Exit(1)
	}
	os.Exit(0)
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// os.StartProcess passes the environment as given (exec.Cmd would drop
// duplicates), so the child sees duplicates, empty values, entries without
// "=", and values holding "=".
func TestFromStartMatchesOS(t *testing.T) {
	envv := []string{
		"PRCHIP_ENV_CHILD=1", "A=1", "A=2", "B=", "C", "D==x=", "E=1=2", "=X", "==", "F=first", "F=", "G=g",
		"a=lower", "PATH=/bin", "LONG=" + strings.Repeat("x", 5000), "ÜML=ü",
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.StartProcess(os.Args[0], []string{os.Args[0]}, &os.ProcAttr{Env: envv, Files: []*os.File{nil, w, w}})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := new(strings.Builder)
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !st.Success() || !strings.Contains(out.String(), "checked") {
		t.Fatalf("child: %v\n%s", st, out)
	}
}

// Before FromStart, lookups are os.LookupEnv's, so t.Setenv works in the
// in-process tests of every package.
func TestDefaultIsOS(t *testing.T) {
	t.Setenv("PRCHIP_ENV_TEST", "set")
	if v, ok := Lookup("PRCHIP_ENV_TEST"); !ok || v != "set" {
		t.Fatalf("Lookup = %q, %v", v, ok)
	}
}

func TestFromStartReadsTheStartingEnvironment(t *testing.T) {
	want, ok := os.LookupEnv("PATH")
	FromStart()
	defer func() { fromStart, start = false, nil }()
	if got, gotOK := Lookup("PATH"); got != want || gotOK != ok {
		t.Fatalf("Lookup(PATH) = %q, %v; os: %q, %v", got, gotOK, want, ok)
	}
	t.Setenv("PRCHIP_ENV_LATE", "x")
	if _, ok := Lookup("PRCHIP_ENV_LATE"); ok {
		t.Fatal("a variable set after the start was seen: not the starting environment")
	}
}
