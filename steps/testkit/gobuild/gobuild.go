// Package gobuild is the test kit that builds gpuwiz (or another program of this module) the way a
// user's copy is built, for the tests that run the real binary: in tmux, under Wine, with a stamped
// version. Tests only: the product never imports it.
package gobuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Options say what to build and how.
type Options struct {
	Package string   // relative to the module root: "." (gpuwiz, the default), "./testdata/pystandin"; or a .go file when Dir is set
	Dir     string   // where go build runs; the module root when ""
	Out     string   // the binary's path; a file in a new temp dir when ""
	Env     []string // added to this process's environment: "GOOS=windows", "CGO_ENABLED=0"
	Flags   []string // before the package: "-ldflags", "-X main.version=1.2.3"
}

// ModuleRoot is the directory of gpuwiz's go.mod, found from the test's working directory.
var ModuleRoot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside gpuwiz's module")
	}
	return filepath.Dir(mod), nil
})

// Build builds o and returns the binary's path; a failure fails the test with go's output.
func Build(t testing.TB, o Options) string {
	t.Helper()
	if o.Out == "" {
		o.Out = filepath.Join(t.TempDir(), defaultName(o))
	}
	if err := BuildErr(o); err != nil {
		t.Fatal(err)
	}
	return o.Out
}

// BuildErr is Build for set-up outside a test (a TestMain, a shared fixture); o.Out must be set.
func BuildErr(o Options) error {
	if o.Out == "" {
		return fmt.Errorf("gobuild: no Out")
	}
	if o.Package == "" {
		o.Package = "."
	}
	if o.Dir == "" {
		root, err := ModuleRoot()
		if err != nil {
			return err
		}
		o.Dir = root
	}
	cmd := exec.Command("go", append(append([]string{"build", "-o", o.Out}, o.Flags...), o.Package)...)
	cmd.Dir = o.Dir
	cmd.Env = append(os.Environ(), o.Env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s go build %s: %v\n%s", strings.Join(o.Env, " "), o.Package, err, b)
	}
	return nil
}

func defaultName(o Options) string {
	name := "gpuwiz"
	if o.Package != "" && o.Package != "." {
		name = strings.TrimSuffix(filepath.Base(o.Package), ".go")
	}
	for _, kv := range o.Env {
		if kv == "GOOS=windows" {
			return name + ".exe"
		}
	}
	return name
}
