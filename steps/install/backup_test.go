package install

import (
	"encoding/json"
	"gpuwiz/steps/envroot"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// The Go backup (dist-info RECORDs read directly) keeps exactly the files importlib.metadata
// (backup.py) keeps, for dists with a top-level package, a file under bin/ (a "../../bin" RECORD
// path) and a name that needs normalising; each kept file is a hard link to the installed one.
func TestGoBackupMatchesImportlibMetadata(t *testing.T) {
	v := pyindex.NewVenv(t, "")
	dir := t.TempDir()
	var wheels []string
	for _, w := range []struct {
		dist, version string
		files         map[string]string
	}{
		{"torch", "2.6.0+cu126", withScript(pyindex.TorchStub(torchSpec("+cu126", "12.6")), "torch-2.6.0+cu126.data/scripts/torchrun")},
		{"TorchVision", "0.21.0", map[string]string{"torchvision/__init__.py": "x = 1\n", "torchvision/io/__init__.py": ""}},
		{"other", "1.0", map[string]string{"other.py": ""}},
	} {
		p, err := pyindex.BuildWheel(dir, w.dist, w.version, w.files, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		wheels = append(wheels, p)
	}
	argv := append([]string{v.Python(), "-m", "pip", "install", "--no-index", "--no-deps"}, wheels...)
	if res := runner.New(nil).Run(t.Context(), runner.Cmd{Argv: argv, Env: pyindex.PipEnv(t)}, nil); res.Err != nil {
		t.Fatalf("pip install: %v %q", res.Err, res.Tail)
	}
	names := []string{"torch", "torchvision", "torchaudio"} // torchaudio is not installed: no entry

	sites := venvSiteDirs(v.Root)
	if len(sites) != 1 {
		t.Fatalf("site-packages of %s: %q", v.Root, sites)
	}
	goDir := filepath.Join(t.TempDir(), "files")
	m, n, ok, err := backupDistInfo(sites, names, goDir, envroot.New(v.Root))
	if err != nil || !ok {
		t.Fatalf("Go backup: ok %v, %v", ok, err)
	}

	pyDir := t.TempDir()
	js, _ := json.Marshal(names)
	mp := filepath.Join(pyDir, "manifest.json")
	if res := runner.New(nil).Run(t.Context(), runner.Cmd{Argv: []string{v.Python(), "-c", backupScript, mp, pyDir, string(js)}}, nil); res.Err != nil {
		t.Fatalf("backup.py: %v %q", res.Err, res.Tail)
	}
	b, _ := os.ReadFile(mp)
	var want manifest
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	filesOf := func(m manifest) map[string][]string {
		out := map[string][]string{}
		for _, d := range m.Dists {
			for _, f := range d.Files {
				out[d.Name+" "+d.Version] = append(out[d.Name+" "+d.Version], f[0])
			}
			slices.Sort(out[d.Name+" "+d.Version])
		}
		return out
	}
	got, exp := filesOf(*m), filesOf(want)
	if len(got) != 2 || len(exp) != 2 {
		t.Fatalf("dists: Go %v, importlib %v", keys(got), keys(exp))
	}
	for k, files := range exp {
		if !slices.Equal(got[k], files) {
			t.Errorf("%s:\nGo       %q\nimportlib %q", k, got[k], files)
		}
	}
	if n != len(got["torch 2.6.0+cu126"])+len(got["TorchVision 0.21.0"]) {
		t.Errorf("counted %d files", n)
	}
	if !slices.Contains(got["torch 2.6.0+cu126"], filepath.Join(v.BinDir(), "torchrun")) {
		t.Errorf("the script in bin/ is not kept: %q", got["torch 2.6.0+cu126"])
	}
	for _, d := range m.Dists {
		for _, f := range d.Files {
			a, _ := os.Stat(f[0])
			c, err := os.Stat(filepath.Join(goDir, f[1]))
			if err != nil || !os.SameFile(a, c) {
				t.Fatalf("%s is not kept as a hard link at %s: %v", f[0], f[1], err)
			}
		}
	}
	if m.Purelib != sites[0] {
		t.Errorf("purelib %q", m.Purelib)
	}
}

func keys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func withScript(files map[string]string, path string) map[string]string {
	files[path] = "#!python\nprint('torchrun')\n"
	return files
}
