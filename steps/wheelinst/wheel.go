// Package wheelinst installs wheels into a Python environment itself, as the binary distribution
// format (PEP 427, packaging.python.org's "Binary distribution format") describes and as pip does
// it: the archive's root goes to purelib or platlib (the WHEEL file's Root-Is-Purelib), each
// NAME.data/KEY/ folder to the install scheme's KEY path, #!python in a data script becomes the
// environment's interpreter, and the dist-info gets INSTALLER, REQUESTED, direct_url.json (a wheel
// asked for by its location) and a RECORD with the hash and size of every file written. The entry-point launchers are made by the environment's own pip
// (its ScriptMaker), so they are pip's, .exe launchers on Windows included. Files are unpacked on
// every core; a cache of unpacked wheels, keyed by each wheel's sha256, installs a wheel it has seen
// by hard links. No bytecode is compiled (Python writes it on first import, as with pip --no-compile).
//
// What it does not handle (a headers folder, an unknown Wheel-Version, a malformed archive) is
// reported by Unsupported before anything is written, and the caller installs that wheel with pip.
package wheelinst

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/csv"
	"gpuwiz/steps/i18n"
	"io"
	"path"
	"strconv"
	"strings"
)

// Wheel is one wheel to install.
type Wheel struct {
	Path      string // the .whl file
	SHA256    string // hex digest of the file, when known: the key of the unpacked cache
	Requested bool   // asked for by name (pip writes REQUESTED for these), not pulled in as a dependency
	// DirectURL is the dist-info's direct_url.json (PEP 610) for a wheel asked for by its location
	// (a file, a URL), as pip writes it: nil for one found by name on an index.
	DirectURL []byte
}

// archive is a wheel read far enough to install it.
type archive struct {
	w        Wheel
	zr       *zip.ReadCloser
	infoDir  string // NAME-VERSION.dist-info
	dataDir  string // NAME-VERSION.data
	purelib  bool
	record   [][]string // the archive's RECORD rows
	console  map[string]string
	gui      map[string]string
	members  []*zip.File // files only, in archive order
	unpacked int64       // sum of the members' uncompressed sizes
}

// ErrUnsupported marks a wheel this installer leaves to pip.
var ErrUnsupported error = i18n.Lazy(func() string { return i18n.T("wheelinst.err.unsupported") })

// unsupported is ErrUnsupported with the reason.
func unsupported(why string) error { return i18n.Wrap(ErrUnsupported, why) }

func openWheel(w Wheel) (*archive, error) {
	zr, err := zip.OpenReader(w.Path)
	if err != nil {
		return nil, err
	}
	a := &archive{w: w, zr: zr}
	if err := a.read(); err != nil {
		zr.Close()
		return nil, err
	}
	return a, nil
}

func (a *archive) close() { a.zr.Close() }

func (a *archive) file(name string) *zip.File {
	for _, f := range a.zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func readMember(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func (a *archive) read() error {
	var infos []string
	for _, f := range a.zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		top, rest, ok := strings.Cut(f.Name, "/")
		if ok && strings.HasSuffix(top, ".dist-info") && rest == "WHEEL" {
			infos = append(infos, top)
		}
		a.members = append(a.members, f)
		a.unpacked += int64(f.UncompressedSize64)
	}
	if len(infos) != 1 {
		return unsupported(i18n.N("wheelinst.why.dist_info", len(infos)))
	}
	a.infoDir = infos[0]
	a.dataDir = strings.TrimSuffix(a.infoDir, ".dist-info") + ".data"
	b, err := readMember(a.file(a.infoDir + "/WHEEL"))
	if err != nil {
		return err
	}
	meta := parseHeaders(b)
	if v := meta["Wheel-Version"]; !wheelVersionOK(v) {
		return unsupported(i18n.T("wheelinst.why.version", i18n.D{"Version": v}))
	}
	a.purelib = strings.EqualFold(meta["Root-Is-Purelib"], "true")
	rf := a.file(a.infoDir + "/RECORD")
	if rf == nil {
		return unsupported(i18n.T("wheelinst.why.no_record"))
	}
	if b, err = readMember(rf); err != nil {
		return err
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	if a.record, err = r.ReadAll(); err != nil {
		return unsupported(i18n.T("wheelinst.why.bad_record", i18n.D{"Err": err}))
	}
	a.console, a.gui = map[string]string{}, map[string]string{}
	if ef := a.file(a.infoDir + "/entry_points.txt"); ef != nil {
		b, err := readMember(ef)
		if err != nil {
			return err
		}
		parseEntryPoints(b, a.console, a.gui)
	}
	for _, f := range a.members {
		top, rest, _ := strings.Cut(f.Name, "/")
		if top != a.dataDir {
			continue
		}
		key, _, ok := strings.Cut(rest, "/")
		switch {
		case !ok:
			return unsupported(i18n.T("wheelinst.why.no_scheme", i18n.D{"File": f.Name}))
		case key == "headers":
			return unsupported(i18n.T("wheelinst.why.headers", i18n.D{"File": f.Name}))
		case key != "purelib" && key != "platlib" && key != "scripts" && key != "data":
			return unsupported(i18n.T("wheelinst.why.scheme_key", i18n.D{"Key": key}))
		}
	}
	return nil
}

// wheelVersionOK is pip's check_compatibility: a Wheel-Version of dot-separated numbers whose
// major is at most 1 (0.1, written by early bdist_wheel, included); a later 1.x only warns there.
func wheelVersionOK(v string) bool {
	parts := strings.Split(v, ".")
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	major, _ := strconv.Atoi(parts[0])
	return major <= 1
}

// parseHeaders reads an email-header file (WHEEL) well enough for its single-line fields.
func parseHeaders(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// parseEntryPoints reads entry_points.txt's console_scripts and gui_scripts sections.
func parseEntryPoints(b []byte, console, gui map[string]string) {
	var into map[string]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[':
			switch strings.TrimSpace(strings.Trim(line, "[]")) {
			case "console_scripts":
				into = console
			case "gui_scripts":
				into = gui
			default:
				into = nil
			}
		case into != nil:
			if k, v, ok := strings.Cut(line, "="); ok {
				into[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
}

// isEntryPointWrapper is pip's rule: a data script named like an entry point (EP, EP.exe,
// EP-script.py, EP.pya) is setuptools' own launcher and is left out; pip makes the launcher.
func (a *archive) isEntryPointWrapper(dest string) bool {
	name := path.Base(dest)
	low := strings.ToLower(name)
	switch {
	case strings.HasSuffix(low, ".exe"), strings.HasSuffix(low, ".pya"):
		name = name[:len(name)-4]
	case strings.HasSuffix(low, "-script.py"):
		name = name[:len(name)-10]
	}
	_, c := a.console[name]
	_, g := a.gui[name]
	return c || g
}
