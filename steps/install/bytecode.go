package install

import (
	"encoding/csv"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// The bytecode of unchanged modules, kept across a reinstall.
//
// gpuwiz's installer writes no bytecode (as pip install --no-compile): Python compiles a module the
// first time it is imported and writes the result to __pycache__. A reinstall removes that bytecode
// with the old files, as pip uninstall does, so the first import after a repair or a switch back to
// a channel, the verify step's, compiles the framework's modules again: one to two seconds of the
// step for torch on the GPU machines. So the bytecode of every module whose source the reinstall
// writes unchanged (the same sha256 in the old dist's RECORD and the new one's) is set aside before
// the old dist goes (hard links into the run's backup folder) and linked back once the install step
// has written the new set. Python still checks each file against its source (the timestamp or hash
// in its header); the RECORD comparison means that even a file Python would not check goes back
// only beside the very source it was compiled from. Nothing depends on it: a link that cannot be
// made leaves that module to be compiled, as without this.

// keptPyc is one bytecode file set aside.
type keptPyc struct {
	held string // its link in the backup folder
	lib  string // the folder its dist's RECORD paths are relative to
	rel  string // the .pyc, relative to lib
	src  string // its module's source as the RECORD names it
	sum  string // the source's hash in the old RECORD
}

// recordRows reads a dist-info's RECORD.
func recordRows(infoDir string) ([][]string, error) {
	f, err := os.Open(filepath.Join(infoDir, "RECORD"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

// keepBytecode sets aside the bytecode of the dist in infoDir, before it is removed. Only with a
// backup folder (the backup step ran): that is where it is held, and it goes with that folder.
func (e *engine) keepBytecode(infoDir string) {
	if e.backupDir == "" {
		return
	}
	rows, err := recordRows(infoDir)
	if err != nil {
		return
	}
	lib := filepath.Dir(infoDir)
	held := filepath.Join(e.backupDir, "bytecode", strconv.Itoa(len(e.keptLibs)))
	e.keptLibs = append(e.keptLibs, lib)
	listed := map[string][]string{} // each __pycache__ read once, not once a module
	var kept []keptPyc
	dirs := map[string]bool{}
	for _, row := range rows {
		if len(row) < 2 || !strings.HasSuffix(row[0], ".py") || !strings.HasPrefix(row[1], "sha256=") {
			continue
		}
		src := row[0]
		if path.IsAbs(src) || filepath.IsAbs(filepath.FromSlash(src)) || strings.HasPrefix(path.Clean(src), "../") {
			continue
		}
		cacheRel := path.Join(path.Dir(src), "__pycache__")
		names, ok := listed[cacheRel]
		if !ok {
			ents, _ := os.ReadDir(filepath.Join(lib, filepath.FromSlash(cacheRel)))
			for _, en := range ents {
				names = append(names, en.Name())
			}
			listed[cacheRel] = names
		}
		stem := strings.TrimSuffix(path.Base(src), ".py") + "."
		for _, n := range names {
			if strings.HasPrefix(n, stem) && strings.HasSuffix(n, ".pyc") && strings.Count(n[len(stem):], ".") <= 2 {
				rel := path.Join(cacheRel, n)
				k := keptPyc{held: filepath.Join(held, filepath.FromSlash(rel)), lib: lib, rel: rel, src: src, sum: row[1]}
				kept = append(kept, k)
				dirs[filepath.Dir(k.held)] = true
			}
		}
	}
	for d := range dirs {
		if os.MkdirAll(d, 0o755) != nil {
			return
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
	for i, k := range kept {
		if ok[i] {
			e.keptPycs = append(e.keptPycs, k)
		}
	}
}

// putBackBytecode links the bytecode set aside back beside each module whose source the install
// step wrote unchanged, as the RECORDs of infoDirs (the dists it installed) say. It returns how many
// files went back.
func (e *engine) putBackBytecode(infoDirs []string) int {
	if len(e.keptPycs) == 0 {
		return 0
	}
	began := time.Now()
	now := map[string]string{} // lib + "\x00" + source → its hash in the new RECORD
	for _, d := range infoDirs {
		rows, err := recordRows(d)
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
	var back []keptPyc
	dirs := map[string]bool{}
	for _, k := range e.keptPycs {
		if now[k.lib+"\x00"+k.src] == k.sum {
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
	//i18n:raw the log, for support
	e.note(fmt.Sprintf("bytecode of %d unchanged modules put back, of %d set aside (Python need not compile them again): %.3f s", n.Load(), len(e.keptPycs), time.Since(began).Seconds()))
	return int(n.Load())
}
