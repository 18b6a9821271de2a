package wheelinst

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/envroot"
)

// tempDir is t.TempDir but for its clean-up, which does not fail the test: Wine's unlinkat of a
// folder fails ("Invalid function") where Windows' does not.
func tempDir(t *testing.T) string {
	d, err := os.MkdirTemp("", "wheelinst-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// victims writes files outside the environment and returns a function that checks each is still
// there, byte for byte, and so is its folder.
func victims(t *testing.T, dir string, names ...string) func() {
	t.Helper()
	want := map[string][]byte{}
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b := []byte("not the environment's: " + n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = b
	}
	return func() {
		t.Helper()
		for p, b := range want {
			got, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("outside the environment, %s: %v (%q)", p, err, got)
			}
		}
	}
}

// A RECORD that names files outside the environment (absolute, through .., through a symlinked
// folder) loses only its own files: the others stay byte for byte, with their folder, and are
// listed as refused.
func TestUninstallLeavesWhatLiesOutsideTheEnvironment(t *testing.T) {
	top := tempDir(t)
	env := filepath.Join(top, "venv")
	site := filepath.Join(env, "lib", "python3.11", "site-packages")
	info := filepath.Join(site, "torch-2.6.0.dist-info")
	for _, d := range []string{filepath.Join(site, "torch"), info, filepath.Join(env, "bin")} {
		os.MkdirAll(d, 0o755)
	}
	victim := filepath.Join(top, "victim")
	check := victims(t, victim, "abs.txt", "rel.txt", "linked.txt")
	record := []string{"torch/__init__.py,,", "../../../bin/torchrun,,", "torch-2.6.0.dist-info/RECORD,,",
		filepath.ToSlash(filepath.Join(victim, "abs.txt")) + ",,",
		strings.Repeat("../", 12) + strings.TrimPrefix(filepath.ToSlash(filepath.Join(victim, "rel.txt")), "/") + ",,"}
	wantOut := 2
	if runtime.GOOS != "windows" {
		os.Symlink(victim, filepath.Join(site, "torch", "link"))
		record = append(record, "torch/link/linked.txt,,")
		wantOut++
	} else {
		// Windows' own spellings: the \\?\ prefix, another case, a drive-relative line from the
		// folder above the victim (where the process stands), a rooted line without a drive.
		check = victims(t, victim, "abs.txt", "rel.txt", "long.txt", "upper.txt", "drive.txt", "rooted.txt")
		drive := filepath.VolumeName(victim)
		wd, _ := os.Getwd()
		os.Chdir(top)
		t.Cleanup(func() { os.Chdir(wd) })
		record = append(record, `\\?\`+filepath.Join(victim, "long.txt")+",,", strings.ToUpper(filepath.Join(victim, "upper.txt"))+",,",
			drive+`victim\drive.txt,,`, strings.TrimPrefix(filepath.Join(victim, "rooted.txt"), drive)+",,")
		wantOut += 4
	}
	for _, f := range []string{"torch/__init__.py", "../../../bin/torchrun"} {
		os.WriteFile(filepath.Join(site, filepath.FromSlash(f)), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(info, "RECORD"), []byte(strings.Join(record, "\n")+"\n"), 0o644)

	removed, outside, err := Uninstall(info, envroot.New(env, site, filepath.Join(env, "bin")))
	if err != nil {
		t.Fatal(err)
	}
	check()
	if len(outside) != wantOut {
		t.Errorf("refused %v, want %d paths", outside, wantOut)
	}
	for _, p := range outside {
		if !strings.Contains(strings.ToLower(p), "victim") && !strings.Contains(p, filepath.Join("torch", "link")) {
			t.Errorf("refused %q, which is not outside", p)
		}
	}
	if !slices.Contains(removed, filepath.Join(env, "bin", "torchrun")) || !slices.Contains(removed, filepath.Join(site, "torch", "__init__.py")) {
		t.Errorf("the dist's own files did not go: removed %v", removed)
	}
	if _, err := os.Stat(filepath.Join(site, "torch", "__init__.py")); err == nil {
		t.Error("torch/__init__.py is still there")
	}
}

// A dist whose files are all there is in site-packages (a single module beside its dist-info)
// goes without site-packages going with it: the folder-goes-whole step never takes a root.
func TestUninstallNeverTakesARootWhole(t *testing.T) {
	env := tempDir(t)
	site := filepath.Join(env, "lib", "python3.11", "site-packages")
	info := filepath.Join(site, "six-1.0.dist-info")
	os.MkdirAll(info, 0o755)
	os.WriteFile(filepath.Join(site, "six.py"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(info, "RECORD"), []byte("six.py,,\nsix-1.0.dist-info/RECORD,,\n"), 0o644)
	removed, outside, err := Uninstall(info, envroot.New(env, site))
	if err != nil || len(outside) > 0 || len(removed) != 2 {
		t.Fatalf("removed %v, refused %v, err %v", removed, outside, err)
	}
	if st, err := os.Stat(site); err != nil || !st.IsDir() {
		t.Fatalf("site-packages went with the dist: %v", err)
	}
}
