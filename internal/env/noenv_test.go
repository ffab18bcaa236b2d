package env

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envFuncs read or change the process's environment; outside this package
// and main.go they would bypass the Env a render was given (the worker's
// process environment is not the request's).
// The others read a variable inside: HOME, TMPDIR, XDG_*, PATH.
var envFuncs = map[string][]string{
	"os": {"Getenv", "LookupEnv", "Environ", "Setenv", "Unsetenv", "Clearenv", "ExpandEnv",
		"TempDir", "UserHomeDir", "UserConfigDir", "UserCacheDir"},
	"syscall": {"Getenv", "Environ", "Setenv", "Unsetenv", "Clearenv"},
	"os/exec": {"LookPath"},
}

// notProduct are the module's folders that are not product code: the
// tests' harness and tools, which may read the environment.
var notProduct = []string{"e2e", "internal/bench", "internal/fakegithub", "internal/testenv", "internal/ghsim", "internal/env"}

// TestNoEnvironmentOutsideEnv parses every product Go file and fails on a
// call of envFuncs outside this package and main.go. (An exec.Cmd left
// without Env inherits the process's too; that one is not checked here.)
func TestNoEnvironmentOutsideEnv(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			for _, n := range notProduct {
				if rel == n {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == "main.go" {
			return nil
		}
		files++
		for _, bad := range envCalls(t, p) {
			t.Errorf("%s: %s: read the environment through an env.Env instead", rel, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d product files found under %s: the check would prove nothing", files, root)
	}
}

// envCalls are the calls (and uses as values) of envFuncs in file p, as
// "line: pkg.Func", whatever name the file imports os or syscall by.
func envCalls(t *testing.T, p string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // the file's name for a package: its path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if _, ok := envFuncs[path]; !ok {
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = path
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path, ok := names[id.Name]
		if !ok {
			return true
		}
		for _, fn := range envFuncs[path] {
			if sel.Sel.Name == fn {
				out = append(out, strconv.Itoa(fset.Position(sel.Pos()).Line)+": "+path+"."+fn)
			}
		}
		return true
	})
	return out
}
