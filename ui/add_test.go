package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gpuwiz/steps/userpath"
)

// What the project step's field takes: a pasted path (spaces, quotes, ~, relative), -r FILE, paths
// and package names mixed; a file that is not there is said before pip runs.
func TestParseAddInputReadsPathsAndPackages(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "my project")
	os.MkdirAll(cwd, 0o755)
	req := filepath.Join(cwd, "requirements.txt")
	dev := filepath.Join(cwd, "dev.txt")
	os.WriteFile(req, []byte("projx\n"), 0o644)
	os.WriteFile(dev, []byte("pytest\n"), 0o644)
	env := userpath.Env{GOOS: "linux", Home: home, Cwd: cwd, Getenv: os.Getenv}
	for _, c := range []struct {
		in        string
		files     []string
		pkgs      []string
		errSubstr string
	}{
		{in: req, files: []string{req}},
		{in: `"` + req + `"`, files: []string{req}},
		{in: "~/my project/requirements.txt", files: []string{req}},
		{in: "requirements.txt", files: []string{req}},
		{in: "-r dev.txt ultralytics opencv-python<5", files: []string{dev}, pkgs: []string{"ultralytics", "opencv-python<5"}},
		{in: "ultralytics", pkgs: []string{"ultralytics"}},
		{in: "nope.txt", errSubstr: "nope.txt does not exist"},
		{in: "projx -r", errSubstr: "-r needs a file"},
	} {
		got, err := parseAddInput(c.in, env)
		if c.errSubstr != "" {
			if err == nil || !strings.Contains(err.Error(), c.errSubstr) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.errSubstr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.Requirements, c.files) || !reflect.DeepEqual(got.Packages, c.pkgs) {
			t.Errorf("%q: %+v %v, want files %v packages %v", c.in, got, err, c.files, c.pkgs)
		}
	}
}
