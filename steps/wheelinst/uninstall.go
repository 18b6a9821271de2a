package wheelinst

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Installed maps each dist installed in site (a .dist-info folder) by its PEP 503 name to that folder.
func Installed(site string, normalize func(string) string) map[string]string {
	out := map[string]string{}
	ents, _ := os.ReadDir(site)
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() || !strings.HasSuffix(n, ".dist-info") {
			continue
		}
		name, _, ok := strings.Cut(strings.TrimSuffix(n, ".dist-info"), "-")
		if ok {
			out[normalize(name)] = filepath.Join(site, n)
		}
	}
	return out
}

// Uninstall removes one dist as pip uninstall does: every file its RECORD names (paths relative to
// the folder above the .dist-info), the bytecode Python wrote beside each module, the folders left
// empty, and the .dist-info itself. It returns the files removed.
func Uninstall(infoDir string) ([]string, error) {
	lib := filepath.Dir(infoDir)
	f, err := os.Open(filepath.Join(infoDir, "RECORD"))
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	f.Close()
	if err != nil {
		return nil, err
	}
	var removed []string
	dirs := map[string]bool{infoDir: true}
	rm := func(p string) {
		if err := os.Remove(p); err == nil {
			removed = append(removed, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return
		}
		for d := filepath.Dir(p); len(d) > len(lib); d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	for _, row := range rows {
		if len(row) == 0 || row[0] == "" {
			continue
		}
		p := filepath.FromSlash(row[0])
		if !filepath.IsAbs(p) {
			p = filepath.Join(lib, p)
		}
		rm(p)
		if strings.HasSuffix(p, ".py") {
			stem := strings.TrimSuffix(filepath.Base(p), ".py")
			pycs, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "__pycache__", stem+".*.pyc"))
			for _, c := range pycs {
				rm(c)
			}
		}
	}
	// What Python or pip left in the dist-info (REQUESTED, direct_url.json) goes with it.
	_ = filepath.WalkDir(infoDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rm(p)
		}
		return nil
	})
	var list []string
	for d := range dirs {
		list = append(list, d)
		list = append(list, filepath.Join(d, "__pycache__"))
	}
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	for _, d := range list {
		os.Remove(d)
	}
	return removed, nil
}
