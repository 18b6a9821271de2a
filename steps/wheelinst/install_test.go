package wheelinst

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/filetree"
)

type member struct {
	name string
	body string
	mode fs.FileMode // 0: no unix mode in the archive
}

// buildWheel writes a wheel with members, its WHEEL file and a RECORD; root-is-purelib as asked.
func buildWheel(t testing.TB, dir, dist, version, tag string, purelib bool, members []member) string {
	t.Helper()
	info := dist + "-" + version + ".dist-info"
	members = append(members,
		member{name: info + "/METADATA", body: fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", dist, version)},
		member{name: info + "/WHEEL", body: fmt.Sprintf("Wheel-Version: 1.0\nGenerator: gpuwiz-test\nRoot-Is-Purelib: %v\nTag: %s\n", purelib, tag)})
	var rec bytes.Buffer
	for _, m := range members {
		h := sha256.Sum256([]byte(m.body))
		fmt.Fprintf(&rec, "%s,sha256=%s,%d\n", m.name, base64.RawURLEncoding.EncodeToString(h[:]), len(m.body))
	}
	fmt.Fprintf(&rec, "%s/RECORD,,\n", info)
	members = append(members, member{name: info + "/RECORD", body: rec.String()})
	p := filepath.Join(dir, dist+"-"+version+"-"+tag+".whl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, m := range members {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		if m.mode != 0 {
			h.SetMode(m.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

func sha(t testing.TB, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func newVenv(t *testing.T, dir string) string {
	t.Helper()
	if out, err := exec.Command("python3", "-m", "venv", dir).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v %s", err, out)
	}
	return filepath.Join(dir, "bin", "python")
}

// familyWheels is a torch-like family: a platlib package with an executable shared object, a
// console script and a GUI script, a data script with #!python, data files, a purelib dependency.
func familyWheels(t testing.TB, dir string) []string {
	return []string{
		buildWheel(t, dir, "fakelib", "2.1.0+cu126", "py3-none-any", false, []member{
			{name: "fakelib/__init__.py", body: "def main():\n    print('fakelib main ok')\n    return 0\n"},
			{name: "fakelib/lib/libfake.so", body: strings.Repeat("\x7fELF", 4096), mode: 0o755},
			{name: "fakelib/lib/data.txt", body: "plain\n", mode: 0o644},
			{name: "fakelib-2.1.0+cu126.dist-info/entry_points.txt", body: "[console_scripts]\nfakerun = fakelib:main\n\n[gui_scripts]\nfakegui = fakelib:main\n"},
			{name: "fakelib-2.1.0+cu126.dist-info/licenses/LICENSE", body: "license\n"},
			{name: "fakelib-2.1.0+cu126.data/scripts/fake-tool", body: "#!python\nprint('tool ok')\n"},
			{name: "fakelib-2.1.0+cu126.data/scripts/fakerun", body: "#!python\n# setuptools' own launcher: pip leaves it out\n"},
			{name: "fakelib-2.1.0+cu126.data/scripts/plain.sh", body: "#!/bin/sh\necho plain\n", mode: 0o755},
			{name: "fakelib-2.1.0+cu126.data/data/share/fakelib/notes.txt", body: "notes\n"},
			{name: "fakelib-2.1.0+cu126.data/purelib/fakelib_extra.py", body: "X = 1\n"},
		}),
		buildWheel(t, dir, "fakedep", "1.0", "py3-none-any", true, []member{
			{name: "fakedep/__init__.py", body: "VALUE = 42\n"},
			{name: "fakedep/sub/mod.py", body: "Y = 2\n"},
		}),
	}
}

// staged builds a family's wheels with build into base/wheels and returns that folder, the
// wheels' paths and the wheels as Install takes them (requested, with their sha256).
func staged(t testing.TB, build func(testing.TB, string) []string) (base, wheels string, paths []string, ws []Wheel) {
	base = t.TempDir()
	wheels = filepath.Join(base, "wheels")
	os.MkdirAll(wheels, 0o755)
	paths = build(t, wheels)
	for _, p := range paths {
		ws = append(ws, Wheel{Path: p, SHA256: sha(t, p), Requested: true})
	}
	return base, wheels, paths, ws
}

// tree lists every file under root with its content hash and permission bits, skipping bytecode.
func tree(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "__pycache__") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		st, _ := os.Lstat(p)
		b, _ := os.ReadFile(p)
		if strings.HasSuffix(rel, "RECORD") {
			out[rel] = string(b) // compared line by line
			return nil
		}
		out[rel] = fmt.Sprintf("%x %v", sha256.Sum256(b), st.Mode().Perm())
		return nil
	})
	return out
}

func pipInstall(t *testing.T, py, links string, reqs ...string) {
	t.Helper()
	args := append([]string{"-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile", "--no-index", "--find-links", links}, reqs...)
	if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("pip install: %v\n%s", err, out)
	}
}

func TestInstallEqualsPip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the venv layout below is POSIX")
	}
	base, wheels, _, ws := staged(t, familyWheels)
	// pip and gpuwiz install into a venv at the same path, one after the other, so that launchers
	// and RECORD lines that name the interpreter can be compared byte for byte.
	root := filepath.Join(base, "venv")
	py := newVenv(t, root)
	pipInstall(t, py, wheels, "fakelib==2.1.0+cu126", "fakedep==1.0")
	want := snapshot(t, root)

	ctx := context.Background()
	fresh := func() string {
		os.RemoveAll(root)
		return newVenv(t, root)
	}
	cache := filepath.Join(base, "unpacked")
	for _, round := range []struct {
		name   string
		cache  string
		helper bool // scheme and launchers from a Python kept running (Helper), as the engine does
	}{{"straight from the archives", "", false}, {"first through the cache (unpack)", cache, false}, {"warm cache (hard links)", cache, false},
		{"warm cache, launchers from a running Python", cache, true}} {
		t.Run(round.name, func(t *testing.T) {
			py := fresh()
			s, err := SchemeOf(ctx, CommandPython(py))
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Cache: round.cache}
			if round.helper {
				h, err := StartHelper(ctx, py, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				if h.Scheme() != s {
					t.Errorf("the running Python's scheme %+v, SchemeOf's %+v", h.Scheme(), s)
				}
				opt.Launchers = h.Launchers
			}
			res, err := Install(ctx, CommandPython(py), s, ws, opt)
			if err != nil {
				t.Fatal(err)
			}
			if round.cache != "" && round.name != "first through the cache (unpack)" && (res.Linked != 15 || res.Copied != 2) {
				t.Errorf("a warm cache links every file but the two data scripts (copied: their #! line is rewritten): %+v", res)
			}
			compareSnapshots(t, want, snapshot(t, root))
			out, err := exec.Command(filepath.Join(root, "bin", "fakerun")).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "fakelib main ok") {
				t.Errorf("console script: %v %s", err, out)
			}
			out, err = exec.Command(py, filepath.Join(root, "bin", "fake-tool")).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "tool ok") {
				t.Errorf("data script: %v %s", err, out)
			}
			if out, err := exec.Command(py, "-m", "pip", "check").CombinedOutput(); err != nil {
				t.Errorf("pip check: %v %s", err, out)
			}
			if out, err := exec.Command(py, "-c", "import importlib.metadata as m; print(m.version('fakelib'), len(m.files('fakelib')))").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "2.1.0+cu126 ") {
				t.Errorf("importlib.metadata: %v %s", err, out)
			}
			if out, err := exec.Command(py, "-m", "pip", "uninstall", "-y", "fakelib", "fakedep").CombinedOutput(); err != nil {
				t.Fatalf("pip uninstall: %v %s", err, out)
			}
			for rel := range snapshot(t, root) {
				if strings.Contains(rel, "fake") {
					t.Errorf("left after pip uninstall: %s", rel)
				}
			}
		})
	}
	// pip uninstall unlinked the venv's names only: the cache still holds every file whole.
	ents, err := List(cache)
	if err != nil || len(ents) != 2 {
		t.Fatalf("cache entries: %v %+v", err, ents)
	}
	// A file of one entry edited in place (as through an environment's hard link): that wheel is
	// unpacked again before anything links to it, the other is still linked, and the install equals pip's.
	var edited string
	filepath.WalkDir(ents[0].Dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") && edited == "" {
			edited = p
		}
		return nil
	})
	if err := os.WriteFile(edited, []byte("raise SystemExit('edited in place')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	py = fresh()
	s, err := SchemeOf(ctx, CommandPython(py))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(ctx, CommandPython(py), s, ws, Options{Cache: cache}); err != nil {
		t.Fatal(err)
	}
	compareSnapshots(t, want, snapshot(t, root))
	if b, _ := os.ReadFile(edited); strings.Contains(string(b), "edited in place") {
		t.Errorf("the edited cache file %s is still there", edited)
	}
}

func snapshot(t *testing.T, root string) map[string]string { return tree(t, root) }

// compareSnapshots holds two installs' files equal (content and permission bits), except
// INSTALLER (pip writes "pip", gpuwiz "gpuwiz") and, in RECORD, INSTALLER's line.
func compareSnapshots(t *testing.T, want, got map[string]string) {
	t.Helper()
	for k, v := range filetree.Pair(want, got) {
		if strings.HasSuffix(k, "/INSTALLER") {
			continue
		}
		if strings.HasSuffix(k, "/RECORD") {
			w, g := strings.Split(v.A, "\r\n"), strings.Split(v.B, "\r\n")
			if len(w) != len(g) {
				t.Errorf("%s: %d lines from pip, %d from gpuwiz\npip:\n%s\ngpuwiz:\n%s", k, len(w), len(g), v.A, v.B)
				continue
			}
			for i := range w {
				if !strings.Contains(w[i], "/INSTALLER,") && w[i] != g[i] {
					t.Errorf("%s line %d:\npip    %s\ngpuwiz %s", k, i+1, w[i], g[i])
				}
			}
			continue
		}
		if v.A != v.B {
			t.Errorf("%s: pip %q, gpuwiz %q", k, v.A, v.B)
		}
	}
}

// TestHelperNotAskedEndsAtClose: a running Python the install never asks for launchers ends at Close
// (end of its input), having made nothing; one that fails to start says why.
func TestHelperNotAskedEndsAtClose(t *testing.T) {
	root := filepath.Join(t.TempDir(), "venv")
	py := newVenv(t, root)
	before := tree(t, root)
	h, err := StartHelper(context.Background(), py, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if h.cmd.ProcessState == nil || !h.cmd.ProcessState.Exited() || h.err != nil {
		t.Fatalf("not ended cleanly: %v %v", h.cmd.ProcessState, h.err)
	}
	if _, err := h.Launchers(context.Background(), []byte("[]")); err == nil {
		t.Error("a closed Python answered")
	}
	after := tree(t, root)
	for rel := range after {
		if _, ok := before[rel]; !ok && !strings.Contains(rel, "__pycache__") {
			t.Errorf("made %s without being asked", rel)
		}
	}
	if _, err := StartHelper(context.Background(), filepath.Join(root, "bin", "no-such-python"), nil); err == nil {
		t.Error("a missing interpreter started")
	}
	bad := filepath.Join(t.TempDir(), "py")
	os.WriteFile(bad, []byte("#!/bin/sh\necho broken pip >&2\nexit 3\n"), 0o755)
	if _, err := StartHelper(context.Background(), bad, nil); err == nil || !strings.Contains(err.Error(), "broken pip") {
		t.Errorf("a Python that fails: %v", err)
	}
}

// TestHelperAnswersEachLaunchersCall: the running Python answers every call until Close, so the
// one a new venv's pip was linked in with makes the install step's launchers as well.
func TestHelperAnswersEachLaunchersCall(t *testing.T) {
	root := filepath.Join(t.TempDir(), "venv")
	py := newVenv(t, root)
	h, err := StartHelper(context.Background(), py, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	bin := filepath.Join(root, "bin")
	for _, name := range []string{"first-tool", "second-tool"} {
		jobs := `[{"scripts_dir": "` + bin + `", "console": {"` + name + `": "json.tool:main"}}]`
		out, err := h.Launchers(context.Background(), []byte(jobs))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(out), filepath.Join(bin, name)) {
			t.Fatalf("%s: the answer names no launcher: %s", name, out)
		}
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestLaunchersWhenTheRunningPythonIsGone: a running Python that ended before it was asked (killed,
// crashed) does not fail the install: a Python started then makes the launchers.
func TestLaunchersWhenTheRunningPythonIsGone(t *testing.T) {
	base, _, _, ws := staged(t, familyWheels)
	py := newVenv(t, filepath.Join(base, "venv"))
	ctx := context.Background()
	h, err := StartHelper(ctx, py, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.cmd.Process.Kill()
	h.Close()
	res, err := Install(ctx, CommandPython(py), h.Scheme(), ws, Options{Launchers: h.Launchers})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(base, "venv", "bin", "fakerun")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "fakelib main ok") || len(res.Dists) != 2 || len(res.Dists[0].Scripts) == 0 {
		t.Errorf("launcher: %v %s; dists %+v", err, out, res.Dists)
	}
}

// CommandPython is a Python that runs exe directly.
func CommandPython(exe string) Python { return CommandPythonEnv(exe, nil) }
