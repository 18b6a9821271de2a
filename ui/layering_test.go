package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/imports"
)

// The wizard writes no file: log files, venvs.json and lock files are the application layer's
// (steps/app). No ui source outside its tests creates, writes or removes a file, opens a log or the
// list of venvs.
func TestUIWritesNoFile(t *testing.T) {
	banned := map[string]bool{
		"os.WriteFile": true, "os.Create": true, "os.OpenFile": true, "os.Mkdir": true, "os.MkdirAll": true,
		"os.Remove": true, "os.RemoveAll": true, "os.Rename": true, "os.CreateTemp": true, "os.MkdirTemp": true,
		"install.OpenLog": true, "venvs.Default": true, "venvs.Open": true,
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && banned[id.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s.%s: the wizard writes no file; ask a session in steps/app", fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
			}
			return true
		})
	}
}

// The wizard is a front end over the application layer: outside its tests, ui imports steps/app
// and the presentation packages only (the catalog, shell quoting, packaging names, the words both
// front ends share), never a step package, the matrix or the commands. What it shows of a step
// comes through app's types.
func TestWizardImportsAppAndPresentationOnly(t *testing.T) {
	imports.Only(t, ".", []string{"gpuwiz/steps/app", "gpuwiz/steps/i18n", "gpuwiz/steps/shellquote", "gpuwiz/steps/pep",
		"gpuwiz/steps/words"},
		"the wizard asks steps/app (add what it needs to app, types.go's wizard section or an app session)")
}
