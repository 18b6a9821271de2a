package install

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

//go:embed backup.py
var backupScript string

// manifest is what backup.py wrote: every file of every dist that the install may change, with
// the name of its hard link (or copy) in the backup's files/ dir.
type manifest struct {
	Purelib string `json:"purelib"`
	Platlib string `json:"platlib"`
	Dists   []struct {
		Name    string      `json:"name"`
		Version string      `json:"version"`
		Files   [][2]string `json:"files"` // original absolute path, name under files/
	} `json:"dists"`
	Moved [][2]string `json:"moved,omitempty"` // leftovers moved aside: original, backup path
}

// backupNames is every installed dist the install may replace: the framework family and any dist
// with a wheel in the stage dir (a dependency the install could upgrade).
func backupNames(families []string, staged []wheelInfo) []string {
	names := append([]string{}, families...)
	for _, w := range staged {
		names = append(names, w.name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func (e *engine) backup(ctx context.Context) error {
	staged, err := stagedWheels(e.plan.StageDir)
	if err != nil {
		return err
	}
	names, _ := json.Marshal(backupNames(e.plan.families, staged))
	if err := os.MkdirAll(e.backupDir, 0o755); err != nil {
		return err
	}
	// Go reads the dist-info RECORDs itself (no interpreter start-up); a layout it does not know
	// for sure (no or several site-packages, an egg-info dist among the names) goes to backup.py.
	if sites := siteDirs(e.plan.Had, e.plan.Venv); len(sites) > 0 {
		m, n, ok, err := backupDistInfo(sites, backupNames(e.plan.families, staged), filepath.Join(e.backupDir, "files"), e.prefixRoots())
		if err != nil {
			return i18n.Wrap(err, i18n.T("install.err.backup", i18n.D{"Err": err}))
		}
		if ok {
			e.manifest = m
			e.emitLine(Event{StepID: StepBackup, Line: i18n.N("install.event.backed_up", n, i18n.D{"Dists": i18n.N("install.event.dists", len(m.Dists))})})
			return e.writeManifest()
		}
	}
	res := e.run(ctx, StepBackup, runner.Cmd{Name: "backup", Argv: []string{e.py, "-c", backupScript, e.manifestPath(), e.backupDir, string(names)}, Env: e.plan.env})
	if res.Err != nil {
		return i18n.Wrap(res.Err, i18n.T("install.err.backup", i18n.D{"Err": res.Err}))
	}
	m, err := e.readManifest()
	if err != nil {
		return err
	}
	e.manifest = m
	n := 0
	for _, d := range m.Dists {
		n += len(d.Files)
	}
	if err := e.writeManifest(); err != nil { // readManifest kept only what lies inside the venv
		return err
	}
	e.emitLine(Event{StepID: StepBackup, Line: i18n.N("install.event.backed_up", n, i18n.D{"Dists": i18n.N("install.event.dists", len(m.Dists))})})
	return nil
}

// siteDirs is where the environment's dists live: purelib and platlib as its interpreter reported
// them when the plan was made (any kind of environment, whatever its layout), else, for the venv a
// run makes, its site-packages by the venv layout (exact there: gpuwiz made it).
func siteDirs(had pyenv.Installed, root string) []string {
	if had.Purelib != "" {
		var out []string
		for _, d := range []string{had.Purelib, had.Platlib} {
			if st, err := os.Stat(d); d != "" && err == nil && st.IsDir() && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
		return out
	}
	return venvSiteDirs(root)
}

// venvSiteDirs is the venv's site-packages by its layout: Lib\site-packages on Windows,
// lib/pythonX.Y/site-packages elsewhere (lib64 is the same directory where it exists). Nil when
// the layout is not exactly one such directory.
func venvSiteDirs(root string) []string {
	if st, err := os.Stat(filepath.Join(root, "Lib", "site-packages")); err == nil && st.IsDir() {
		return []string{filepath.Join(root, "Lib", "site-packages")}
	}
	found, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages"))
	if len(found) != 1 {
		return nil
	}
	return found
}

// backupDistInfo hard-links (or copies) every file of the named dists that lies inside roots into
// filesDir, reading each dist-info's METADATA and RECORD (a file outside is never removed, so it
// needs no backup, and a restore never writes there). ok is false when a named dist is not a
// dist-info one (an egg-info install), so the caller falls back to importlib.metadata in backup.py.
func backupDistInfo(sites, names []string, filesDir string, roots envroot.Roots) (m *manifest, files int, ok bool, err error) {
	want := map[string]bool{}
	for _, n := range names {
		want[pep.Normalize(n)] = true
	}
	m = &manifest{Purelib: sites[0], Platlib: sites[len(sites)-1]}
	if err := os.MkdirAll(filesDir, 0o755); err != nil {
		return nil, 0, false, err
	}
	// First what each dist's RECORD names inside the environment, then every file linked on every
	// core (a file a number: its place in that list), then the manifest in RECORD's order.
	type dist struct {
		name, version string
		from, to      int // its files in srcs
	}
	var dists []dist
	var srcs []string
	for _, site := range sites {
		entries, err := os.ReadDir(site)
		if err != nil {
			return nil, 0, false, err
		}
		for _, de := range entries {
			dir := de.Name()
			switch {
			case strings.HasSuffix(dir, ".egg-info"):
				if want[pep.Normalize(strings.SplitN(strings.TrimSuffix(dir, ".egg-info"), "-", 2)[0])] {
					return nil, 0, false, nil
				}
				continue
			case !strings.HasSuffix(dir, ".dist-info") || !de.IsDir():
				continue
			}
			name, version := distInfoMeta(filepath.Join(site, dir, "METADATA"))
			if name == "" || !want[pep.Normalize(name)] {
				continue
			}
			rec, err := os.Open(filepath.Join(site, dir, "RECORD"))
			if err != nil {
				return nil, 0, false, nil // no RECORD: let importlib.metadata decide
			}
			rows, err := csv.NewReader(rec).ReadAll()
			rec.Close()
			if err != nil {
				return nil, 0, false, nil
			}
			d := dist{name: name, version: version, from: len(srcs)}
			for _, row := range rows {
				if len(row) == 0 || row[0] == "" {
					continue
				}
				if src, inside := roots.Join(site, row[0]); inside {
					srcs = append(srcs, src)
				}
			}
			d.to = len(srcs)
			dists = append(dists, d)
		}
	}
	linked, err := linkAll(srcs, filesDir)
	if err != nil {
		return nil, 0, false, err
	}
	for _, d := range dists {
		md := struct {
			Name    string      `json:"name"`
			Version string      `json:"version"`
			Files   [][2]string `json:"files"`
		}{Name: d.name, Version: d.version, Files: [][2]string{}}
		for i := d.from; i < d.to; i++ {
			if linked[i] {
				files++
				md.Files = append(md.Files, [2]string{srcs[i], strconv.Itoa(i + 1)})
			}
		}
		m.Dists = append(m.Dists, md)
	}
	return m, files, true, nil
}

// linkAll hard-links (or copies) each regular file of srcs into dir as its place in srcs plus one,
// on every core; linked says which were. One gone already, a symlink or a directory is passed over,
// as importlib.metadata passes them over.
func linkAll(srcs []string, dir string) (linked []bool, err error) {
	linked = make([]bool, len(srcs))
	errs := make([]error, len(srcs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), 16, max(len(srcs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(srcs); i = int(next.Add(1)) - 1 {
				st, err := os.Lstat(srcs[i])
				if err != nil || !st.Mode().IsRegular() {
					continue
				}
				dst := filepath.Join(dir, strconv.Itoa(i+1))
				if os.Link(srcs[i], dst) != nil {
					errs[i] = linkOrCopy(srcs[i], dst)
				}
				linked[i] = errs[i] == nil
			}
		}()
	}
	wg.Wait()
	return linked, errors.Join(errs...)
}

// distInfoMeta reads Name and Version from a METADATA file's header block.
func distInfoMeta(path string) (name, version string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // the body starts
		}
		if v, ok := strings.CutPrefix(line, "Name:"); ok && name == "" {
			name = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "Version:"); ok && version == "" {
			version = strings.TrimSpace(v)
		}
	}
	return name, version
}

func (e *engine) manifestPath() string { return filepath.Join(e.backupDir, "manifest.json") }

func (e *engine) readManifest() (*manifest, error) {
	b, err := os.ReadFile(e.manifestPath())
	if err != nil {
		return nil, i18n.Wrap(err, i18n.T("install.err.manifest", i18n.D{"Err": err}))
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, i18n.Wrap(err, i18n.T("install.err.manifest", i18n.D{"Err": err}))
	}
	// The manifest is a file on disk: a path in it outside the venv is never written or moved.
	roots, backup := e.prefixRoots(), envroot.New(e.backupDir)
	for i := range m.Dists {
		m.Dists[i].Files = slices.DeleteFunc(m.Dists[i].Files, func(f [2]string) bool {
			return !roots.Inside(f[0]) || !backup.Inside(filepath.Join(e.backupDir, "files", f[1]))
		})
	}
	m.Moved = slices.DeleteFunc(m.Moved, func(mv [2]string) bool { return !roots.Removable(mv[0]) || !backup.Inside(mv[1]) })
	return &m, nil
}

// prefixRoots is the venv's prefix as the rule for the files gpuwiz touches knows it: the backup,
// its restore and what a run moves aside stay inside it.
func (e *engine) prefixRoots() envroot.Roots { return envroot.New(e.plan.Venv) }

func (e *engine) writeManifest() error {
	b, err := json.Marshal(e.manifest)
	if err != nil {
		return err
	}
	return atomicfile.Durable(e.manifestPath(), b, 0o644) // a restore after a power loss reads it
}

// linkOrCopy puts src at dst (replacing dst), as a hard link when the filesystem allows.
func linkOrCopy(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	_ = os.Remove(dst)
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
