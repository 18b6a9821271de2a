// Package imports holds a package to the gpuwiz packages it may import: the front ends' layering
// tests (ui, steps/cli).
package imports

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Only fails t for each gpuwiz package that a non-test Go file in dir imports and allowed does not
// list, hint saying where the need belongs; and when no such file imports a gpuwiz package at all
// (the check read nothing).
func Only(t testing.TB, dir string, allowed []string, hint string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if path != "gpuwiz" && !strings.HasPrefix(path, "gpuwiz/") {
				continue
			}
			seen++
			if !slices.Contains(allowed, path) {
				t.Errorf("%s imports %s: %s", f, path, hint)
			}
		}
	}
	if seen == 0 {
		t.Fatalf("no Go file in %s imports a gpuwiz package: the check read nothing", dir)
	}
}
