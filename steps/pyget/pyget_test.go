package pyget

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/pyenv"
)

func noWinget(string) (string, error) { return "", errors.New("not found") }

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestPlanWingetWhenPresent(t *testing.T) {
	p, err := MakePlan(Options{Version: "3.12", GOOS: "windows", Env: env(map[string]string{"LOCALAPPDATA": "/lad"}),
		LookPath: func(n string) (string, error) {
			if n == "winget" {
				return `C:\winget.exe`, nil
			}
			return "", errors.New("no")
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := `C:\winget.exe install --id Python.Python.3.12 -e --scope user --silent --accept-package-agreements --accept-source-agreements`
	if p.Method != MethodWinget || strings.Join(p.Command, " ") != want {
		t.Fatalf("plan %+v\nwant %s", p, want)
	}
	if p.Target != filepath.Join("/lad", "Programs", "Python", "Python312", "python.exe") {
		t.Fatalf("target %s", p.Target)
	}
}

func TestPlanInstallerFromPythonOrgOrAMirror(t *testing.T) {
	o := Options{Version: "3.12", GOOS: "windows", Env: env(map[string]string{"LOCALAPPDATA": "/lad"}), LookPath: noWinget, CacheDir: "/cache"}
	p, err := MakePlan(o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != MethodInstaller || p.Version != "3.12.10" || p.URL != "https://www.python.org/ftp/python/3.12.10/python-3.12.10-amd64.exe" ||
		p.SHA256 != "67b5635e80ea51072b87941312d00ec8927c4db9ba18938f7ad2d27b328b95fb" {
		t.Fatalf("plan %+v", p)
	}
	for _, arg := range []string{"/quiet", "InstallAllUsers=0", "Include_launcher=1", "InstallLauncherAllUsers=0", "PrependPath=0"} {
		if !strings.Contains(strings.Join(p.Command, " "), arg) {
			t.Errorf("installer command lacks %s: %v", arg, p.Command)
		}
	}
	o.Mirror = Mirrors[0]
	p, _ = MakePlan(o)
	if p.URL != "https://mirrors.huaweicloud.com/python/3.12.10/python-3.12.10-amd64.exe" || p.SHA256 == "" {
		t.Fatalf("mirror: %+v", p)
	}
	// A version gpuwiz does not carry takes python.org's Sigstore bundle only, never the mirror's copy
	// (it would come from the same place as the file it checks).
	o.Version = "3.12.4"
	p, _ = MakePlan(o)
	if p.SHA256 != "" || len(p.sigstoreURLs) != 1 || p.sigstoreURLs[0] != "https://www.python.org/ftp/python/3.12.4/python-3.12.4-amd64.exe.sigstore" {
		t.Fatalf("3.12.4: %+v %v", p, p.sigstoreURLs)
	}
	for _, bad := range []Options{{Version: "2.7"}, {Version: "3.x"}, {Version: "3.9"}, {Version: "3.12", Mirror: "ftp://x"}, {Version: "3.12", Mirror: "http://127.example.com/"}, {Version: "3.12.4", SHA256: "abc"}} {
		bad.GOOS, bad.Env, bad.LookPath = "windows", o.Env, noWinget
		if _, err := MakePlan(bad); !errors.Is(err, ErrBadInput) {
			t.Errorf("%+v: want bad input, got %v", bad, err)
		}
	}
}

func TestPlanOnLinuxIsTheDistributionCommand(t *testing.T) {
	d := pyenv.ParseOSRelease("ID=ubuntu\nID_LIKE=debian\n")
	p, err := MakePlan(Options{Version: "3.12", GOOS: "linux", Distro: &d})
	if err != nil || p.Method != MethodDistro || p.Fix == nil || !strings.HasSuffix(p.Fix.Command, "apt install python3.12 python3.12-venv") {
		t.Fatalf("plan %+v %v", p, err)
	}
	if _, err := Run(context.Background(), Options{GOOS: "linux", Distro: &d}, p); err == nil {
		t.Fatal("Run installed something on Linux")
	}
}

// standIn is a python.org installer stand-in for Linux: "installing" links a real python as
// LOCALAPPDATA/Programs/Python/PythonXY/python.exe; /uninstall removes that folder. Each call is
// appended to calls.log; with WAIT set it says "started" and waits for that file first.
const standIn = `#!/bin/sh
echo "$*" >> "$STANDIN_DIR/calls.log"
dir="$LOCALAPPDATA/Programs/Python/Python$STANDIN_XY"
case " $* " in *" /uninstall "*) rm -rf "$dir"; exit 0;; esac
if [ -n "$STANDIN_WAIT" ]; then touch "$STANDIN_DIR/started"; while [ ! -e "$STANDIN_WAIT" ]; do sleep 0.05; done; fi
mkdir -p "$dir" && ln -s "$STANDIN_PYTHON" "$dir/python.exe"
`

type fixture struct {
	dir, local string
	python     pyenv.Interpreter
	srv        *httptest.Server // the mirror: the installer, and a bundle gpuwiz must not believe
	official   *httptest.Server // python.org: the bundle that publishes the installer's SHA-256
	body       []byte
	digest     []byte // what the .sigstore bundle publishes
	hold       chan struct{}
}

func newFixture(t *testing.T) *fixture {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	in, err := pyenv.Describe(context.Background(), py)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: t.TempDir(), local: t.TempDir(), python: in, body: []byte(standIn)}
	sum := sha256.Sum256(f.body)
	f.digest = sum[:]
	t.Setenv("STANDIN_DIR", f.dir)
	t.Setenv("STANDIN_PYTHON", in.Path)
	t.Setenv("STANDIN_XY", strings.ReplaceAll(in.MinorVersion(), ".", ""))
	t.Setenv("LOCALAPPDATA", f.local)
	mux := http.NewServeMux()
	file := "/" + in.Version + "/python-" + in.Version + "-amd64.exe"
	mux.HandleFunc(file, func(w http.ResponseWriter, r *http.Request) {
		if f.hold != nil {
			w.Header().Set("Content-Length", fmt.Sprint(len(f.body)))
			w.Write(f.body[:10])
			w.(http.Flusher).Flush()
			<-f.hold
			return
		}
		w.Write(f.body)
	})
	bundle := func(digest func() []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json", "messageSignature": {"messageDigest": {"algorithm": "SHA2_256", "digest": %q}, "signature": "x"}}`,
				base64.StdEncoding.EncodeToString(digest()))
		}
	}
	// The mirror's own copy of the bundle names another file's digest: were it read, every check
	// against it would fail.
	mux.HandleFunc(file+".sigstore", bundle(func() []byte { return make([]byte, sha256.Size) }))
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	org := http.NewServeMux()
	org.HandleFunc(file+".sigstore", bundle(func() []byte { return f.digest }))
	f.official = httptest.NewServer(org)
	t.Cleanup(f.official.Close)
	return f
}

func (f *fixture) options(t *testing.T, events *[]Event) Options {
	return Options{Version: f.python.Version, GOOS: "windows", Mirror: f.srv.URL + "/", Official: f.official.URL + "/",
		Env: env(map[string]string{"LOCALAPPDATA": f.local}), LookPath: noWinget, CacheDir: filepath.Join(f.dir, "cache"),
		OnEvent: func(e Event) {
			if events != nil {
				*events = append(*events, e)
			}
		}}
}

func (f *fixture) calls() string {
	b, _ := os.ReadFile(filepath.Join(f.dir, "calls.log"))
	return string(b)
}

// The installer comes from the mirror, its SHA-256 from the published Sigstore bundle; it is run
// per-user and quietly, and the new interpreter is found by discovery.
func TestInstallerFromAMirrorIsCheckedRunAndFound(t *testing.T) {
	f := newFixture(t)
	var events []Event
	o := f.options(t, &events)
	p, err := MakePlan(o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), o, p)
	if err != nil {
		t.Fatalf("run: %v\nevents %+v", err, events)
	}
	if !res.Installed || res.Python == nil || res.Python.Path != p.Target || res.Python.Version != f.python.Version || res.SHA256 != hex.EncodeToString(f.digest) {
		t.Fatalf("result %+v python %+v", res, res.Python)
	}
	if c := f.calls(); !strings.Contains(c, "/quiet InstallAllUsers=0 Include_launcher=1 InstallLauncherAllUsers=0 PrependPath=0") {
		t.Fatalf("installer called with %q", c)
	}
	var sawBytes, sawBundle bool
	for _, e := range events {
		sawBytes = sawBytes || e.Step == StepDownload && e.Done == int64(len(f.body)) && e.Total == int64(len(f.body))
		sawBundle = sawBundle || e.Step == StepChecksum && strings.Contains(e.Message, f.official.URL)
	}
	if !sawBytes || !sawBundle {
		t.Fatalf("no download progress or checksum source in the events: %+v", events)
	}
	// A second run reuses the checked installer instead of downloading it again.
	events = nil
	os.RemoveAll(filepath.Dir(p.Target))
	if _, err := Run(context.Background(), o, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(events), "reuse the installer already downloaded") {
		t.Fatalf("downloaded again: %+v", events)
	}
}

// A published checksum that does not match: the download is deleted and nothing is run.
func TestWrongChecksumRunsNothing(t *testing.T) {
	f := newFixture(t)
	other := sha256.Sum256([]byte("another file"))
	f.digest = other[:]
	o := f.options(t, nil)
	p, _ := MakePlan(o)
	res, err := Run(context.Background(), o, p)
	if !errors.Is(err, ErrChecksum) || res.Installed || !strings.Contains(err.Error(), "nothing was run") {
		t.Fatalf("want a checksum error, got %v %+v", err, res)
	}
	if c := f.calls(); c != "" {
		t.Fatalf("the installer ran: %q", c)
	}
	if left, _ := filepath.Glob(filepath.Join(o.CacheDir, "*")); len(left) != 0 {
		t.Fatalf("files left in the cache: %v", left)
	}
	// --sha256 given by hand that does not match is refused the same way.
	o.SHA256 = strings.Repeat("ab", 32)
	p, _ = MakePlan(o)
	if _, err := Run(context.Background(), o, p); !errors.Is(err, ErrChecksum) || f.calls() != "" {
		t.Fatalf("--sha256 mismatch: %v, calls %q", err, f.calls())
	}
}

// A cancel during the download deletes the partial file and runs nothing.
func TestCancelDuringDownloadLeavesNothing(t *testing.T) {
	f := newFixture(t)
	f.hold = make(chan struct{})
	defer close(f.hold)
	ctx, cancel := context.WithCancel(context.Background())
	o := f.options(t, nil)
	o.OnEvent = func(e Event) {
		if e.Step == StepDownload && e.Done > 0 {
			cancel()
		}
	}
	p, _ := MakePlan(o)
	res, err := Run(ctx, o, p)
	if err == nil || !res.Cancelled || res.Installed {
		t.Fatalf("want a cancelled result, got %v %+v", err, res)
	}
	if left, _ := filepath.Glob(filepath.Join(o.CacheDir, "*")); len(left) != 0 || f.calls() != "" {
		t.Fatalf("left %v, calls %q", left, f.calls())
	}
}

// A cancel while the installer runs waits for it, then uninstalls what it put in.
func TestCancelDuringInstallWaitsThenUninstalls(t *testing.T) {
	f := newFixture(t)
	goFile := filepath.Join(f.dir, "go")
	t.Setenv("STANDIN_WAIT", goFile)
	ctx, cancel := context.WithCancel(context.Background())
	o := f.options(t, nil)
	o.OnEvent = func(e Event) {
		if e.Step == StepInstall && strings.HasPrefix(e.Message, "cancel asked") {
			os.WriteFile(goFile, nil, 0o644) // the installer finishes only after the cancel
		}
	}
	p, _ := MakePlan(o)
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(f.dir, "started")); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	res, err := Run(ctx, o, p)
	if err == nil || !res.Cancelled || !res.Undone {
		t.Fatalf("want cancelled and undone, got %v %+v", err, res)
	}
	if _, err := os.Stat(filepath.Dir(p.Target)); !os.IsNotExist(err) {
		t.Fatalf("the installed Python is still there: %v", err)
	}
	calls := strings.Split(strings.TrimSpace(f.calls()), "\n")
	if len(calls) != 2 || !strings.Contains(calls[1], "/quiet /uninstall") {
		t.Fatalf("want the install then /uninstall, got %q", calls)
	}
}

// python.org unreachable: the mirror's own bundle is not taken instead (it would come from the same
// place as the file it checks). Nothing is downloaded or run, and the error says to pass --sha256.
func TestMirrorWithoutPythonOrgRunsNothing(t *testing.T) {
	f := newFixture(t)
	o := f.options(t, nil)
	f.official.Close()
	p, err := MakePlan(o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), o, p)
	if err == nil || !strings.Contains(err.Error(), "--sha256") || res.Installed {
		t.Fatalf("want a refusal naming --sha256, got %v %+v", err, res)
	}
	if c := f.calls(); c != "" {
		t.Fatalf("something ran: %s", c)
	}
	if _, err := os.Stat(p.Installer); err == nil {
		t.Fatalf("the installer was downloaded: %s", p.Installer)
	}
	// With --sha256 from python.org's release page the same mirror install goes ahead.
	o.SHA256 = hex.EncodeToString(f.digest)
	if p, err = MakePlan(o); err != nil {
		t.Fatal(err)
	}
	if res, err = Run(context.Background(), o, p); err != nil || !res.Installed {
		t.Fatalf("with --sha256: %v %+v", err, res)
	}
}
