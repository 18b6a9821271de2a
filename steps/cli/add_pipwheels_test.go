package cli

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// twinAdd is a gpuwiz venv (torch 2.6.0 cu126 from the loopback index) and its twin, a plain venv
// of the same Python, for putting wheels into both: gpuwiz add in the first, pip install in the
// second, and comparing what landed.
type twinAdd struct {
	gw, pip string // the venvs' roots
	pypi    string // the loopback index add is given
}

func newTwinAdd(t *testing.T) *twinAdd {
	t.Helper()
	useConfigDir(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	ix := addIndex(t)
	dir := t.TempDir()
	tw := &twinAdd{gw: filepath.Join(dir, "gw", "venv"), pip: filepath.Join(dir, "pip", "venv"), pypi: ix.ChannelURL("pypi")}
	if out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", tw.gw, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--cache-dir", filepath.Join(dir, "cache"), "--yes", "--no-pip-upgrade")...); code != 0 {
		t.Fatalf("install: exit %d: %s\n%s", code, stderr, out)
	}
	cmd := exec.Command(pyindex.Python(t), "-m", "venv", tw.pip)
	cmd.Env = pyindex.PipEnv(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python -m venv: %v\n%s", err, out)
	}
	return tw
}

// tree is every file of a venv with its content and permission bits, the venv's own path in a
// file's content (a script's #! line) written as VENV; a folder is listed too.
func venvTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if de.IsDir() {
			if de.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			out[rel+"/"] = "dir"
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = info.Mode().Perm().String() + " " + string(bytes.ReplaceAll(b, []byte(root), []byte("VENV")))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changed is what differs from before to after: each path made, changed or removed, with what is
// there after ("" when removed).
func changedTree(before, after map[string]string) map[string]string {
	d := map[string]string{}
	for p, v := range after {
		if before[p] != v {
			d[p] = v
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			d[p] = ""
		}
	}
	return d
}

// gpuwizOwn are the venv's files that are gpuwiz's and not any dist's: the lock, the constraints,
// the state folder, the bytecode kept across a reinstall.
func gpuwizOwn(rel string) bool {
	return rel == "requirements.lock" || rel == "constraints.txt" || strings.HasPrefix(rel, ".gpuwiz/")
}

// infoDirOf is the .dist-info folder a wheel holds (its name, as it lands in site-packages).
func infoDirOf(t *testing.T, wheel string) string {
	t.Helper()
	zr, err := zip.OpenReader(wheel)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		top, rest, _ := strings.Cut(f.Name, "/")
		if strings.HasSuffix(top, ".dist-info") && rest == "WHEEL" {
			return top
		}
	}
	t.Fatalf("%s: no .dist-info/WHEEL", wheel)
	return ""
}

// recordRows reads an installed dist's RECORD: path -> "hash,size".
func recordRows(t *testing.T, infoDir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(infoDir, "RECORD"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, row := range rows {
		for len(row) < 3 {
			row = append(row, "")
		}
		out[row[0]] = row[1] + "," + row[2]
	}
	return out
}

func sitePackages(t *testing.T, root string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages"))
	if len(m) != 1 {
		t.Fatalf("site-packages of %s: %v", root, m)
	}
	return m[0]
}

// addBoth puts the wheel into the twin with pip install and into the gpuwiz venv with gpuwiz add.
// Where pip refuses it, gpuwiz must too, naming the wheel and leaving the venv as it was (refused);
// where pip installs it, gpuwiz must change the same files with the same content and permission
// bits (the venv's own path in a #! line aside), its RECORD listing the same files with the same
// hashes where the contents are the same, and INSTALLER naming gpuwiz. want is what pip must do:
// "installs", "refuses" or "" for either.
func (tw *twinAdd) addBoth(t *testing.T, wheel, want string) {
	t.Helper()
	gwBefore, pipBefore := venvTree(t, tw.gw), venvTree(t, tw.pip)
	cmd := exec.Command(pyenv.Venv{Root: tw.pip}.Python(), "-m", "pip", "install", "--no-index", "--no-compile", wheel)
	cmd.Env = pyindex.PipEnv(t)
	b, err := cmd.CombinedOutput()
	switch {
	case err != nil && want == "installs":
		t.Fatalf("pip install %s: %v\n%s", filepath.Base(wheel), err, b)
	case err == nil && want == "refuses":
		t.Fatalf("pip install %s installed it\n%s", filepath.Base(wheel), b)
	case err != nil:
		sameFiles(t, "pip's refusal", pipBefore, venvTree(t, tw.pip))
		tw.refused(t, wheel)
		return
	}
	out, stderr, code := runCLI(t, "add", "--venv", tw.gw, wheel, "--index-url", tw.pypi, "--yes", "--json")
	if code != 0 {
		t.Fatalf("gpuwiz add %s: exit %d %s\n%s", filepath.Base(wheel), code, stderr, out)
	}
	gw, pip := changedTree(gwBefore, venvTree(t, tw.gw)), changedTree(pipBefore, venvTree(t, tw.pip))
	for p := range gw {
		if gpuwizOwn(p) {
			delete(gw, p)
		}
	}
	info := infoDirOf(t, wheel)
	gwLib, pipLib := sitePackages(t, tw.gw), sitePackages(t, tw.pip)
	infoRel, _ := filepath.Rel(tw.gw, filepath.Join(gwLib, info))
	infoRel = filepath.ToSlash(infoRel)
	// INSTALLER names the tool (the packaging spec's "Recording installed projects"); RECORD is
	// compared row by row below.
	for _, f := range []string{"INSTALLER", "RECORD"} {
		p := infoRel + "/" + f
		if gw[p] == "" || pip[p] == "" {
			t.Errorf("%s: %s written: gpuwiz %t, pip %t", filepath.Base(wheel), f, gw[p] != "", pip[p] != "")
		}
		delete(gw, p)
		delete(pip, p)
	}
	if got := readText(t, filepath.Join(gwLib, info, "INSTALLER")); got != "gpuwiz\n" {
		t.Errorf("%s: INSTALLER %q", filepath.Base(wheel), got)
	}
	for p, v := range filetree.Pair(gw, pip) {
		switch {
		case !v.InA:
			t.Errorf("%s: pip wrote %s, gpuwiz did not: %.200q", filepath.Base(wheel), p, v.B)
		case !v.InB:
			t.Errorf("%s: gpuwiz wrote %s, pip did not: %.200q", filepath.Base(wheel), p, v.A)
		case v.A != v.B:
			t.Errorf("%s: %s differs:\ngpuwiz: %.300q\npip:    %.300q", filepath.Base(wheel), p, v.A, v.B)
		}
	}
	// RECORD: the same rows, a row's hash and size too where the file's content is the same in
	// both (a script's #! line names each venv's own Python: its row hashes what is there).
	gwRec, pipRec := recordRows(t, filepath.Join(gwLib, info)), recordRows(t, filepath.Join(pipLib, info))
	for p, v := range filetree.Pair(gwRec, pipRec) {
		switch {
		case !v.InA || !v.InB:
			t.Errorf("%s: RECORD row %s: gpuwiz %t, pip %t", filepath.Base(wheel), p, v.InA, v.InB)
		case p == info+"/INSTALLER":
		case v.A == v.B:
		default:
			gb, err1 := os.ReadFile(filepath.Join(gwLib, filepath.FromSlash(p)))
			pb, err2 := os.ReadFile(filepath.Join(pipLib, filepath.FromSlash(p)))
			if err1 != nil || err2 != nil || bytes.Equal(gb, pb) {
				t.Errorf("%s: RECORD row %s: gpuwiz %q, pip %q", filepath.Base(wheel), p, v.A, v.B)
			}
		}
	}
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// refused says gpuwiz add of a broken wheel fails, names it, and leaves the venv as it was.
func (tw *twinAdd) refused(t *testing.T, wheel string) {
	t.Helper()
	before := filetree.Sums(t, tw.gw, filetree.Options{Dirs: true}, tw.gw)
	out, stderr, code := runCLI(t, "add", "--venv", tw.gw, wheel, "--index-url", tw.pypi, "--yes", "--json")
	r := decodeAdd(t, out)
	if code == 0 || r.ExitCode != code || !strings.Contains(r.Error+stderr, filepath.Base(wheel)) {
		t.Errorf("gpuwiz add %s: exit %d, error %q %s", filepath.Base(wheel), code, r.Error, stderr)
	}
	t.Logf("%s: exit %d: %s", filepath.Base(wheel), code, r.Error)
	for _, d := range filetree.Diff(before, filetree.Sums(t, tw.gw, filetree.Options{Dirs: true}, tw.gw)) {
		t.Errorf("%s refused: %s", filepath.Base(wheel), d)
	}
}

// TestAddLandsPipsTestWheelsAsPip puts pip's own test wheels (tests/data/packages of pypa/pip, in
// the folder GPUWIZ_PIP_WHEELS names) into a gpuwiz venv with gpuwiz add and into a twin venv with
// pip install, and compares what landed; the corrupt and broken ones are refused, the venv unchanged.
// The folder: `git --git-dir PIP.git show HEAD:tests/data/packages/FILE > DIR/FILE` for each wheel
// named below (pip's test data, MIT-licensed, is not kept in this repository).
func TestAddLandsPipsTestWheelsAsPip(t *testing.T) {
	dir := os.Getenv("GPUWIZ_PIP_WHEELS")
	if dir == "" {
		t.Skip("GPUWIZ_PIP_WHEELS names no folder of pip's test wheels")
	}
	tw := newTwinAdd(t)
	for _, w := range []struct{ file, want string }{
		{"has.script-1.0-py2.py3-none-any.whl", "installs"},                // a script in .data/scripts, #!python
		{"complex_dist-0.1-py2.py3-none-any.whl", "installs"},              // a data script named as its console script; Wheel-Version 0.1
		{"console_scripts_uppercase-1.0-py2.py3-none-any.whl", "installs"}, // console script cmdName
		{"prjwithdatafile-1.0-py2.py3-none-any.whl", "installs"},           // .data/data files, mode 0770
		{"simple_namespace-1.0-py2.py3-none-any.whl", "installs"},          // a namespace package's -nspkg.pth, mode 0600
		{"script.wheel1-0.1-py2.py3-none-any.whl", "installs"},             // setuptools' t1.exe and t1-script.py for console script t1
		{"script.wheel1a-0.1-py2.py3-none-any.whl", "installs"},            // no permission bits, folder entries
		{"script.wheel2-0.1-py2.py3-none-any.whl", "installs"},             // a .bat script, a script without #!, t1.exe
		{"script.wheel2a-0.1-py2.py3-none-any.whl", "installs"},            // the same without permission bits
		{"script.wheel3-0.1-py2.py3-none-any.whl", "installs"},             // gui script t1 beside t1-script.pyw and t1.exe
		{"simplewheel-2.0-1-py2.py3-none-any.whl", "installs"},             // a build tag
		{"simple.dist-0.1-py2.py3-none-any.whl", "installs"},               // RECORD.jws without a file type in its mode
		{"compilewheel-1.0-py2.py3-none-any.whl", "installs"},
		{"license.dist-0.1-py2.py3-none-any.whl", "installs"},
		{"pkg_prerelease-1.0a1-py3-none-any.whl", "installs"},
		{"corruptwheel-1.0-py2.py3-none-any.whl", "refuses"}, // not a zip
		{"brokenwheel-1.0-py2.py3-none-any.whl", "refuses"},  // no WHEEL
		{"priority-1.0-py2.py3-none-any.whl", "refuses"},     // an empty file
		{"invalid.whl", "refuses"},                           // not a wheel's name
		{"simple.dist-0.1-py1-none-invalid.whl", "refuses"},  // no platform of this machine's
		{"simplewheel-2.0-py3-fakeabi-fakeplat.whl", "refuses"},
		{"invalid_version-2010i-py3-none-any.whl", ""}, // a version PEP 440 does not allow: refused by pip 24.1 and later
		{"require_invalid_version-1.0-py3-none-any.whl", ""},
	} {
		t.Run(w.file, func(t *testing.T) { tw.addBoth(t, filepath.Join(dir, w.file), w.want) })
	}
}

// member is one file of a wheel the test builds, with the mode its zip entry carries (0: none, as
// a zip written without Unix attributes).
type member struct {
	name string
	body string
	mode fs.FileMode
}

// shapedWheel writes dist-version-py3-none-any.whl into dir: members, then WHEEL (wheelVersion) and
// a RECORD of them all, each entry with its mode; folder entries for dirs.
func shapedWheel(t *testing.T, dir, dist, version, wheelVersion string, members []member, dirs ...string) string {
	t.Helper()
	info := dist + "-" + version + ".dist-info"
	members = append(members,
		member{info + "/METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n", 0o644},
		member{info + "/WHEEL", "Wheel-Version: " + wheelVersion + "\nGenerator: gpuwiz-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n", 0o644})
	var rec bytes.Buffer
	for _, m := range members {
		sum := sha256.Sum256([]byte(m.body))
		fmt.Fprintf(&rec, "%s,sha256=%s,%d\n", m.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(m.body))
	}
	rec.WriteString(info + "/RECORD,,\n")
	members = append(members, member{info + "/RECORD", rec.String(), 0o644})
	p := filepath.Join(dir, dist+"-"+version+"-py3-none-any.whl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, d := range dirs {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: d + "/"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range members {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		if m.mode != 0 {
			h.CreatorVersion = 3 << 8 // Unix
			h.ExternalAttrs = uint32(0o100000|m.mode.Perm()) << 16
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, m.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAddLandsShapedWheelsAsPip is TestAddLandsPipsTestWheelsAsPip over wheels built here in the
// shapes of pip's test wheels (pip's own are not kept in this repository): data files and scripts
// in .data, a namespace package's .pth, console and gui scripts with upper-case names beside
// setuptools' .exe and -script.py launchers, a .bat script, entries without permission bits, a
// Wheel-Version 0.1; then a file that is not a zip, a wheel without WHEEL and an empty file, refused.
func TestAddLandsShapedWheelsAsPip(t *testing.T) {
	dir := t.TempDir()
	tw := newTwinAdd(t)
	ep := func(dist, version string) string { return dist + "-" + version + ".dist-info/entry_points.txt" }
	wheels := []string{
		shapedWheel(t, dir, "withdata", "1.0", "1.0", []member{
			{"withdata/__init__.py", "", 0o644},
			{"withdata-1.0.data/data/share/withdata/README.txt", "data file\n", 0o770},
			{"withdata-1.0.data/data/share/withdata/plain.txt", "plain\n", 0o600},
			{"withdata-1.0.data/scripts/withdata-tool", "#!python\nimport withdata\nprint('tool')\n", 0o755},
			{"withdata-1.0.data/scripts/noshebang", "echo plain\n", 0o644},
			{"withdata-1.0.data/scripts/run.bat", "@echo off\r\npython -c pass\r\n", 0o777},
			{"withdata-1.0.data/purelib/withdata_extra.py", "X = 1\n", 0o644},
		}),
		shapedWheel(t, dir, "nsdist", "1.0", "1.0", []member{
			{"nsdist-1.0-py3.7-nspkg.pth", "import sys, types, os;has_mfs = sys.version_info > (3, 5);p = os.path.join(sys._getframe(1).f_locals['sitedir'], *('nsdist',))\n", 0o600},
			{"nsdist/module/__init__.py", "", 0o600},
			{"nsdist-1.0.dist-info/namespace_packages.txt", "nsdist\n", 0o600},
		}),
		shapedWheel(t, dir, "upperscripts", "1.0", "1.0", []member{
			{"upmod/__init__.py", "def main():\n    return 0\n", 0o644},
			{ep("upperscripts", "1.0"), "[console_scripts]\ncmdName = upmod:main\n\n[gui_scripts]\nGuiTool = upmod:main\n", 0o644},
			{"upperscripts-1.0.data/scripts/cmdName.exe", "MZ not a real launcher", 0o777},
			{"upperscripts-1.0.data/scripts/cmdName-script.py", "#!python\nimport upmod\n", 0o644},
			{"upperscripts-1.0.data/scripts/GuiTool-script.pyw", "#!python\nimport upmod\n", 0o644},
			{"upperscripts-1.0.data/scripts/cmdName", "#!python\nimport upmod\n", 0o755},
		}),
		shapedWheel(t, dir, "noattrs", "1.0", "1.0", []member{
			{"noattrs_mod.py", "Y = 2\n", 0},
			{"noattrs-1.0.data/scripts/noattrs-run", "#!python\nprint(1)\n", 0},
			{ep("noattrs", "1.0"), "[console_scripts]\nnoattrs = noattrs_mod:Y\n", 0},
		}, "noattrs-1.0.dist-info", "noattrs-1.0.data", "noattrs-1.0.data/scripts"),
		shapedWheel(t, dir, "oldwheel", "1.0", "0.1", []member{
			{"oldwheel/__init__.py", "Z = 3\n", 0o644},
			{"oldwheel-1.0.data/scripts/oldwheel", "#!python\nimport oldwheel\n", 0o755},
		}),
	}
	for _, w := range wheels {
		t.Run(filepath.Base(w), func(t *testing.T) { tw.addBoth(t, w, "installs") })
	}
	notZip := filepath.Join(dir, "notzip-1.0-py3-none-any.whl")
	empty := filepath.Join(dir, "empty-1.0-py3-none-any.whl")
	os.WriteFile(notZip, []byte("This is not a zip file.\n"), 0o644)
	os.WriteFile(empty, nil, 0o644)
	noWheel := shapedWheel(t, dir, "nowheel", "1.0", "1.0", []member{{"nowheel/__init__.py", "", 0o644}})
	dropMember(t, noWheel, "nowheel-1.0.dist-info/WHEEL")
	for _, w := range []string{notZip, empty, noWheel} {
		t.Run(filepath.Base(w), func(t *testing.T) { tw.addBoth(t, w, "refuses") })
	}
}

// dropMember rewrites the wheel at p without the member name.
func dropMember(t *testing.T, p, name string) {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range zr.File {
		if f.Name == name {
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	zr.Close()
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
