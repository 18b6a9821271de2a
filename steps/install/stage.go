package install

import (
	"archive/zip"
	"bufio"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
)

// wheelInfo is a staged wheel file, named as the wheel spec says: dist-version(-build)-py-abi-plat.whl.
type wheelInfo struct {
	file, name, version string
	size                int64
}

func parseWheelName(file string) (name, version string, ok bool) {
	base := strings.TrimSuffix(filepath.Base(file), ".whl")
	parts := strings.Split(base, "-")
	if len(parts) < 5 || base == filepath.Base(file) {
		return "", "", false
	}
	return pyenv.NormalizeName(parts[0]), parts[1], true
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
	parts := strings.Split(strings.TrimSuffix(filepath.Base(file), ".whl"), "-")
	if len(parts) < 5 {
		return false
	}
	pys, abis, plats := strings.Split(parts[len(parts)-3], "."), strings.Split(parts[len(parts)-2], "."), strings.Split(parts[len(parts)-1], ".")
	platOK := false
	for _, p := range plats {
		switch {
		case p == "any",
			goos == "windows" && p == "win_amd64",
			goos != "windows" && strings.Contains(p, "linux") && strings.HasSuffix(p, "x86_64"):
			platOK = true
		}
	}
	if !platOK {
		return false
	}
	major, minor, ok := strings.Cut(pyVersion, ".")
	if !ok || major != "3" {
		return true
	}
	minor, _, _ = strings.Cut(minor, ".")
	want, err := strconv.Atoi(minor)
	if err != nil {
		return true
	}
	abi3 := slices.Contains(abis, "abi3")
	for _, t := range pys {
		switch {
		case t == "py3" || t == "py2.py3":
			return true
		case strings.HasPrefix(t, "cp3") || strings.HasPrefix(t, "py3"):
			n, err := strconv.Atoi(t[3:])
			if err == nil && (n == want || abi3 && n <= want || strings.HasPrefix(t, "py3") && n <= want) {
				return true
			}
		}
	}
	return false
}

// wheelFor finds the staged wheel a pin ("torch==2.6.0+cu126", "paddlepaddle-gpu==3.0.0") names.
func wheelFor(staged []wheelInfo, pin string) (wheelInfo, bool) {
	name, want, _ := strings.Cut(pin, "==")
	name = pyenv.NormalizeName(name)
	for _, w := range staged {
		if w.name != name {
			continue
		}
		if w.version == want || !strings.Contains(want, "+") && strings.HasPrefix(w.version, want+"+") {
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
		dir, base := path.Split(f.Name)
		if base != "METADATA" || !strings.HasSuffix(strings.TrimSuffix(dir, "/"), ".dist-info") || strings.Count(f.Name, "/") != 1 {
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
