package ui

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The checkable house rules of AGENTS.md, enforced on this package's own source.

var hexColour = regexp.MustCompile(`^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$`)

// styleViolations lists colours named outside styles.go and key bindings built outside keys.go.
func styleViolations(fset *token.FileSet, files map[string]*ast.File) []string {
	var out []string
	for name, f := range files {
		base := filepath.Base(name)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && base != "styles.go" {
					if s, err := strconv.Unquote(n.Value); err == nil && hexColour.MatchString(s) {
						out = append(out, fmt.Sprintf("%s: colour literal %s outside styles.go", fset.Position(n.Pos()), n.Value))
					}
				}
			case *ast.SelectorExpr:
				pkg, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				switch {
				case pkg.Name == "lipgloss" && strings.HasSuffix(n.Sel.Name, "Color") && base != "styles.go":
					out = append(out, fmt.Sprintf("%s: lipgloss.%s outside styles.go", fset.Position(n.Pos()), n.Sel.Name))
				case pkg.Name == "key" && n.Sel.Name == "NewBinding" && base != "keys.go":
					out = append(out, fmt.Sprintf("%s: key.NewBinding outside keys.go: copy a KeyMap binding and relabel it", fset.Position(n.Pos())))
				}
			}
			return true
		})
	}
	sort.Strings(out)
	return out
}

func parseDir(t *testing.T, dir string, tests bool) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := bp.GoFiles
	if tests {
		names = append(append([]string{}, names...), bp.TestGoFiles...)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(dir, n)] = f
	}
	return fset, files
}

func TestNoColourOrKeyBindingOutsideTheirFile(t *testing.T) {
	fset, files := parseDir(t, ".", true)
	if v := styleViolations(fset, files); len(v) > 0 {
		t.Fatalf("house rules (AGENTS.md):\n%s", strings.Join(v, "\n"))
	}
	// The check finds what it is for.
	fset, files = parseDir(t, filepath.Join("testdata", "rules"), false)
	got := strings.Join(styleViolations(fset, files), "\n")
	for _, want := range []string{`colour literal "#FF0000"`, "lipgloss.Color outside", "key.NewBinding outside"} {
		if !strings.Contains(got, want) {
			t.Errorf("the rule check misses %q in testdata/rules:\n%s", want, got)
		}
	}
}

var exportFiles = sync.OnceValues(func() (map[string]string, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %w", err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, f, ok := strings.Cut(l, "\t"); ok && f != "" {
			m[p] = f
		}
	}
	return m, nil
})

// typeCheck type-checks the non-test files of dir against the compiled packages this one uses.
func typeCheck(t *testing.T, dir string) (*token.FileSet, []*ast.File, *types.Package, *types.Info) {
	t.Helper()
	exports, err := exportFiles()
	if err != nil {
		t.Fatal(err)
	}
	fset, byName := parseDir(t, dir, false)
	var files []*ast.File
	for _, f := range byName {
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check("gpuwiz/ui/"+filepath.Base(dir), fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, files, pkg, info
}

// isCommand is true for a function literal that returns a tea.Msg: a command's body (or a
// tea.Tick's), which runs outside Update.
func isCommand(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	n, ok := sig.Results().At(0).Type().(*types.Named)
	return ok && n.Obj().Name() == "Msg" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "github.com/charmbracelet/bubbletea"
}

// backendCallsFromUpdate walks every function reachable from an Update method and lists each call
// of an App method it finds there. A call of the package's function or method reaches it; an
// interface call reaches every method of that name; a call of a function value reaches every
// function literal and function of its type; a literal handed to another package's function is
// reached unless it returns a tea.Msg (a command, or a tea.Tick's body: they run outside Update).
// Other literals are not entered where they are written: a literal runs when it is called.
func backendCallsFromUpdate(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) []string {
	backend := pkg.Scope().Lookup("App").Type()
	iface := backend.Underlying().(*types.Interface)
	isBackendMethod := func(fn *types.Func) bool {
		recv := fn.Type().(*types.Signature).Recv()
		if recv == nil {
			return false
		}
		if types.Identical(recv.Type(), backend) {
			return true
		}
		obj, _, _ := types.LookupFieldOrMethod(backend, false, pkg, fn.Name())
		return obj != nil && types.Implements(recv.Type(), iface)
	}
	// node is a function body: a declared function or method, or a function literal.
	type node struct {
		name string
		body *ast.BlockStmt
	}
	decls := map[*types.Func]node{}
	byName := map[string][]*types.Func{}
	var lits []*ast.FuncLit
	var valueFuncs []*types.Func // declared functions used as values, not called
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := info.Defs[fd.Name].(*types.Func)
			name := fd.Name.Name
			if fd.Recv != nil {
				name = types.TypeString(fn.Type().(*types.Signature).Recv().Type(), types.RelativeTo(pkg)) + "." + name
			}
			decls[fn] = node{name, fd.Body}
			byName[fd.Name.Name] = append(byName[fd.Name.Name], fn)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if l, ok := n.(*ast.FuncLit); ok {
				lits = append(lits, l)
			}
			return true
		})
	}
	called := map[*ast.Ident]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				switch fun := c.Fun.(type) {
				case *ast.Ident:
					called[fun] = true
				case *ast.SelectorExpr:
					called[fun.Sel] = true
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && !called[id] && fn.Pkg() == pkg {
			valueFuncs = append(valueFuncs, fn)
		}
	}

	var out []string
	seen := map[*ast.BlockStmt]bool{}
	type item struct {
		n    node
		path []string
	}
	var queue []item
	push := func(n node, path []string) {
		if n.body != nil && !seen[n.body] {
			seen[n.body] = true
			queue = append(queue, item{n, append(append([]string{}, path...), n.name)})
		}
	}
	for fn, n := range decls {
		if fn.Name() == "Update" {
			push(n, nil)
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		ast.Inspect(it.n.body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // it runs when called: reached through a call of its type, below
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			lit := func(l *ast.FuncLit) {
				push(node{"func literal at " + fset.Position(l.Pos()).String(), l.Body}, it.path)
			}
			var fn *types.Func
			switch fun := call.Fun.(type) {
			case *ast.FuncLit: // called on the spot
				lit(fun)
			case *ast.Ident:
				fn, _ = info.Uses[fun].(*types.Func)
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[fun]; ok && sel.Kind() == types.MethodVal {
					fn, _ = sel.Obj().(*types.Func)
				} else if sel == nil {
					fn, _ = info.Uses[fun.Sel].(*types.Func) // a package-qualified function
				}
			}
			switch {
			case fn != nil && isBackendMethod(fn):
				out = append(out, fmt.Sprintf("%s: %s calls App.%s", fset.Position(call.Pos()), strings.Join(it.path, " -> "), fn.Name()))
			case fn != nil && fn.Pkg() != pkg: // another package's function may call a literal it is given
				for _, arg := range call.Args {
					if l, ok := arg.(*ast.FuncLit); ok && !isCommand(info.Types[l].Type.(*types.Signature)) {
						lit(l)
					}
				}
			case fn != nil && fn.Pkg() == pkg:
				if n, ok := decls[fn]; ok {
					push(n, it.path)
				} else { // an interface method: every method of that name
					for _, m := range byName[fn.Name()] {
						push(decls[m], it.path)
					}
				}
			case fn == nil:
				tv, ok := info.Types[call.Fun]
				sig, isSig := tv.Type.(*types.Signature)
				if !ok || !isSig || tv.IsType() {
					break
				}
				for _, l := range lits { // a function value: any literal or function of its type
					if types.Identical(info.Types[l].Type, sig) {
						lit(l)
					}
				}
				for _, v := range valueFuncs {
					if types.Identical(v.Type(), sig) {
						push(decls[v], it.path)
					}
				}
			}
			return true
		})
	}
	sort.Strings(out)
	return out
}

func TestNoBackendCallFromUpdate(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command for the compiled dependencies")
	}
	if v := backendCallsFromUpdate(typeCheck(t, ".")); len(v) > 0 {
		t.Fatalf("IO belongs in commands, never in Update (AGENTS.md):\n%s", strings.Join(v, "\n"))
	}
	// The check finds what it is for: a direct call, one through a helper and one through a
	// function value (the shape of the old pythonJudge), and none inside a command.
	got := backendCallsFromUpdate(typeCheck(t, filepath.Join("testdata", "rules")))
	want := []string{"calls App.Probe", "helper calls App.Channels", "func literal at"}
	joined := strings.Join(got, "\n")
	if len(got) != 3 {
		t.Errorf("want 3 findings in testdata/rules, got %d:\n%s", len(got), joined)
	}
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("the check misses %q:\n%s", w, joined)
		}
	}
}
