package main

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// secret is the password every URL below carries; it must never be shown or written.
const secret = "SECRET"

// authIndex is a loopback torch 2.6.0 cu126 index (stub wheels) behind HTTP basic auth user:SECRET:
// a request without the credentials gets 401, so a command that works against it used them.
type authIndex struct {
	URL        string // http://user:SECRET@127.0.0.1:PORT
	authorized atomic.Int64
	refused    atomic.Int64
}

func serveAuthIndex(t *testing.T) *authIndex {
	t.Helper()
	dir := t.TempDir()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_86", "sm_90"}}
	files := pyindex.TorchFamily(t, dir, spec, 0)
	ix := pyindex.Serve(t, map[string][]string{"cu126": files})
	target, _ := url.Parse(ix.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	a := &authIndex{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != secret {
			a.refused.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="test index"`)
			http.Error(w, "credentials, please", http.StatusUnauthorized)
			return
		}
		a.authorized.Add(1)
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	a.URL = strings.Replace(srv.URL, "http://", "http://user:"+secret+"@", 1)
	return a
}

// gpuwizRun is one run of the real binary: what it printed.
type gpuwizRun struct {
	args           []string
	stdout, stderr string
	code           int
}

// TestCredentialsAreUsedButNeverShown feeds a URL with user:SECRET@ through every command and flag
// that takes one (install --index-url, --find-links and --mirror; doctor --fix with the same three;
// matrix check; a --sources file; python install --mirror) with the real binary, against a real
// loopback index that wants those credentials, and finds SECRET nowhere: not in stdout or stderr,
// not in the log files, requirements.lock, constraints.txt, venvs.json, the wheel cache's record
// or a doctor bundle. The install and matrix check succeed against the index, so the credentials
// were used.
func TestCredentialsAreUsedButNeverShown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and installs into a real venv")
	}
	python := pyindex.Python(t)
	exe := goBuild(t, "gpuwiz", nil)
	ix := serveAuthIndex(t)
	root := t.TempDir()
	home, config, cache, local := filepath.Join(root, "home"), filepath.Join(root, "config"), filepath.Join(root, "cache"), filepath.Join(root, "local")
	for _, d := range []string{home, config, cache, local} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(pyindex.PipEnv(t), "HOME="+home, "XDG_CONFIG_HOME="+config, "XDG_CACHE_HOME="+cache, "XDG_STATE_HOME="+filepath.Join(root, "state"),
		"APPDATA="+config, "LOCALAPPDATA="+local, "GPUWIZ_LANG=en", "NO_COLOR=1", "GPUWIZ_VERIFY_MATRIX_N=8")
	rig, err := filepath.Abs(filepath.Join("ui", "testdata", "e2e", "rig-rtx3060.json"))
	if err != nil {
		t.Fatal(err)
	}
	matrixFile, err := filepath.Abs(filepath.Join("testdata", "indexcheck", "matrix.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []gpuwizRun
	run := func(args ...string) gpuwizRun {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, root, strings.NewReader("")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r := gpuwizRun{args: args, stdout: out.String(), stderr: errb.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		runs = append(runs, r)
		return r
	}
	venv := filepath.Join(root, "venv")
	wheels := filepath.Join(root, "wheels")
	installLog := filepath.Join(root, "install.log")
	index := ix.URL + "/whl/cu126"
	install := []string{"--simulate", rig, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--python", python, "--venv", venv, "--cache-dir", wheels, "--no-pip-upgrade"}

	// A real install from the index that wants the credentials.
	if r := run(append(install, "--index-url", index, "--yes", "--log", installLog)...); r.code != 0 {
		t.Fatalf("install: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if ix.authorized.Load() == 0 {
		t.Fatal("the install never asked the index with the credentials")
	}
	for _, f := range []string{"requirements.lock", "constraints.txt"} {
		if _, err := os.Stat(filepath.Join(venv, f)); err != nil {
			t.Errorf("the install wrote no %s: %v", f, err)
		}
	}
	// The same with --json and --dry-run, and each of the other two flags.
	for _, flags := range [][]string{
		{"--index-url", index, "--json", "--dry-run"},
		{"--find-links", ix.URL + "/flat/cu126/", "--dry-run"},
		{"--find-links", ix.URL + "/flat/cu126/", "--json", "--dry-run"},
		{"--mirror", ix.URL, "--dry-run"},
		{"--mirror", ix.URL, "--json", "--dry-run"},
	} {
		if r := run(append(install, flags...)...); r.code != 0 {
			t.Errorf("install %v: exit %d\n%s\n%s", flags, r.code, r.stdout, r.stderr)
		}
	}
	// URLs that are refused: the error names them with the credentials hidden.
	bad := []string{"ftp://user:" + secret + "@mirror.example/simple", "user:" + secret + "@mirror.example/simple",
		"http://user:" + secret + "@mirror.example/simple", "https://user:" + secret + "@mirror.example/{cuda}"}
	for _, flag := range []string{"--index-url", "--find-links", "--mirror"} {
		for _, u := range bad[:3] {
			if r := run(append(install, flag, u, "--dry-run")...); r.code != 2 || !strings.Contains(r.stderr, "***@mirror.example") {
				t.Errorf("install %s %s: exit %d, stderr %q", flag, u, r.code, r.stderr)
			}
			if r := run("doctor", "--venv", venv, "--fix", flag, u); r.code != 2 || !strings.Contains(r.stderr, "***@mirror.example") {
				t.Errorf("doctor --fix %s %s: exit %d, stderr %q", flag, u, r.code, r.stderr)
			}
			if r := run("--matrix", matrixFile, "matrix", "check", "--framework", "torch", flag, u); r.code != 2 || !strings.Contains(r.stderr, "***@mirror.example") {
				t.Errorf("matrix check %s %s: exit %d, stderr %q", flag, u, r.code, r.stderr)
			}
		}
		// without --fix the source flags are refused too, and say so without the URL
		run("doctor", "--venv", venv, flag, index)
	}
	// doctor --fix on the installed venv with the index (and its plan in JSON), then a bundle of the logs.
	run("--simulate", rig, "doctor", "--venv", venv, "--fix", "--yes", "--index-url", index, "--cache-dir", wheels)
	run("--simulate", rig, "doctor", "--venv", venv, "--json", "--fix", "--yes", "--mirror", ix.URL, "--cache-dir", wheels)
	bundle := filepath.Join(root, "bundle.zip")
	run("--simulate", rig, "doctor", "--venv", venv, "--bundle", bundle)
	// matrix check reads the index with the credentials: torch 2.6.0 cu126 is there.
	before := ix.authorized.Load()
	if r := run("--matrix", matrixFile, "matrix", "check", "--framework", "torch", "--index-url", ix.URL+"/whl/{channel}", "--json"); !strings.Contains(r.stdout, "2.6.0") {
		t.Errorf("matrix check: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	run("--matrix", matrixFile, "matrix", "check", "--framework", "torch", "--mirror", ix.URL)
	if ix.authorized.Load() == before {
		t.Error("matrix check never asked the index with the credentials")
	}
	// A --sources file (the wizard's list of package sources) with a URL that is refused.
	// (The wizard reads it before it takes the screen; a good list is probed in the sources and ui tests.)
	badList := filepath.Join(root, "bad-sources.toml")
	entry := "schema = 1\n[[source]]\nid = \"auth\"\nname = \"a mirror with a password\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"%s\"\nseen = \"a test\"\n"
	writeTestFile(t, badList, strings.Replace(entry, "%s", bad[2], 1))
	if r := run("--sources", badList, "--simulate", rig); r.code != 2 || !strings.Contains(r.stderr, "***@mirror.example") {
		t.Errorf("--sources with a plain-http URL: exit %d, stderr %q", r.code, r.stderr)
	}
	writeTestFile(t, badList, strings.Replace(entry, "%s", bad[3], 1))
	if r := run("--sources", badList, "--simulate", rig); r.code != 2 || !strings.Contains(r.stderr, "***@mirror.example") {
		t.Errorf("--sources with a bad placeholder: exit %d, stderr %q", r.code, r.stderr)
	}
	// python install --mirror: refused (plain http to a public host), and accepted (its plan and download line).
	for _, u := range []string{bad[2], bad[0], "https://user:" + secret + "@mirror.example/python/"} {
		run("python", "install", "3.12", "--mirror", u)
		run("python", "install", "3.12", "--mirror", u, "--json")
	}

	for _, r := range runs {
		for name, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			if strings.Contains(text, secret) {
				t.Errorf("gpuwiz %s: %s shows the secret:\n%s", strings.Join(r.args, " "), name, text)
			}
		}
	}
	var scanned []string
	for _, dir := range []string{home, config, cache, local, filepath.Join(root, "state"), venv, wheels} {
		scanned = append(scanned, findSecret(t, dir)...)
	}
	for _, f := range []string{installLog, bundle} {
		scanned = append(scanned, findSecret(t, f)...)
	}
	for _, want := range []string{"requirements.lock", "constraints.txt", "venvs.json", "install.log", ".log", "bundle.zip"} {
		found := false
		for _, s := range scanned {
			found = found || strings.HasSuffix(s, want) || strings.Contains(s, want)
		}
		if !found {
			t.Errorf("no %s was written to look into (scanned %d files)", want, len(scanned))
		}
	}
	if ix.refused.Load() > 0 {
		t.Logf("the index refused %d requests without the credentials (pip asks without them first)", ix.refused.Load())
	}
}

// findSecret reads every file under path (a file or a folder; zip archives entry by entry) and
// fails the test for each that holds the secret. It returns the files it read.
func findSecret(t *testing.T, path string) []string {
	t.Helper()
	var read []string
	check := func(name string, data []byte) {
		read = append(read, name)
		if i := bytes.Index(data, []byte(secret)); i >= 0 {
			lo, hi := max(i-120, 0), min(i+60, len(data))
			t.Errorf("%s holds the secret: …%s…", name, data[lo:hi])
		}
	}
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if strings.HasSuffix(p, ".zip") {
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					continue
				}
				b, _ := io.ReadAll(rc)
				rc.Close()
				check(p+"!"+f.Name, b)
			}
		}
		check(p, data)
		return nil
	})
	return read
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
