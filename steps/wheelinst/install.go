package wheelinst

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gpuwiz/steps/i18n"
)

//go:embed scripts.py
var helperScript string

// Scheme is where pip installs in one environment.
type Scheme struct {
	Purelib    string `json:"purelib"`
	Platlib    string `json:"platlib"`
	Scripts    string `json:"scripts"`
	Data       string `json:"data"`
	Executable string `json:"executable"` // the interpreter data scripts' #!python points at
	Umask      int    `json:"umask"`
}

// Python runs the environment's interpreter with args and returns its stdout; the engine's runner
// (which logs it) and tests each provide one.
type Python func(ctx context.Context, args ...string) ([]byte, error)

// CommandPythonEnv is a Python that runs exe directly, with the environment env (nil: this process's).
func CommandPythonEnv(exe string, env []string) Python {
	return func(ctx context.Context, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
}

// SchemeOf asks the environment's pip where it would install.
func SchemeOf(ctx context.Context, py Python) (Scheme, error) {
	out, err := py(ctx, "-c", helperScript, "paths")
	if err != nil {
		return Scheme{}, err
	}
	return parseScheme(out)
}

// Options tune an install.
type Options struct {
	Cache     string // folder of unpacked wheels ("" = unpack straight from the archives)
	Workers   int    // files written at once (0 = two per core)
	Installer string // what INSTALLER says ("" = gpuwiz)
	// Launchers makes the entry-point launchers from makeScripts's jobs (a running Helper's
	// Launchers); nil: the environment's Python is started for them.
	Launchers func(ctx context.Context, jobs []byte) ([]byte, error)
}

// Dist is what was installed of one wheel.
type Dist struct {
	Wheel   string   `json:"wheel"`
	InfoDir string   `json:"info_dir"` // absolute path of the installed .dist-info
	Files   int      `json:"files"`
	Scripts []string `json:"scripts,omitempty"` // entry-point launchers made
}

// Result says what an install did.
type Result struct {
	Dists  []Dist `json:"dists"`
	Linked int    `json:"linked"` // files hard-linked from the unpacked cache
	Copied int    `json:"copied"` // files copied or unpacked
	Bytes  int64  `json:"bytes"`
	// Where the time went: reading the archives' directories, unpacking into the cache, writing
	// (linking) into the environment, the launchers, RECORD and the rest.
	Phases Phases `json:"phases"`
}

// Phases are an install's parts, each how long it took.
type Phases struct {
	Open, Unpack, Write, Scripts, Record time.Duration
}

// Unsupported names the first wheel of wheels this installer leaves to pip, and why.
func Unsupported(wheels []Wheel) (string, error) {
	for _, w := range wheels {
		a, err := openWheel(w)
		if err != nil {
			return w.Path, err
		}
		a.close()
	}
	return "", nil
}

// placed is one file to write: where from, where to, how.
type placed struct {
	a      *archive
	f      *zip.File
	dest   string
	exec   bool
	script bool // a data script: copied, and #!python rewritten
}

// Install writes wheels into the environment of scheme. The caller has removed what they replace
// (pip's own rule: a file in the way is unlinked and written again). On error, what was written is
// named in the error's files (the engine's restore puts the environment back).
func Install(ctx context.Context, py Python, s Scheme, wheels []Wheel, opt Options) (Result, error) {
	var res Result
	if opt.Installer == "" {
		opt.Installer = "gpuwiz"
	}
	if opt.Workers <= 0 {
		opt.Workers = 2 * runtime.NumCPU()
	}
	mark := time.Now()
	lap := func(d *time.Duration) { now := time.Now(); *d = now.Sub(mark); mark = now }
	archives, err := openAll(wheels, opt.Workers)
	defer func() {
		for _, a := range archives {
			if a != nil {
				a.close()
			}
		}
	}()
	if err != nil {
		return res, err
	}
	var files []placed
	libOf := map[*archive]string{}
	for _, a := range archives {
		lib := s.Platlib
		if a.purelib {
			lib = s.Purelib
		}
		libOf[a] = lib
		for _, f := range a.members {
			p, skip, err := place(a, f, s, lib)
			if err != nil {
				return res, err
			}
			if !skip {
				files = append(files, p)
			}
		}
	}
	lap(&res.Phases.Open)
	caches := map[*archive]string{}
	if opt.Cache != "" {
		var hashed []*archive
		for _, a := range archives {
			if a.w.SHA256 != "" {
				hashed = append(hashed, a)
			}
		}
		caches, _ = ensureUnpackedAll(ctx, opt.Cache, hashed, opt.Workers, s.Umask) // a wheel not unpacked is written from its archive
	}
	lap(&res.Phases.Unpack)
	linked, copied, written, err := writeAll(ctx, files, caches, s, opt.Workers)
	res.Linked, res.Copied, res.Bytes = linked, copied, written
	lap(&res.Phases.Write)
	// Whatever fails from here on takes back every file this call wrote: the caller's restore then
	// finds the environment as the previous step left it.
	var made [][]string
	defer func() {
		if err != nil {
			rollback(files, made)
		}
	}()
	if err != nil {
		return res, err
	}
	made, err = makeScripts(ctx, py, opt.Launchers, s, archives)
	if err != nil {
		return res, err
	}
	lap(&res.Phases.Scripts)
	for i, a := range archives {
		lib := libOf[a]
		d := Dist{Wheel: filepath.Base(a.w.Path), InfoDir: filepath.Join(lib, filepath.FromSlash(a.infoDir)), Scripts: made[i]}
		var mine []placed
		for _, p := range files {
			if p.a == a {
				mine = append(mine, p)
			}
		}
		d.Files = len(mine)
		if err = writeRecord(a, lib, mine, made[i], opt.Installer, s.Umask); err != nil {
			return res, err
		}
		res.Dists = append(res.Dists, d)
	}
	lap(&res.Phases.Record)
	return res, nil
}

// openAll opens and reads the wheels side by side (torch's holds some 12,000 members and a RECORD
// as long): archives[i] is wheels[i]'s, nil where opening failed; the error is the first wheel's
// in order that failed.
func openAll(wheels []Wheel, workers int) ([]*archive, error) {
	archives := make([]*archive, len(wheels))
	errs := make([]error, len(wheels))
	var g errgroup.Group
	g.SetLimit(workers)
	for i, w := range wheels {
		g.Go(func() error {
			archives[i], errs[i] = openWheel(w)
			return nil
		})
	}
	_ = g.Wait()
	for i, err := range errs {
		if err != nil {
			return archives, fmt.Errorf("%s: %w", filepath.Base(wheels[i].Path), err)
		}
	}
	return archives, nil
}

// rollback removes what an install wrote (files, launchers, the dist-info's generated files) and
// the folders it left empty.
func rollback(files []placed, made [][]string) {
	dirs := map[string]bool{}
	for _, p := range files {
		os.Remove(p.dest)
		for d := filepath.Dir(p.dest); d != filepath.Dir(d); d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	for _, m := range made {
		for _, f := range m {
			os.Remove(f)
		}
	}
	for _, a := range files {
		if strings.HasSuffix(a.f.Name, "/RECORD") {
			info := filepath.Dir(a.dest)
			for _, g := range []string{"INSTALLER", "direct_url.json", "REQUESTED", "RECORD"} {
				os.Remove(filepath.Join(info, g))
			}
		}
	}
	var list []string
	for d := range dirs {
		list = append(list, d)
	}
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	for _, d := range list {
		os.Remove(d) // only an empty one goes
	}
}

// place says where a member goes (pip's make_root_scheme_file / make_data_scheme_file).
func place(a *archive, f *zip.File, s Scheme, lib string) (placed, bool, error) {
	p := placed{a: a, f: f, exec: isExecutable(f)}
	top, rest, _ := strings.Cut(f.Name, "/")
	base := lib
	sub := f.Name
	if top == a.dataDir {
		key, tail, _ := strings.Cut(rest, "/")
		base = map[string]string{"purelib": s.Purelib, "platlib": s.Platlib, "scripts": s.Scripts, "data": s.Data}[key]
		sub = tail
		if key == "scripts" {
			p.script = true
		}
	}
	p.dest = filepath.Join(base, filepath.FromSlash(sub))
	if rel, err := filepath.Rel(base, p.dest); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p, false, errors.New(i18n.T("wheelinst.err.outside", i18n.D{"Wheel": filepath.Base(a.w.Path), "File": f.Name, "Dir": base}))
	}
	if p.script && a.isEntryPointWrapper(p.dest) {
		return p, true, nil
	}
	return p, false, nil
}

// isExecutable is pip's zip_item_is_executable.
func isExecutable(f *zip.File) bool {
	mode := fs.FileMode(f.ExternalAttrs >> 16)
	unix := f.ExternalAttrs >> 16
	return unix != 0 && unix&0o170000 == 0o100000 && mode&0o111 != 0
}

func fileMode(exec bool, umask int) fs.FileMode {
	if exec {
		return fs.FileMode(0o777&^umask | 0o111)
	}
	return fs.FileMode(0o666 &^ umask)
}

// writeAll writes every file on opt.Workers goroutines: a hard link from the unpacked cache where
// the wheel is there and the file is not a script to rewrite, else a copy.
func writeAll(ctx context.Context, files []placed, caches map[*archive]string, s Scheme, workers int) (linked, copied int, written int64, err error) {
	var mu sync.Mutex
	dirs := sync.Map{}
	mkdir := func(dir string) error {
		if _, ok := dirs.Load(dir); ok {
			return nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		dirs.Store(dir, true)
		return nil
	}
	// Larger files first: the last worker does not start a 1 GB library when the others are idle.
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return files[order[i]].f.UncompressedSize64 > files[order[j]].f.UncompressedSize64
	})
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, i := range order {
		if gctx.Err() != nil {
			break // a file failed, or the install was cancelled
		}
		g.Go(func() error {
			p := files[i]
			l, n, err := writeOne(p, caches[p.a], s, mkdir)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", filepath.Base(p.a.w.Path), p.f.Name, err)
			}
			mu.Lock()
			if l {
				linked++
			} else {
				copied++
			}
			written += n
			mu.Unlock()
			return nil
		})
	}
	err = g.Wait()
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return linked, copied, written, err
}

func writeOne(p placed, cacheDir string, s Scheme, mkdir func(string) error) (bool, int64, error) {
	if err := mkdir(filepath.Dir(p.dest)); err != nil {
		return false, 0, err
	}
	// pip unlinks a file in the way before writing (a loaded shared object keeps its old copy).
	if err := os.Remove(p.dest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, 0, err
	}
	if cacheDir != "" && !p.script {
		src := filepath.Join(cacheDir, filepath.FromSlash(p.f.Name))
		if err := os.Link(src, p.dest); err == nil {
			return true, int64(p.f.UncompressedSize64), nil
		}
	}
	var r io.ReadCloser
	var err error
	if cacheDir != "" {
		r, err = os.Open(filepath.Join(cacheDir, filepath.FromSlash(p.f.Name)))
	} else {
		r, err = p.f.Open()
	}
	if err != nil {
		return false, 0, err
	}
	defer r.Close()
	out, err := os.OpenFile(p.dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode(false, s.Umask))
	if err != nil {
		return false, 0, err
	}
	var n int64
	fixed := false
	if p.script {
		n, fixed, err = copyScript(out, r, s.Executable)
	} else {
		n, err = io.Copy(out, r)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	_ = fixed // pip 23+ keeps a rewritten script's mode: executable only when the archive says so
	if err == nil && p.exec {
		err = os.Chmod(p.dest, fileMode(true, s.Umask))
	}
	return false, n, err
}

// copyScript is pip's fix_script: "#!python" on the first line becomes "#!" + the interpreter.
func copyScript(out io.Writer, r io.Reader, exe string) (int64, bool, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return 0, false, err
	}
	fixed := bytes.HasPrefix(b, []byte("#!python"))
	if fixed {
		nl := bytes.IndexByte(b, '\n')
		rest := []byte{}
		if nl >= 0 {
			rest = b[nl+1:]
		}
		eol := "\n"
		if runtime.GOOS == "windows" {
			eol = "\r\n"
		}
		b = append([]byte("#!"+exe+eol), rest...)
	}
	n, err := out.Write(b)
	return int64(n), fixed, err
}

// makeScripts has the environment's pip make every dist's entry-point launchers in one run: through
// launchers when given (a Python already running), else a Python started now.
func makeScripts(ctx context.Context, py Python, launchers func(context.Context, []byte) ([]byte, error), s Scheme, archives []*archive) ([][]string, error) {
	type job struct {
		ScriptsDir string            `json:"scripts_dir"`
		Console    map[string]string `json:"console"`
		GUI        map[string]string `json:"gui"`
	}
	jobs := make([]job, len(archives))
	any := false
	for i, a := range archives {
		jobs[i] = job{ScriptsDir: s.Scripts, Console: a.console, GUI: a.gui}
		any = any || len(a.console)+len(a.gui) > 0
	}
	made := make([][]string, len(archives))
	if !any {
		return made, nil
	}
	in, _ := json.Marshal(jobs)
	var out []byte
	var err error
	if launchers != nil {
		out, err = launchers(ctx, in)
	}
	if launchers == nil || err != nil && ctx.Err() == nil {
		// No Python running, or it ended without an answer: one started now makes them (the same
		// maker overwrites whatever the first made).
		out, err = startForScripts(ctx, py, in)
	}
	if err != nil {
		return nil, i18n.Wrap(err, i18n.T("wheelinst.err.launchers", i18n.D{"Err": err}))
	}
	if err := json.Unmarshal(out, &made); err != nil || len(made) != len(archives) {
		return nil, errors.New(i18n.T("wheelinst.err.launchers_answer", i18n.D{"Out": string(out)}))
	}
	return made, nil
}

// startForScripts runs the environment's Python on the jobs (a file: its command line stays short).
func startForScripts(ctx context.Context, py Python, in []byte) ([]byte, error) {
	f, err := os.CreateTemp("", "gpuwiz-scripts-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return py(ctx, "-c", helperScript, "scripts", f.Name())
}

// hashFile is RECORD's "sha256=<urlsafe base64, no padding>" and the size.
func hashFile(p string) (string, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", "", err
	}
	return "sha256=" + base64.RawURLEncoding.EncodeToString(h.Sum(nil)), strconv.FormatInt(n, 10), nil
}

// recordPath is pip's _fs_to_record_path: relative to lib when on the same drive, with slashes.
func recordPath(p, lib string) string {
	if strings.EqualFold(filepath.VolumeName(p), filepath.VolumeName(lib)) {
		if rel, err := filepath.Rel(lib, p); err == nil {
			p = rel
		}
	}
	return filepath.ToSlash(p)
}

// writeRecord writes INSTALLER, direct_url.json, REQUESTED and RECORD as pip's
// get_csv_rows_for_installed does.
func writeRecord(a *archive, lib string, mine []placed, scripts []string, installer string, umask int) error {
	info := filepath.Join(lib, filepath.FromSlash(a.infoDir))
	gen := func(name string, body []byte) (string, error) {
		p := filepath.Join(info, name)
		tmp := p + ".gpuwiz-tmp"
		if err := os.WriteFile(tmp, body, fileMode(false, umask)); err != nil {
			return "", err
		}
		if err := os.Chmod(tmp, fileMode(false, umask)); err != nil {
			return "", err
		}
		return p, os.Rename(tmp, p)
	}
	generated := append([]string{}, scripts...)
	p, err := gen("INSTALLER", []byte(installer+"\n"))
	if err != nil {
		return err
	}
	generated = append(generated, p)
	if a.w.DirectURL != nil {
		p, err := gen("direct_url.json", a.w.DirectURL)
		if err != nil {
			return err
		}
		generated = append(generated, p)
	}
	if a.w.Requested {
		p, err := gen("REQUESTED", nil)
		if err != nil {
			return err
		}
		generated = append(generated, p)
	}
	installed := map[string]string{}
	changed := map[string]bool{}
	var installedOrder []string
	for _, p := range mine {
		np := recordPath(p.dest, lib)
		if _, dup := installed[p.f.Name]; !dup {
			installedOrder = append(installedOrder, p.f.Name)
		}
		installed[p.f.Name] = np
		if p.script {
			changed[np] = true // rehashed below; an unchanged script hashes the same
		}
	}
	var rows [][3]string
	for _, row := range a.record {
		if len(row) == 0 {
			continue
		}
		old := row[0]
		np, ok := installed[old]
		if ok {
			delete(installed, old)
		} else {
			np = old
		}
		var digest, size string
		if changed[np] {
			if digest, size, err = hashFile(filepath.Join(lib, filepath.FromSlash(np))); err != nil {
				return err
			}
		} else {
			if len(row) > 1 {
				digest = row[1]
			}
			if len(row) > 2 {
				size = row[2]
			}
		}
		rows = append(rows, [3]string{np, digest, size})
	}
	for _, g := range generated {
		digest, size, err := hashFile(g)
		if err != nil {
			return err
		}
		rows = append(rows, [3]string{recordPath(g, lib), digest, size})
	}
	for _, src := range installedOrder {
		if np, ok := installed[src]; ok {
			rows = append(rows, [3]string{np, "", ""})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		for k := 0; k < 3; k++ {
			if rows[i][k] != rows[j][k] {
				return rows[i][k] < rows[j][k]
			}
		}
		return false
	})
	var b bytes.Buffer
	for _, r := range rows {
		b.WriteString(csvField(r[0]) + "," + csvField(r[1]) + "," + csvField(r[2]) + "\r\n")
	}
	_, err = gen("RECORD", b.Bytes())
	return err
}

// csvField quotes as Python's csv module does by default (QUOTE_MINIMAL, lineterminator \r\n).
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
