package install

import (
	"archive/zip"
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// wheelInfo is a staged wheel file, named as the wheel spec says: dist-version(-build)-py-abi-plat.whl.
type wheelInfo struct {
	file, name, version string
	size                int64
}

// parseWheelName reads a wheel's normalised name and version from its file name or path.
func parseWheelName(file string) (name, version string, ok bool) {
	w, err := pep.ParseWheel(filepath.Base(file))
	if err != nil {
		return "", "", false
	}
	return w.Name, w.Version, true
}

// stagedWheels lists the wheels in dir (none when dir does not exist yet).
func stagedWheels(dir string) ([]wheelInfo, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []wheelInfo
	for _, e := range entries {
		name, version, ok := parseWheelName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, wheelInfo{file: filepath.Join(dir, e.Name()), name: name, version: version, size: info.Size()})
	}
	return out, nil
}

// dirBytes is the total size of the regular files directly in dir, by name.
func dirFiles(dir string) map[string]int64 {
	out := map[string]int64{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			out[e.Name()] = info.Size()
		}
	}
	return out
}

// newBytes is what appeared or grew in dir since before: the bytes a stage step downloaded.
func newBytes(before, after map[string]int64) int64 {
	var n int64
	for name, size := range after {
		if old, ok := before[name]; !ok || old != size {
			n += size
		}
	}
	return n
}

// wheelRuns says whether a wheel named file can be installed by a Python pyVersion ("3.12.4"; ""
// when unknown: the Python tag is then not judged) on goos (windows or linux, x86-64), from its
// file name's tags (PEP 425): a wheel staged for another Python or system is no help to this one.
func wheelRuns(file, pyVersion, goos string) bool {
	w, err := pep.ParseWheel(filepath.Base(file))
	return err == nil && w.Installs(pyVersion, goos, "amd64")
}

// wheelFor finds the staged wheel a pin ("torch==2.6.0+cu126", "paddlepaddle-gpu==3.0.0") names.
func wheelFor(staged []wheelInfo, pin string) (wheelInfo, bool) {
	name, want, _ := strings.Cut(pin, "==")
	name = pep.Normalize(name)
	for _, w := range staged {
		if w.name != name {
			continue
		}
		if pep.PinMatches(w.version, want) {
			return w, true
		}
	}
	return wheelInfo{}, false
}

// wheelRequires reads the Requires-Dist lines of a wheel, leaving out extras.
func wheelRequires(file string) ([]string, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !pep.IsMetadata(f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		var reqs []string
		sc := bufio.NewScanner(io.LimitReader(rc, 8<<20))
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				break // the body starts: headers are over
			}
			if v, ok := strings.CutPrefix(line, "Requires-Dist:"); ok {
				v = strings.TrimSpace(v)
				if !strings.Contains(v, "extra ==") && !strings.Contains(v, "extra==") {
					reqs = append(reqs, v)
				}
			}
		}
		return reqs, sc.Err()
	}
	return nil, errors.New(i18n.T("install.err.no_metadata", i18n.D{"Wheel": filepath.Base(file)}))
}

// wheelPaths lists where a wheel's files land, relative to site-packages (its .data/purelib and
// platlib included; scripts and headers are left out).
func wheelPaths(file string) ([]string, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var out []string
	for _, f := range zr.File {
		name := f.Name
		if strings.HasSuffix(name, "/") {
			continue
		}
		first, rest, _ := strings.Cut(name, "/")
		if strings.HasSuffix(first, ".data") {
			kind, inner, _ := strings.Cut(rest, "/")
			if kind != "purelib" && kind != "platlib" {
				continue
			}
			name = inner
		}
		out = append(out, filepath.FromSlash(name))
	}
	return out, nil
}
