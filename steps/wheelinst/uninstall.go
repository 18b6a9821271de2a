package wheelinst

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/pep"
)

// Installed maps each dist installed in site (a .dist-info folder) by its PEP 503 name to that folder.
func Installed(site string) map[string]string {
	out := map[string]string{}
	ents, _ := os.ReadDir(site)
	for _, e := range ents {
		if name, _, ok := pep.DistInfo(e.Name()); ok && e.IsDir() {
			out[name] = filepath.Join(site, e.Name())
		}
	}
	return out
}

// Uninstall removes one dist as pip uninstall does: every file its RECORD names (paths relative to
// the folder above the .dist-info), the bytecode Python wrote beside each module, and what else is
// in the .dist-info; a folder that holds such files and nothing else goes whole, as pip's
// compress_for_rename has it, so a file the package made at run time keeps its folder. Only what
// lies inside the environment's roots is touched, as pip's uninstall keeps to sys.prefix: a path the
// RECORD names outside them (absolute, through .., through a symlinked folder) is left alone and
// returned in outside, and a folder goes whole only inside the roots and never a root itself. It
// returns the files removed, and the first path that could not be removed (a DLL a running Python
// holds on Windows) as its error, after trying all the others.
func Uninstall(infoDir string, roots envroot.Roots) (removed, outside []string, err error) {
	lib := filepath.Dir(infoDir)
	rows, err := readRecord(infoDir)
	if err != nil {
		return nil, nil, err
	}
	// What goes: the files named, that exist (keyed as the file system compares names).
	files := map[string]string{}
	refused := map[string]bool{}
	add := func(p string) {
		if st, err := os.Lstat(p); err == nil && !st.IsDir() {
			if !roots.Inside(p) {
				refused[p] = true
				return
			}
			files[normcase(p)] = p
		}
	}
	find := pycFinder{}
	for _, row := range rows {
		if len(row) == 0 || row[0] == "" {
			continue
		}
		p, ok := roots.Join(lib, row[0])
		if !ok {
			refused[p] = true
			continue
		}
		add(p)
		if strings.HasSuffix(p, ".py") {
			for _, pyc := range find.of(p) {
				add(pyc)
			}
		}
	}
	// What pip or Python left in the dist-info (REQUESTED, direct_url.json) goes with it.
	_ = filepath.WalkDir(infoDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			add(p)
		}
		return nil
	})
	// A folder that holds a file going and nothing that stays goes whole; shorter folders first,
	// so a folder inside one that goes is not walked again.
	parents := map[string]bool{}
	for _, p := range files {
		parents[filepath.Dir(p)] = true
	}
	var unchecked []string
	for d := range parents {
		unchecked = append(unchecked, d)
	}
	sort.Slice(unchecked, func(i, j int) bool { return len(unchecked[i]) < len(unchecked[j]) })
	// whole holds the folders that go whole, each as the file system compares it with a separator
	// after it (so that "torch" is not a prefix of "torchvision").
	whole := map[string]string{}
	wholeOf := func(key string) string {
		for prefix := range whole {
			if strings.HasPrefix(key, prefix) {
				return prefix
			}
		}
		return ""
	}
	for _, d := range unchecked {
		if wholeOf(normcase(d)) != "" || !roots.Removable(d) {
			continue
		}
		all := true
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				all = false
				return filepath.SkipAll
			}
			if !e.IsDir() {
				if _, ok := files[normcase(p)]; !ok {
					all = false
					return filepath.SkipAll
				}
			}
			return nil
		})
		if all {
			whole[normcase(d)+string(filepath.Separator)] = d
		}
	}
	var firstErr error
	keep := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) && firstErr == nil {
			firstErr = err
		}
	}
	inWhole := map[string][]string{}
	for key, p := range files {
		if w := wholeOf(key); w != "" {
			inWhole[w] = append(inWhole[w], p)
			continue
		}
		err := remove(p)
		if err == nil {
			removed = append(removed, p)
		}
		keep(err)
	}
	for prefix, d := range whole {
		err := removeAll(d)
		keep(err)
		for _, p := range inWhole[prefix] {
			// A folder that went only in part: the list names what did go.
			if _, serr := os.Lstat(p); err == nil || errors.Is(serr, fs.ErrNotExist) {
				removed = append(removed, p)
			}
		}
	}
	sort.Strings(removed)
	for p := range refused {
		outside = append(outside, p)
	}
	sort.Strings(outside)
	return removed, outside, firstErr
}

// remove and removeAll are the file system's; a test stands in a file Windows will not delete
// while a running Python has it loaded.
var remove, removeAll = os.Remove, RemoveTree

// normcase is a path as the file system compares it: Windows ignores case.
func normcase(p string) string {
	p = filepath.Clean(p)
	if runtime.GOOS == "windows" {
		return strings.ToLower(p)
	}
	return p
}

// RemoveTree is os.RemoveAll on every core, for a dist's folders of thousands of files: each
// folder's files go in the goroutine that lists it, its subfolders in goroutines of their own while
// fewer than treeWorkers run (else in line), the folder itself after them. A link is removed, never
// followed. Where anything failed, os.RemoveAll goes over what is left and its answer is returned,
// so a file that will not go (held open on Windows) is said as RemoveAll says it; a path that does
// not exist is no error.
func RemoveTree(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return os.RemoveAll(dir)
	}
	t := &treeRemover{sem: make(chan struct{}, treeWorkers)}
	t.remove(dir)
	if t.failed.Load() {
		return os.RemoveAll(dir)
	}
	return nil
}

const treeWorkers = 16

type treeRemover struct {
	sem    chan struct{}
	failed atomic.Bool
}

func (t *treeRemover) remove(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.failed.Store(true)
		return
	}
	var wg sync.WaitGroup
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() { // a file or a link (a link to a folder is not one: DirEntry is Lstat's)
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.failed.Store(true)
			}
			continue
		}
		select {
		case t.sem <- struct{}{}:
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-t.sem }()
				t.remove(p)
			}()
		default:
			t.remove(p)
		}
	}
	wg.Wait()
	if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.failed.Store(true)
	}
}
