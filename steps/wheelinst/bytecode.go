package wheelinst

import (
	"encoding/csv"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"gpuwiz/steps/envroot"
)

// The bytecode of unchanged modules, kept across a reinstall.
//
// The installer writes no bytecode (as pip install --no-compile): Python compiles a module the first
// time it is imported and writes the result to __pycache__. A reinstall removes that bytecode with
// the old files, as pip uninstall does, so the first import after a repair or a switch back to a
// channel compiles the framework's modules again. KeepBytecode sets the bytecode of a dist aside
// before it goes (hard links into a folder of the caller's), and PutBackBytecode links each file
// back beside its module once the new set is written, when the module's source has the same hash in
// the new RECORD as in the old one. Python still checks each file against its source (the timestamp
// or hash in its header); the RECORD comparison means that even a file Python would not check goes
// back only beside the very source it was compiled from. Nothing depends on it: a link that cannot
// be made leaves that module to be compiled, as without this.

// Pyc is one bytecode file KeepBytecode set aside.
type Pyc struct {
	held   string // its link in the hold folder
	lib    string // the folder its dist's RECORD paths are relative to
	rel    string // the .pyc, relative to lib (slash form)
	source string // its module as the RECORD names it
	hash   string // the module's hash in the old RECORD
}

// readRecord reads a dist-info's RECORD rows.
func readRecord(infoDir string) ([][]string, error) {
	f, err := os.Open(filepath.Join(infoDir, "RECORD"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

// pycFinder finds the bytecode Python wrote beside a module (__pycache__/<stem>.*.pyc), reading
// each __pycache__ once, not once a module (torch has thousands).
type pycFinder map[string][]string

// of lists the bytecode files of the module at py.
func (f pycFinder) of(py string) []string {
	cache := filepath.Join(filepath.Dir(py), "__pycache__")
	names, ok := f[cache]
	if !ok {
		ents, _ := os.ReadDir(cache)
		for _, e := range ents {
			names = append(names, e.Name())
		}
		f[cache] = names
	}
	stem := strings.TrimSuffix(filepath.Base(py), ".py") + "."
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, stem) && strings.HasSuffix(n, ".pyc") {
			out = append(out, filepath.Join(cache, n))
		}
	}
	return out
}

// KeepBytecode links the bytecode beside each module of the dist in infoDir into hold (a folder of
// its own for this dist, under the caller's backup), before the dist is uninstalled. It returns
// what it set aside: only modules below lib (the folder above the .dist-info) with a hash to
// compare, and only bytecode inside the environment's roots.
func KeepBytecode(infoDir, hold string, roots envroot.Roots) []Pyc {
	rows, err := readRecord(infoDir)
	if err != nil {
		return nil
	}
	lib := filepath.Dir(infoDir)
	below := envroot.New(lib)
	find := pycFinder{}
	var kept []Pyc
	dirs := map[string]bool{}
	for _, row := range rows {
		if len(row) < 2 || !strings.HasSuffix(row[0], ".py") || !strings.HasPrefix(row[1], "sha256=") {
			continue
		}
		module, ok := below.Join(lib, row[0])
		if !ok || path.IsAbs(row[0]) || strings.HasPrefix(path.Clean(row[0]), "../") {
			continue // only modules named below lib: their bytecode goes back to the same place
		}
		for _, p := range find.of(module) {
			if !roots.Inside(p) {
				continue
			}
			rel := path.Join(path.Dir(row[0]), "__pycache__", filepath.Base(p))
			k := Pyc{held: filepath.Join(hold, filepath.FromSlash(rel)), lib: lib, rel: rel, source: row[0], hash: row[1]}
			kept = append(kept, k)
			dirs[filepath.Dir(k.held)] = true
		}
	}
	for d := range dirs {
		if os.MkdirAll(d, 0o755) != nil {
			return nil
		}
	}
	ok := make([]bool, len(kept))
	var g errgroup.Group
	g.SetLimit(2 * runtime.NumCPU())
	for i, k := range kept {
		g.Go(func() error {
			ok[i] = os.Link(filepath.Join(k.lib, filepath.FromSlash(k.rel)), k.held) == nil
			return nil
		})
	}
	_ = g.Wait()
	out := kept[:0]
	for i, k := range kept {
		if ok[i] {
			out = append(out, k)
		}
	}
	return out
}

// PutBackBytecode links kept back beside each module whose source the dists in infoDirs (the new
// set) hold with the same hash, inside the environment's roots, and returns how many files went back.
func PutBackBytecode(kept []Pyc, infoDirs []string, roots envroot.Roots) int {
	if len(kept) == 0 {
		return 0
	}
	now := map[string]string{} // lib + "\x00" + module → its hash in the new RECORD
	for _, d := range infoDirs {
		rows, err := readRecord(d)
		if err != nil {
			continue
		}
		lib := filepath.Dir(d)
		for _, row := range rows {
			if len(row) >= 2 && strings.HasSuffix(row[0], ".py") {
				now[lib+"\x00"+row[0]] = row[1]
			}
		}
	}
	var back []Pyc
	dirs := map[string]bool{}
	for _, k := range kept {
		if now[k.lib+"\x00"+k.source] == k.hash && roots.Inside(filepath.Join(k.lib, filepath.FromSlash(k.rel))) {
			back = append(back, k)
			dirs[filepath.Join(k.lib, filepath.FromSlash(path.Dir(k.rel)))] = true
		}
	}
	for d := range dirs {
		_ = os.MkdirAll(d, 0o755)
	}
	var n atomic.Int64
	var g errgroup.Group
	g.SetLimit(2 * runtime.NumCPU())
	for _, k := range back {
		g.Go(func() error {
			if os.Link(k.held, filepath.Join(k.lib, filepath.FromSlash(k.rel))) == nil {
				n.Add(1)
			}
			return nil
		})
	}
	_ = g.Wait()
	return int(n.Load())
}
