package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// notYet names the functions of app that still word a value for both front ends, each with why it
// is left; the test below says when one no longer does.
var notYet = map[string]string{}

// The application layer returns values, not sentences: outside its tests, app calls the catalog
// (i18n.T, N, In, NIn) or words a value (a function of steps/words) only to make an error's message:
// inside the arguments of Usagef, Exitf, errors.New or fmt.Errorf, or in an Error method. A result,
// a note, a plan line or a warning is a typed value the front end that shows it words.
func TestAppMakesNoSentenceButAnErrorsMessage(t *testing.T) {
	errorMakers := map[string]bool{"Usagef": true, "Exitf": true, "errors.New": true, "fmt.Errorf": true}
	catalog := map[string]bool{"i18n.T": true, "i18n.N": true, "i18n.In": true, "i18n.NIn": true}
	sentence := func(name string) bool { return catalog[name] || strings.HasPrefix(name, "words.") }
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	calls := 0
	stillLeft := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, isFunc := d.(*ast.FuncDecl)
			inError := isFunc && fn.Recv != nil && fn.Name.Name == "Error"
			left := ""
			if isFunc && notYet[f+" "+funcName(fn)] != "" {
				left = f + " " + funcName(fn)
			}
			var stack []ast.Node
			ast.Inspect(d, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				call, ok := n.(*ast.CallExpr)
				if !ok || !sentence(callName(call)) {
					return true
				}
				calls++
				if left != "" {
					stillLeft[left] = true
					return true
				}
				if inError {
					return true
				}
				for _, up := range stack[:len(stack)-1] {
					if c, ok := up.(*ast.CallExpr); ok && errorMakers[callName(c)] {
						return true
					}
				}
				t.Errorf("%s: %s makes a sentence that is no error's message: return a typed value and word it in the front end that shows it",
					fset.Position(call.Pos()), callName(call))
				return true
			})
		}
	}
	if calls == 0 {
		t.Fatal("no catalog call found in steps/app: the check read nothing")
	}
	for fn := range notYet {
		if !stillLeft[fn] {
			t.Errorf("notYet names %s, which makes no sentence now: take it off the list", fn)
		}
	}
}

// callName is a call's function as written: "Usagef", "i18n.T", "errors.New"; "" for anything else.
func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// funcName is a function's name as notYet writes it: "Words", "(*DriverFailure).Words".
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	switch r := fn.Recv.List[0].Type.(type) {
	case *ast.StarExpr:
		if id, ok := r.X.(*ast.Ident); ok {
			return "(*" + id.Name + ")." + fn.Name.Name
		}
	case *ast.Ident:
		return r.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
