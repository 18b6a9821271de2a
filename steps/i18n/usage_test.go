package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The product's Go files: every non-test file of the module except test kits (packages that import
// "testing") and testdata. Text a user reads in them must come from the catalog.
type sourceFile struct {
	path string // relative to the repository, with slashes
	fset *token.FileSet
	file *ast.File
	raw  map[int]string // line → the reason of an //i18n:raw marker that covers it
}

func productFiles(t *testing.T) []sourceFile {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var out []sourceFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || strings.HasPrefix(name, ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if im.Path.Value == `"testing"` {
				return nil
			}
		}
		out = append(out, sourceFile{path: rel, fset: fset, file: f, raw: rawLines(fset, f)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var rawMarker = regexp.MustCompile(`^//\s*i18n:raw\b\s*(.*)$`)

// rawLines: an "//i18n:raw why" comment marks text that is not for reading (argv, a regexp, a
// Python snippet, a log for support) as outside the catalog. At the end of a line it covers that
// line; on a line of its own it covers the statement or declaration that starts on the next line,
// to its end. The reason is required.
func rawLines(fset *token.FileSet, f *ast.File) map[int]string {
	out := map[int]string{}
	starts := map[int]int{} // line a comment-alone marker points at → its reason's line
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			m := rawMarker.FindStringSubmatch(c.Text)
			if m == nil {
				continue
			}
			why := strings.TrimSpace(m[1])
			if why == "" {
				why = "!"
			}
			line := fset.Position(c.Pos()).Line
			out[line] = why
			starts[line+1] = line
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case ast.Stmt, ast.Decl, ast.Spec, *ast.KeyValueExpr, *ast.CaseClause:
		default:
			return true
		}
		from := fset.Position(n.Pos()).Line
		if at, ok := starts[from]; ok {
			to := fset.Position(n.End()).Line
			for l := from; l <= to; l++ {
				if _, set := out[l]; !set {
					out[l] = out[at]
				}
			}
		}
		return true
	})
	return out
}

// A call into the catalog: i18n.T("id", D{...}), i18n.N("id", n, D{...}), In, NIn.
type catalogCall struct {
	pos  string
	id   string
	fn   string
	keys []string // the D literal's keys, nil when data is not a literal
	lit  bool     // data given as a D literal
}

func catalogFunc(call *ast.CallExpr, inPackage bool) (string, bool) {
	if id, ok := call.Fun.(*ast.Ident); ok && inPackage {
		switch id.Name {
		case "T", "N", "In", "NIn":
			return id.Name, true
		}
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || pkg.Name != "i18n" {
		return "", false
	}
	switch sel.Sel.Name {
	case "T", "N", "In", "NIn":
		return sel.Sel.Name, true
	}
	return "", false
}

func idArg(fn string, call *ast.CallExpr) (ast.Expr, []ast.Expr) {
	i := 0
	if fn == "In" || fn == "NIn" {
		i = 1
	}
	if len(call.Args) <= i {
		return nil, nil
	}
	rest := call.Args[i+1:]
	if fn == "N" || fn == "NIn" {
		if len(rest) > 0 {
			rest = rest[1:]
		}
	}
	return call.Args[i], rest
}

// prose is text written for a person: two words of letters side by side ("No NVIDIA driver",
// "needs driver"), or one word with a sentence's punctuation ("Done.", "Cancelled!").
var prose = regexp.MustCompile(`\p{L}{2,}[ \t]+\(?\p{L}{2,}|^\p{Lu}\p{Ll}+[.!?…]$|\p{Han}`)

// allowedCalls take text that is matched against or handed to another program, never shown.
var allowedCalls = map[string]bool{
	"regexp.MustCompile": true, "regexp.Compile": true, "exec.Command": true, "exec.CommandContext": true,
	"strings.Contains": true, "strings.HasPrefix": true, "strings.HasSuffix": true, "strings.Index": true,
	"strings.LastIndex": true, "strings.EqualFold": true, "strings.TrimPrefix": true, "strings.TrimSuffix": true,
	"strings.Cut": true, "strings.Split": true, "strings.Count": true, "strings.ContainsAny": true,
	"bytes.Contains": true, "bytes.HasPrefix": true, "bytes.Index": true, "strings.NewReplacer": true,
	"os.Getenv": true, "os.LookupEnv": true, "filepath.Join": true, "path.Join": true,
}

type literal struct {
	pos, text string
}

func scan(sf sourceFile, calls *[]catalogCall, bad *[]string, stray *[]literal) {
	skip := map[*ast.BasicLit]bool{}
	for _, im := range sf.file.Imports {
		skip[im.Path] = true
	}
	ast.Inspect(sf.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if n.Tag != nil {
				skip[n.Tag] = true
			}
		case *ast.CallExpr:
			if fn, ok := catalogFunc(n, sf.file.Name.Name == "i18n"); ok {
				id, rest := idArg(fn, n)
				pos := sf.fset.Position(n.Pos())
				where := fmt.Sprintf("%s:%d", sf.path, pos.Line)
				lit, ok := id.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					if sf.file.Name.Name == "i18n" {
						return true // the catalog's own T, N and In pass their caller's id on
					}
					*bad = append(*bad, where+": the message id must be a string literal, so the catalog tests can see it")
					return true
				}
				skip[lit] = true
				s, _ := strconv.Unquote(lit.Value)
				c := catalogCall{pos: where, id: s, fn: fn}
				if len(rest) == 1 {
					if cl, ok := rest[0].(*ast.CompositeLit); ok {
						c.lit = true
						for _, e := range cl.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok {
								if k, ok := kv.Key.(*ast.BasicLit); ok {
									ks, _ := strconv.Unquote(k.Value)
									c.keys = append(c.keys, ks)
									skip[k] = true
								}
							}
						}
					}
				}
				*calls = append(*calls, c)
				return true
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				// A key's help ("back", "quit") is one word, which prose does not catch: any literal there counts.
				if x, ok := sel.X.(*ast.Ident); ok && (x.Name+"."+sel.Sel.Name == "key.WithHelp" || sel.Sel.Name == "SetHelp") && len(n.Args) == 2 {
					if b, ok := n.Args[1].(*ast.BasicLit); ok && b.Kind == token.STRING && b.Value != `""` {
						line := sf.fset.Position(b.Pos()).Line
						if _, ok := sf.raw[line]; !ok {
							s, _ := strconv.Unquote(b.Value)
							*stray = append(*stray, literal{fmt.Sprintf("%s:%d", sf.path, line), s})
						}
						skip[b] = true
					}
				}
				if x, ok := sel.X.(*ast.Ident); ok && allowedCalls[x.Name+"."+sel.Sel.Name] {
					ast.Inspect(n, func(m ast.Node) bool {
						if b, ok := m.(*ast.BasicLit); ok {
							skip[b] = true
						}
						return true
					})
				}
			}
		}
		return true
	})
	ast.Inspect(sf.file, func(n ast.Node) bool {
		b, ok := n.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING || skip[b] {
			return true
		}
		line := sf.fset.Position(b.Pos()).Line
		if _, ok := sf.raw[line]; ok {
			return true
		}
		s, err := strconv.Unquote(b.Value)
		if err != nil || !prose.MatchString(s) {
			return true
		}
		*stray = append(*stray, literal{fmt.Sprintf("%s:%d", sf.path, line), s})
		return true
	})
}

func englishCatalog(t *testing.T) map[string]Message {
	t.Helper()
	msgs, err := Catalog(English)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Message{}
	for _, m := range msgs {
		out[m.ID] = m
	}
	return out
}

// TestNoTextOutsideTheCatalog: a string literal in the product that reads as words for a person is
// an error unless it is a message id, a struct tag, text handed to another program or matched against
// its output (allowedCalls), or marked "//i18n:raw why". Each hit names the file and line.
func TestNoTextOutsideTheCatalog(t *testing.T) {
	var calls []catalogCall
	var bad []string
	var stray []literal
	only := os.Getenv("I18N_ONLY") // a path prefix, to see one package's hits while converting it
	for _, sf := range productFiles(t) {
		if strings.HasPrefix(sf.path, only) {
			scan(sf, &calls, &bad, &stray)
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
	byFile := map[string]int{}
	for _, s := range stray {
		byFile[strings.SplitN(s.pos, ":", 2)[0]]++
	}
	if len(stray) > 0 {
		var files []string
		for f, n := range byFile {
			files = append(files, fmt.Sprintf("%4d %s", n, f))
		}
		sort.Strings(files)
		limit := stray
		if v, _ := strconv.Atoi(os.Getenv("I18N_SHOW")); v > 0 && v < len(limit) {
			limit = limit[:v]
		}
		var b strings.Builder
		for _, s := range limit {
			fmt.Fprintf(&b, "\n  %s: %q", s.pos, s.text)
		}
		t.Errorf("%d string literals read as text for a person but do not come from the catalog (use i18n.T, or mark text that is not for reading with //i18n:raw and why):%s\nper file:\n%s", len(stray), b.String(), strings.Join(files, "\n"))
	}
}

// TestCatalogCallsMatchTheCatalog: every id the code asks for exists, a D literal fills exactly the
// message's placeholders (N fills Count itself), and every message in the catalog is used.
func TestCatalogCallsMatchTheCatalog(t *testing.T) {
	cat := englishCatalog(t)
	var calls []catalogCall
	var bad []string
	var stray []literal
	for _, sf := range productFiles(t) {
		scan(sf, &calls, &bad, &stray)
	}
	used := map[string]bool{}
	for _, c := range calls {
		used[c.id] = true
		m, ok := cat[c.id]
		if !ok {
			t.Errorf("%s: no message %q in the catalog", c.pos, c.id)
			continue
		}
		want := map[string]bool{}
		for _, p := range placeholdersOf(m) {
			if !strings.HasPrefix(p, "{{") {
				want[p] = true
			}
		}
		counted := c.fn == "N" || c.fn == "NIn"
		if counted {
			delete(want, "Count")
		}
		if m.Forms["one"] != "" && !counted {
			t.Errorf("%s: %q has plural forms: call i18n.N with the count", c.pos, c.id)
		}
		if !c.lit {
			if len(want) > 0 && len(c.keys) == 0 && c.keys == nil && !hasDataArg(c) {
				t.Errorf("%s: %q needs %v and gets no data", c.pos, c.id, keys(want))
			}
			continue
		}
		got := map[string]bool{}
		for _, k := range c.keys {
			got[k] = true
			if !want[k] && !(counted && k == "Count") {
				t.Errorf("%s: %q has no placeholder {{.%s}}", c.pos, c.id, k)
			}
		}
		for k := range want {
			if !got[k] {
				t.Errorf("%s: %q needs {{.%s}} and the call does not give it", c.pos, c.id, k)
			}
		}
	}
	for id := range cat {
		if !used[id] {
			t.Errorf("%q is in the catalog but no code uses it", id)
		}
	}
}

func hasDataArg(c catalogCall) bool { return c.keys != nil }

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
