// Command pystandin stands in, under Wine, for the Windows py launcher and for python.exe, which this
// machine lacks. Built as py.exe it prints what `py -0p` prints for the pythons listed in
// pystandin.json beside it; built (or copied) as python.exe it answers the one-line JSON calls that
// gpuwiz's Describe and Inspect make (`python -I -c SCRIPT`) with the version and bitness given there.
// With "alias": true, python.exe behaves like the Microsoft Store's App Execution Alias (a message
// and exit code 9009). Copied as winget.exe or as python-3.X.Y-amd64.exe (the python.org
// installer) it "installs" itself as a python.exe for this user, as the real ones do (see install.go).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config is pystandin.json, read from the stand-in's own folder.
type Config struct {
	// py.exe: "new" prints the 3.12+ launcher's " -V:3.12 *  PATH" lines, "old" the " -3.11-64  PATH *" ones.
	Format  string     `json:"format"`
	Pythons []Launched `json:"pythons"`
	// python.exe
	Version string `json:"version"` // "3.12.4"
	Bits    int    `json:"bits"`
	Alias   bool   `json:"alias"` // the Microsoft Store alias: not a Python
	// Dists are the distributions Inspect reports as installed ({"name": "torch", "version":
	// "2.11.0+cu128"}); none are really there, and nothing imports them.
	Dists []map[string]string `json:"dists"`
}

// Launched is one interpreter the launcher lists.
type Launched struct {
	Tag     string `json:"tag"` // "3.12" (new format) or "3.12-64" (old)
	Path    string `json:"path"`
	Default bool   `json:"default"`
}

func main() {
	self, err := os.Executable()
	if err != nil {
		fail(3, "cannot find myself: %v", err)
	}
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(self)), ".exe")
	if name == "winget" || strings.HasPrefix(name, "python-") {
		os.Exit(installer(self, name, os.Args[1:]))
	}
	cfg, err := readConfig(filepath.Join(filepath.Dir(self), "pystandin.json"))
	if err != nil {
		fail(3, "%v", err)
	}
	if name == "py" {
		os.Exit(launcher(cfg, os.Args[1:]))
	}
	os.Exit(python(cfg, self, os.Args[1:]))
}

func readConfig(path string) (Config, error) {
	var c Config
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("no config beside the stand-in: %v", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

func launcher(cfg Config, args []string) int {
	if len(args) != 1 || (args[0] != "-0p" && args[0] != "--list-paths") {
		fmt.Fprintln(os.Stderr, "pystandin (py.exe): only -0p is answered")
		return 1
	}
	if len(cfg.Pythons) == 0 {
		fmt.Println("No installed Pythons found!")
		return 0
	}
	if cfg.Format == "old" {
		fmt.Print("Installed Pythons found by py Launcher for Windows\r\n")
	}
	for _, p := range cfg.Pythons {
		star := ""
		if p.Default {
			star = "*"
		}
		if cfg.Format == "old" {
			fmt.Printf(" -%-12s %s %s\r\n", p.Tag, p.Path, star)
		} else {
			fmt.Printf(" -V:%-8s %-2s %s\r\n", p.Tag, star, p.Path)
		}
	}
	return 0
}

// python answers `-I -c SCRIPT` with one JSON line holding both Describe's and Inspect's fields:
// an empty python.org install with no distributions.
func python(cfg Config, self string, args []string) int {
	if cfg.Alias {
		// What the real alias prints when no Store Python is installed (exit code 9009, like cmd's "not found").
		fmt.Fprint(os.Stderr, "Python was not found; run without arguments to install from the Microsoft Store, or disable this shortcut from Settings > Apps > Advanced app settings > App execution aliases.\r\n")
		return 9009
	}
	if len(args) == 1 && args[0] == "--version" {
		fmt.Printf("Python %s\r\n", cfg.Version)
		return 0
	}
	if len(args) == 2 && args[0] == "-c" && strings.Contains(args[1], "does this interpreter's environment have pip") {
		// gpuwiz's pip probe: an embedded Python as the embeddable package ships it has neither pip
		// nor ensurepip.
		fmt.Print("{\"has_pip\": false, \"bundled\": []}\r\n")
		return 0
	}
	if len(args) != 3 || args[0] != "-I" || args[1] != "-c" {
		fmt.Fprintf(os.Stderr, "pystandin (python.exe): only -I -c SCRIPT is answered, not %q\n", args)
		return 9
	}
	prefix := filepath.Dir(self)
	dists := []any{}
	for _, d := range cfg.Dists {
		dists = append(dists, map[string]string{"name": d["name"], "version": d["version"], "location": filepath.Join(prefix, "Lib", "site-packages")})
	}
	site := filepath.Join(prefix, "Lib", "site-packages")
	doc := map[string]any{
		"version": cfg.Version, "bits": cfg.Bits, "executable": self, "prefix": prefix, "base_prefix": prefix,
		"conda": false, "site_packages": []string{site},
		"dists": dists, "leftovers": []string{}, "pip_version": "", "paddle_dir": false, "paddle_dir_owners": []string{},
		// The scheme CPython's Windows install reports, and whether site-packages is on sys.path: an
		// embedded Python's python3XX._pth beside it without an `import site` line leaves it off.
		"purelib": site, "platlib": site, "scripts": filepath.Join(prefix, "Scripts"),
		"site_on_path": siteOnPath(prefix), "externally_managed": false,
	}
	line, _ := json.Marshal(doc)
	fmt.Printf("%s\r\n", line)
	return 0
}

// siteOnPath is what CPython does with a ._pth file beside the interpreter: with one, sys.path is
// only its lines, and site-packages is added only by an uncommented `import site` line.
func siteOnPath(prefix string) bool {
	pths, _ := filepath.Glob(filepath.Join(prefix, "python3*._pth"))
	if len(pths) == 0 {
		return true
	}
	data, err := os.ReadFile(pths[0])
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "import site" {
			return true
		}
	}
	return false
}

func fail(code int, format string, a ...any) {
	fmt.Fprintf(os.Stderr, "pystandin: "+format+"\n", a...)
	os.Exit(code)
}
