package pyenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/runner"
)

// fakeDist writes a dist-info as pip would, with RECORD listing files.
func fakeDist(t *testing.T, site, name, version string, files ...string) {
	t.Helper()
	info := filepath.Join(site, name+"-"+version+".dist-info")
	os.MkdirAll(info, 0o755)
	os.WriteFile(filepath.Join(info, "METADATA"), []byte("Metadata-Version: 2.1\nName: "+name+"\nVersion: "+version+"\n"), 0o644)
	record := ""
	for _, f := range files {
		os.MkdirAll(filepath.Join(site, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(site, f), []byte("# stub\n"), 0o644)
		record += f + ",,\n"
	}
	os.WriteFile(filepath.Join(info, "RECORD"), []byte(record), 0o644)
}

func venvWithSite(t *testing.T) (Venv, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "venv")
	// without pip: three times faster, and inspection must not need pip
	if res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: []string{realPython(t), "-m", "venv", "--without-pip", root}}, nil); res.Err != nil {
		t.Fatal(res.Err)
	}
	v := Venv{Root: root}
	in, err := Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.SitePackages) == 0 {
		t.Fatal("no site-packages")
	}
	return v, in.SitePackages[0]
}

func TestInspectTorchFamilyAndLeftovers(t *testing.T) {
	v, site := venvWithSite(t)
	fakeDist(t, site, "torch", "2.6.0+cu126", "torch/__init__.py")
	fakeDist(t, site, "torchvision", "0.21.0+cu126", "torchvision/__init__.py")
	os.MkdirAll(filepath.Join(site, "~orch"), 0o755) // an interrupted uninstall's rename
	// a torch that fails to import must not break inspection
	os.WriteFile(filepath.Join(site, "torch", "__init__.py"), []byte("raise OSError('[WinError 126] fbgemm.dll')\n"), 0o644)

	in, err := Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.TorchFamily) != 2 || in.TorchFamily[0].Name != "torch" || in.TorchFamily[0].LocalLabel != "+cu126" || in.TorchFamily[0].Version != "2.6.0+cu126" {
		t.Fatalf("torch family %+v", in.TorchFamily)
	}
	if len(in.Leftovers) != 1 || filepath.Base(in.Leftovers[0]) != "~orch" {
		t.Fatalf("leftovers %q", in.Leftovers)
	}
	if in.PipVersion != "" || in.Python.Kind != "venv" || in.Python.Bits != 64 {
		t.Fatalf("pip %q python %+v", in.PipVersion, in.Python)
	}
	if _, ok := in.Dist("TorchVision"); !ok {
		t.Fatal("Dist lookup by normalised name failed")
	}
}

func TestInspectBothPaddleDistsAndOrphanDir(t *testing.T) {
	v, site := venvWithSite(t)
	fakeDist(t, site, "paddlepaddle", "3.0.0", "paddle/__init__.py")
	fakeDist(t, site, "paddlepaddle_gpu", "3.0.0", "paddle/__init__.py", "paddle/base/core.py")
	in, err := Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.PaddleDists) != 2 || in.PaddleDirOrphan {
		t.Fatalf("both: %+v orphan %v", in.PaddleDists, in.PaddleDirOrphan)
	}
	// uninstalling both dists' metadata but not the files leaves paddle/ owned by nobody
	for _, d := range []string{"paddlepaddle-3.0.0.dist-info", "paddlepaddle_gpu-3.0.0.dist-info"} {
		os.RemoveAll(filepath.Join(site, d))
	}
	in, err = Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.PaddleDists) != 0 || !in.PaddleDirOrphan {
		t.Fatalf("orphan: %+v orphan %v", in.PaddleDists, in.PaddleDirOrphan)
	}
}

func TestLocalLabelAndNormalize(t *testing.T) {
	if pep.LocalLabel("2.6.0+cu126") != "+cu126" || pep.LocalLabel("3.0.0") != "" {
		t.Fatal("LocalLabel")
	}
	if pep.Normalize("Paddlepaddle_GPU") != "paddlepaddle-gpu" || pep.Normalize("a.-_b") != "a-b" {
		t.Fatal("NormalizeName")
	}
}

// A big ML environment's document is far longer than one delivered line; none of it may be lost.
func TestInspectManyDists(t *testing.T) {
	v, site := venvWithSite(t)
	for i := 0; i < 600; i++ {
		fakeDist(t, site, fmt.Sprintf("package_with_a_long_name_%03d", i), "1.0.0")
	}
	in, err := Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Dists) < 600 {
		t.Fatalf("inspect saw %d dists", len(in.Dists))
	}
}
