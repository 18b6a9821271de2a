package pyenv

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
)

// Kinds of Python environment gpuwiz installs into, told apart by their files (Layout).
const (
	EnvVenv     = "venv"     // pyvenv.cfg (python -m venv, virtualenv, uv venv)
	EnvConda    = "conda"    // conda-meta/ and its own interpreter
	EnvEmbedded = "embedded" // an interpreter beside a python*._pth file (the Windows embeddable package)
	EnvPrefix   = "prefix"   // a Python's own prefix: an interpreter and its standard library, nothing else
)

// FileReader is what telling a layout apart reads: the real file system (OSFiles) or doctor's.
type FileReader interface {
	ReadDir(path string) ([]fs.DirEntry, error)
	ReadFile(path string) ([]byte, error)
	Stat(path string) (fs.FileInfo, error)
}

// OSFiles reads the real file system.
type OSFiles struct{}

func (OSFiles) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }
func (OSFiles) ReadFile(p string) ([]byte, error)       { return os.ReadFile(p) }
func (OSFiles) Stat(p string) (fs.FileInfo, error)      { return os.Stat(p) }

// Layout is what an environment's files say about it, before any interpreter runs.
type Layout struct {
	Kind   string `json:"kind"`             // EnvVenv, EnvConda, EnvEmbedded, EnvPrefix; "" when root holds no environment
	Root   string `json:"root"`             // the environment's prefix
	Python string `json:"python,omitempty"` // its interpreter
	// UV is the uv version pyvenv.cfg names (uv = 0.5.1): a venv made by uv, which does not read
	// pip's configuration. "" for anything else.
	UV string `json:"uv,omitempty"`
	// Pth is the ._pth file beside the interpreter (an embedded Python's); PthSite says whether it
	// holds `import site`, without which site-packages is not on sys.path.
	Pth     string `json:"pth,omitempty"`
	PthSite bool   `json:"pth_site,omitempty"`
}

// Layout tells v's kind from its files (the real file system).
func (v Venv) Layout() Layout { return DetectLayout(OSFiles{}, v.Root, v.goos()) }

// DetectLayout tells the kind of the environment at root from its files: pyvenv.cfg makes a venv,
// conda-meta/ a conda env, an interpreter beside a python*._pth an embedded Python, and an
// interpreter with its standard library (a Python's own prefix) a plain prefix.
func DetectLayout(fsys FileReader, root, goos string) Layout {
	v := Venv{Root: root, GOOS: goos}
	l := Layout{Root: root}
	if st, err := fsys.Stat(v.Config()); err == nil && st.Mode().IsRegular() {
		l.Kind, l.Python = EnvVenv, v.venvPython()
		if b, err := fsys.ReadFile(v.Config()); err == nil {
			l.UV = cfgValue(string(b), "uv")
		}
		return l
	}
	if st, err := fsys.Stat(v.CondaMeta()); err == nil && st.IsDir() {
		l.Kind, l.Python = EnvConda, v.CondaPython()
		return l
	}
	for _, dir := range v.interpreterDirs() {
		py := findInterpreter(fsys, dir, goos)
		if py == "" {
			continue
		}
		l.Python = py
		if pth := findPth(fsys, dir, py, goos); pth != "" {
			l.Kind, l.Pth = EnvEmbedded, pth
			if b, err := fsys.ReadFile(pth); err == nil {
				l.PthSite = PthImportsSite(string(b))
			}
			return l
		}
		if hasStdlib(fsys, v) {
			l.Kind = EnvPrefix
			return l
		}
	}
	return Layout{Root: root}
}

// hasStdlib reports a Python's own standard library under root (Lib\os.py or a python3XX.zip on
// Windows, lib/python3.X/os.py elsewhere): what makes a folder with an interpreter a prefix.
func hasStdlib(fsys FileReader, v Venv) bool {
	if v.goos() == "windows" {
		if isFile(fsys, v.join("Lib", "os.py")) {
			return true
		}
		entries, _ := fsys.ReadDir(v.Root)
		for _, e := range entries {
			n := strings.ToLower(e.Name())
			if strings.HasPrefix(n, "python3") && strings.HasSuffix(n, ".zip") {
				return true
			}
		}
		return false
	}
	entries, _ := fsys.ReadDir(v.join("lib"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "python3") && isFile(fsys, v.join("lib", e.Name(), "os.py")) {
			return true
		}
	}
	return false
}

// interpreterDirs are where a prefix keeps its interpreter: the root on Windows (python.exe beside
// the standard library), bin/ elsewhere, and the root too (an embedded-style folder).
func (v Venv) interpreterDirs() []string {
	if v.goos() == "windows" {
		return []string{v.Root}
	}
	return []string{v.join("bin"), v.Root}
}

// findInterpreter is the Python in dir: python.exe on Windows; elsewhere python3, python, or a
// versioned python3.X.
func findInterpreter(fsys FileReader, dir, goos string) string {
	join := func(name string) string {
		if goos == "windows" {
			return strings.TrimRight(dir, `\/`) + `\` + name
		}
		return filepath.Join(dir, name)
	}
	if goos == "windows" {
		if isFile(fsys, join("python.exe")) {
			return join("python.exe")
		}
		return ""
	}
	for _, name := range []string{"python3", "python"} {
		if isFile(fsys, join(name)) {
			return join(name)
		}
	}
	entries, _ := fsys.ReadDir(dir)
	var versioned []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "python3.") && !strings.ContainsAny(strings.TrimPrefix(n, "python3."), "-_.") && isFile(fsys, join(n)) {
			versioned = append(versioned, n)
		}
	}
	if len(versioned) == 1 {
		return join(versioned[0])
	}
	return ""
}

// findPth is the ._pth file that sets the interpreter's sys.path: python3XX._pth (Windows'
// embeddable package), the executable's own name with ._pth, or python._pth, in the
// interpreter's folder.
func findPth(fsys FileReader, dir, python, goos string) string {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return ""
	}
	exe := path.Base(strings.ReplaceAll(python, `\`, "/"))
	exe = strings.TrimSuffix(strings.ToLower(exe), ".exe")
	var names []string
	for _, e := range entries {
		n := strings.ToLower(e.Name())
		if strings.HasSuffix(n, "._pth") && strings.HasPrefix(n, "python") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.SortFunc(names, func(a, b string) int { // the executable's own name first
		ma, mb := strings.EqualFold(strings.TrimSuffix(a, "._pth"), exe), strings.EqualFold(strings.TrimSuffix(b, "._pth"), exe)
		switch {
		case ma && !mb:
			return -1
		case mb && !ma:
			return 1
		}
		return strings.Compare(a, b)
	})
	if goos == "windows" {
		return strings.TrimRight(dir, `\/`) + `\` + names[0]
	}
	return filepath.Join(dir, names[0])
}

func isFile(fsys FileReader, p string) bool {
	st, err := fsys.Stat(p)
	return err == nil && !st.IsDir()
}

// cfgValue is key's value in a pyvenv.cfg ("key = value" lines), "" when absent.
func cfgValue(cfg, key string) string {
	for _, line := range strings.Split(cfg, "\n") {
		k, val, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(val)
		}
	}
	return ""
}

// PthImportsSite reports whether a ._pth file's lines hold `import site` (a line starting with
// "import " is run; a commented one, "#import site" in the embeddable package, is not).
func PthImportsSite(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) >= 2 && f[0] == "import" && slices.Contains(strings.Split(strings.Join(f[1:], ""), ","), "site") {
			return true
		}
	}
	return false
}

// WithImportSite is a ._pth file's text with `import site` in effect: the embeddable package's
// commented "#import site" uncommented, else the line added at the end. The other lines are kept
// as they are.
func WithImportSite(text string) string {
	if PthImportsSite(text) {
		return text
	}
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if strings.HasPrefix(t, "#") && strings.TrimSpace(strings.TrimPrefix(t, "#")) == importSite {
			lines[i] = strings.Replace(line, t, importSite, 1)
			return strings.Join(lines, "\n")
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += nl
	}
	return text + importSite + nl
}

// importSite is the ._pth line that runs site.main(), which puts site-packages on sys.path.
const importSite = "import site" //i18n:raw a line of a Python path file

// EnvRootOf is the environment a path names: the folder itself, or, for an interpreter, the
// environment it belongs to (a venv's or prefix's bin/ or Scripts\ goes up one; an embedded
// Python's or a Windows conda env's folder is its own). Any other file is returned as it is.
func EnvRootOf(fsys FileReader, p, goos string) string {
	st, err := fsys.Stat(p)
	if err != nil || st.IsDir() {
		return p
	}
	dir := filepath.Dir(p)
	if goos == "windows" {
		dir = p[:max(strings.LastIndexAny(p, `\/`), 0)]
	}
	if l := DetectLayout(fsys, dir, goos); l.Kind == EnvConda || l.Kind == EnvVenv || l.Kind == EnvEmbedded {
		return dir
	}
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(dir, `\`, "/")))
	if base == "bin" || base == "scripts" {
		parent := filepath.Dir(dir)
		if goos == "windows" {
			parent = dir[:max(strings.LastIndexAny(dir, `\/`), 0)]
		}
		if DetectLayout(fsys, parent, goos).Kind != "" {
			return parent
		}
	}
	if DetectLayout(fsys, dir, goos).Kind != "" {
		return dir
	}
	return p // a file that is no environment's interpreter: the caller says so
}

// FixPth makes an embedded Python's ._pth import site (WithImportSite), so that its site-packages
// is on sys.path. It writes only the layout's own ._pth, which must lie inside the environment, and
// only when the line is missing.
func FixPth(l Layout) error {
	if l.Pth == "" || l.PthSite {
		return nil
	}
	if !envroot.New(l.Root).Inside(l.Pth) {
		return errors.New(i18n.T("pyenv.pth.outside", i18n.D{"File": l.Pth, "Root": l.Root}))
	}
	st, err := os.Stat(l.Pth)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(l.Pth)
	if err != nil {
		return err
	}
	return atomicfile.Write(l.Pth, []byte(WithImportSite(string(b))), st.Mode().Perm())
}
