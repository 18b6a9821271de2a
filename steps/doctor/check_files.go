package doctor

import (
	"bytes"
	"encoding/csv"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/shellquote"
)

// MissingFiles are the files a dist's RECORD lists that are not on disk (bytecode left out): a CUDA
// library deleted by hand or by a cleaner, or lost in a half-finished copy. torch 2.11 on cu130 still
// imports and multiplies without libcublasLt, so the framework's own check does not see it.
type MissingFiles struct {
	Dist    string   `json:"dist"`
	Version string   `json:"version"`
	Files   []string `json:"files"` // as RECORD names them, relative to site-packages; the first few
	Count   int      `json:"count"`
}

// RecordOutside is a dist whose RECORD names files outside its environment: a RECORD damaged on
// disk, or written by an installer or a wheel that should not have. gpuwiz never touches those
// files; a reinstall of the dist writes a RECORD that stays inside.
type RecordOutside struct {
	Dist    string   `json:"dist"`
	Version string   `json:"version"`
	Paths   []string `json:"paths"` // as the RECORD names them; the first few
	Count   int      `json:"count"`
}

// checksFilesOf: the framework's dists and the CUDA libraries and compilers they bring.
func checksFilesOf(name string) bool {
	n := pep.Normalize(name)
	return familyDist(n) || n == "triton" || strings.HasPrefix(n, "nvidia-") || strings.HasPrefix(n, "cuda-")
}

// findMissingFiles reads the RECORD of each dist checksFilesOf names in site-packages and looks for
// every file it lists; a file the RECORD names outside roots (the environment's own folders) is
// not looked for but listed in outside.
func findMissingFiles(fsys FS, goos, sitePackages string, dists []Dist, roots envroot.Roots) (missing []MissingFiles, outside []RecordOutside) {
	if sitePackages == "" {
		return nil, nil
	}
	entries, err := fsys.ReadDir(sitePackages)
	if err != nil {
		return nil, nil
	}
	infos := map[string]string{} // normalised name → dist-info folder
	for _, en := range entries {
		if name, _, ok := pep.DistInfo(en.Name()); ok && en.IsDir() {
			infos[name] = en.Name()
		}
	}
	for _, d := range dists {
		info, ok := infos[pep.Normalize(d.Name)]
		if !ok || !checksFilesOf(d.Name) {
			continue
		}
		b, err := fsys.ReadFile(joinFor(goos, sitePackages, info, "RECORD"))
		if err != nil {
			continue // no RECORD: leftovers and broken installs are other findings
		}
		m := MissingFiles{Dist: d.Name, Version: d.Version + d.LocalLabel}
		o := RecordOutside{Dist: d.Name, Version: d.Version + d.LocalLabel}
		var listed []string
		r := csv.NewReader(bytes.NewReader(b))
		r.FieldsPerRecord = -1
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil || len(rec) == 0 || rec[0] == "" {
				continue
			}
			p := rec[0]
			if roots.Has() && goos == runtime.GOOS {
				if _, inside := roots.Join(sitePackages, p); !inside {
					o.Count++
					if len(o.Paths) < 3 {
						o.Paths = append(o.Paths, p)
					}
					continue
				}
			}
			if strings.HasSuffix(p, ".pyc") || strings.Contains(p, "__pycache__") {
				continue
			}
			listed = append(listed, p)
		}
		// Thousands of files for torch: looked at from several goroutines (a stat waits on the disk,
		// on NTFS longer), the answers kept in RECORD's order.
		gone := make([]bool, len(listed))
		var g errgroup.Group
		g.SetLimit(statWorkers)
		for from := 0; from < len(listed); from += statBatch {
			g.Go(func() error {
				for i := from; i < min(from+statBatch, len(listed)); i++ {
					_, err := fsys.Stat(joinFor(goos, sitePackages, strings.Split(strings.ReplaceAll(listed[i], `\`, "/"), "/")...))
					gone[i] = err != nil
				}
				return nil
			})
		}
		_ = g.Wait()
		for i, p := range listed {
			if gone[i] {
				m.Count++
				if len(m.Files) < 3 {
					m.Files = append(m.Files, p)
				}
			}
		}
		if m.Count > 0 {
			missing = append(missing, m)
		}
		if o.Count > 0 {
			outside = append(outside, o)
		}
	}
	return missing, outside
}

// checkRecordOutside: a dist of the build whose RECORD names files outside the environment. gpuwiz
// leaves those files alone in every uninstall; a reinstall of the dist writes a RECORD that stays
// inside.
func checkRecordOutside(e *Evidence) []Finding {
	if len(e.RecordOutside) == 0 {
		return nil
	}
	var ev []string
	for _, o := range e.RecordOutside {
		paths := strings.Join(o.Paths, ", ")
		if o.Count > len(o.Paths) {
			paths = i18n.T("doctor.files_missing.more", i18n.D{"Files": paths, "More": strconv.Itoa(o.Count - len(o.Paths))})
		}
		ev = append(ev, i18n.N("doctor.record_outside.dist", o.Count, i18n.D{"Dist": o.Dist, "Version": o.Version, "Count": o.Count, "Paths": paths}))
	}
	return []Finding{{Code: CodeRecordOutside, Severity: SeverityWarning, Title: i18n.T("doctor.record_outside.title"), Evidence: ev,
		Fix: i18n.T("doctor.record_outside.fix")}}
}

// statWorkers look at a dist's files at once, statBatch files each turn (a goroutine per file
// costs more than the stat).
const statWorkers, statBatch = 8, 64

// checkMissingFiles: files the build's dists list but the disk lacks. A reinstall of the build puts
// back the framework's own dists; a CUDA library dist is put back by pip, at its version.
func checkMissingFiles(e *Evidence) []Finding {
	if len(e.MissingFiles) == 0 {
		return nil
	}
	var ev, others []string
	for _, m := range e.MissingFiles {
		files := strings.Join(m.Files, ", ")
		if m.Count > len(m.Files) {
			files = i18n.T("doctor.files_missing.more", i18n.D{"Files": files, "More": strconv.Itoa(m.Count - len(m.Files))})
		}
		ev = append(ev, i18n.N("doctor.files_missing.dist", m.Count, i18n.D{"Dist": m.Dist, "Version": m.Version, "Count": m.Count, "Files": files}))
	}
	for _, m := range outsideFamily(e.MissingFiles) {
		others = append(others, pep.Normalize(m.Dist)+"=="+m.Version)
	}
	fix := i18n.T("doctor.files_missing.fix_reinstall")
	if len(others) > 0 {
		argv := append([]string{e.Python.Path, "-m", "pip", "install", "--force-reinstall", "--no-deps"}, others...)
		fix = i18n.T("doctor.files_missing.fix_pip", i18n.D{"Command": shellquote.Command(e.GOOS, argv...)})
	}
	return []Finding{{Code: CodeFilesMissing, Severity: SeverityError, Title: i18n.T("doctor.files_missing.title"), Evidence: ev, Fix: fix}}
}

// outsideFamily are the dists of ms that a reinstall of the framework would keep as they are.
func outsideFamily(ms []MissingFiles) []MissingFiles {
	var out []MissingFiles
	for _, m := range ms {
		if !familyDist(m.Dist) {
			out = append(out, m)
		}
	}
	return out
}

// familyDist: a dist the install engine removes and puts back when it reinstalls a framework.
func familyDist(name string) bool {
	n := pep.Normalize(name)
	return slices.Contains(pep.TorchFamily, n) || slices.Contains(pep.PaddleDists, n)
}
