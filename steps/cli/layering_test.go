package cli

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The commands are a front end over the application layer, as the wizard is: outside its tests,
// steps/cli imports steps/app and the presentation packages only (the catalog, shell quoting,
// packaging names), never a step package or the matrix. What a command shows of a step comes
// through app's types (types.go's steps/cli section); what it runs is an app session.
func TestCommandsImportAppAndPresentationOnly(t *testing.T) {
	allowed := map[string]bool{
		"gpuwiz/steps/app": true, "gpuwiz/steps/i18n": true, "gpuwiz/steps/shellquote": true, "gpuwiz/steps/pep": true,
	}
	files, _ := filepath.Glob("*.go")
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
			if !allowed[path] {
				t.Errorf("%s imports %s: the commands ask steps/app (add what they need to app, types.go's steps/cli section or an app session)", f, path)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no steps/cli file imports a gpuwiz package: the check read nothing")
	}
}
