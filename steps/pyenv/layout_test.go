package pyenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Each kind is told apart by its files, and the interpreter's path names its environment.
func TestDetectLayoutTellsTheKindsApart(t *testing.T) {
	dir := t.TempDir()
	uv := filepath.Join(dir, "uv")
	writeFile(t, filepath.Join(uv, "pyvenv.cfg"), "home = /usr/bin\nimplementation = CPython\nuv = 0.5.11\nversion_info = 3.12.8\n")
	writeFile(t, filepath.Join(uv, "bin", "python"), "")
	conda := filepath.Join(dir, "conda")
	writeFile(t, filepath.Join(conda, "conda-meta", "history"), "")
	writeFile(t, filepath.Join(conda, "bin", "python"), "")
	emb := filepath.Join(dir, "python_embeded")
	writeFile(t, filepath.Join(emb, "python3.11"), "")
	writeFile(t, filepath.Join(emb, "python311._pth"), "python311.zip\n.\n\n# Uncomment to run site.main() automatically\n#import site\n")
	prefix := filepath.Join(dir, "prefix")
	writeFile(t, filepath.Join(prefix, "bin", "python3"), "")
	writeFile(t, filepath.Join(prefix, "lib", "python3.11", "os.py"), "")
	notPython := filepath.Join(dir, "stuff")
	writeFile(t, filepath.Join(notPython, "python"), "") // an interpreter-named file, no standard library
	cases := []struct {
		root, kind, python string
	}{
		{uv, EnvVenv, filepath.Join(uv, "bin", "python")},
		{conda, EnvConda, filepath.Join(conda, "bin", "python")},
		{emb, EnvEmbedded, filepath.Join(emb, "python3.11")},
		{prefix, EnvPrefix, filepath.Join(prefix, "bin", "python3")},
		{notPython, "", ""},
		{dir, "", ""},
	}
	for _, c := range cases {
		l := DetectLayout(OSFiles{}, c.root, "linux")
		if l.Kind != c.kind || l.Python != c.python {
			t.Errorf("%s: %+v, want %s %s", c.root, l, c.kind, c.python)
		}
		if got := (Venv{Root: c.root}).Exists(); got != (c.kind != "") {
			t.Errorf("%s: Exists %v", c.root, got)
		}
		if c.python != "" {
			if got := EnvRootOf(OSFiles{}, c.python, "linux"); got != c.root {
				t.Errorf("EnvRootOf(%s) = %s, want %s", c.python, got, c.root)
			}
		}
	}
	if l := DetectLayout(OSFiles{}, uv, "linux"); l.UV != "0.5.11" || KindWords(l) != "venv made by uv" {
		t.Errorf("uv venv: %+v %q", l, KindWords(l))
	}
	l := DetectLayout(OSFiles{}, emb, "linux")
	if l.Pth != filepath.Join(emb, "python311._pth") || l.PthSite {
		t.Errorf("embedded ._pth: %+v", l)
	}
	if err := FixPth(l); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(l.Pth)
	if string(b) != "python311.zip\n.\n\n# Uncomment to run site.main() automatically\nimport site\n" {
		t.Errorf("after FixPth:\n%s", b)
	}
	if !DetectLayout(OSFiles{}, emb, "linux").PthSite {
		t.Error("import site not seen after FixPth")
	}
}

func TestWithImportSiteAddsTheLineOnce(t *testing.T) {
	for in, want := range map[string]string{
		"python311.zip\r\n.\r\n":              "python311.zip\r\n.\r\nimport site\r\n",
		"python311.zip\n.":                    "python311.zip\n.\nimport site\n",
		"a\n# import site\n":                  "a\nimport site\n",
		"a\nimport site\n":                    "a\nimport site\n",
		"a\nimport os, site\n":                "a\nimport os, site\n",
		"a\n#import sitecustomize_thing\nb\n": "a\n#import sitecustomize_thing\nb\nimport site\n",
	} {
		if got := WithImportSite(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
		if !PthImportsSite(WithImportSite(in)) {
			t.Errorf("%q: no import site after", in)
		}
	}
	if PthImportsSite("#import site\n") || strings.Contains(WithImportSite(""), "#") {
		t.Error("a commented line imports nothing")
	}
}

func TestEnvRootOfLeavesAnyOtherFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "notes.txt")
	writeFile(t, f, "")
	if got := EnvRootOf(OSFiles{}, f, "linux"); got != f {
		t.Errorf("a plain file: %s", got)
	}
}
