package doctor

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// maxLogBytes is how much of each log goes into a bundle (its tail: the newest lines matter).
const maxLogBytes = 4 << 20

// BundleInput is what a bug-report bundle holds besides the report.
type BundleInput struct {
	Report     Report
	GPU        gpu.Report
	Runner     runner.Runner // runs pip freeze; nil skips it
	Env        Environ
	LogDirs    []string // gpuwiz's log directories: the venv's .gpuwiz/, the user cache dir
	CommandLog []byte   // the commands doctor itself ran
}

// LogDirs are where gpuwiz writes logs for a venv: the venv's .gpuwiz directory and the user cache dir.
func LogDirs(venv string) []string {
	var dirs []string
	if venv != "" {
		dirs = append(dirs, filepath.Join(venv, ".gpuwiz"))
	}
	if c, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "gpuwiz"))
	}
	return dirs
}

// envForBundle are the variables that explain a GPU environment.
var envForBundle = []string{"PATH", "PATHEXT", "CUDA_PATH", "CUDA_HOME", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH",
	"VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS",
	"PIP_CONFIG_FILE", "PIP_CACHE_DIR", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "TEMP", "TMP"}

// WriteBundle writes a zip for a bug report: the report (JSON and text), pip freeze, the GPU report,
// the environment and gpuwiz's logs, all with credentials redacted. It writes a temporary file and
// renames it, so a failure leaves no half-written bundle.
func WriteBundle(ctx context.Context, path string, in BundleInput) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now()})
		if err != nil {
			return err
		}
		_, err = w.Write([]byte(urls.Redact(string(data))))
		return err
	}
	rj, err := json.MarshalIndent(in.Report, "", "  ")
	if err != nil {
		return err
	}
	var text bytes.Buffer
	WriteText(&text, in.Report)
	gj, err := json.MarshalIndent(in.GPU, "", "  ")
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{{"report.json", rj}, {"report.txt", text.Bytes()}, {"gpu.json", gj}, {"env.txt", envDump(in.Env)}}
	if in.Runner != nil && in.Report.Python.Path != "" {
		env := []string(nil)
		if in.Env != nil {
			env = in.Env.Environ()
		}
		//i18n:raw the command, as the log names it
		out, res := capture(ctx, in.Runner, runner.Cmd{Name: "pip freeze", Argv: probePipArgv(ctx, in.Runner, in.Report.Python.Path, env, "freeze", "--all"), Env: env})
		if !res.OK() {
			out += fmt.Sprintf("\n# pip freeze failed: %v\n# %s\n", res.Err, strings.Join(res.Tail, "\n# ")) //i18n:raw a comment in pip-freeze.txt of a bug-report bundle, for support
		}
		files = append(files, struct {
			name string
			data []byte
		}{"pip-freeze.txt", []byte(out)})
	}
	if len(in.CommandLog) > 0 {
		files = append(files, struct {
			name string
			data []byte
		}{"logs/doctor-commands.log", in.CommandLog})
	}
	for _, f := range files {
		if err := add(f.name, f.data); err != nil {
			return err
		}
	}
	for i, dir := range in.LogDirs {
		for _, p := range logFiles(dir) {
			data, err := readTail(p, maxLogBytes)
			if err != nil {
				continue
			}
			rel, _ := filepath.Rel(dir, p)
			if err := add(fmt.Sprintf("logs/%d-%s/%s", i, filepath.Base(dir), filepath.ToSlash(rel)), data); err != nil {
				return err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := atomicfile.Write(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", i18n.T("doctor.bundle.cannot_write", i18n.D{"Path": path}), err)
	}
	return nil
}

func envDump(env Environ) []byte {
	var b bytes.Buffer
	for _, k := range envForBundle {
		if v, ok := lookup(env, k); ok {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		}
	}
	return b.Bytes()
}

func lookup(env Environ, k string) (string, bool) {
	if env == nil {
		return "", false
	}
	return env.LookupEnv(k)
}

// logFiles lists the log-like files under dir, sorted, skipping anything huge or binary-looking by name.
func logFiles(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".log", ".txt", ".json", ".lock", ".toml":
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func readTail(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		if _, err := f.Seek(st.Size()-max, 0); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}
