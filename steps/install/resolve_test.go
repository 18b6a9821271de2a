package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
)

func TestReportArgvKeepsTheStagesChoices(t *testing.T) {
	dl := []string{"/v/bin/python", "-m", "pip", "download", "--no-input", "--disable-pip-version-check", "--progress-bar", "off",
		"--no-deps", "--index-url", "https://download.pytorch.org/whl/cu126", "-d", "/cache/x", "-c", "/c.txt", "torch==2.6.0+cu126"}
	got, err := reportArgv(dl, "/tmp/r.json", func(u string) string { return "http://127.0.0.1:1/i/0" })
	if err != nil {
		t.Fatal(err)
	}
	want := "/v/bin/python -m pip install --dry-run --ignore-installed --no-cache-dir --report /tmp/r.json --quiet --no-input --disable-pip-version-check --no-deps --index-url http://127.0.0.1:1/i/0 -c /c.txt torch==2.6.0+cu126"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, extra := range [][]string{{"--platform", "win_amd64"}, {"--find-links", "https://mirror/whl/torch_stable.html"}} {
		if _, err := reportArgv(append(append([]string{}, dl...), extra...), "r", func(u string) string { return u }); !errors.Is(err, errUsePip) {
			t.Errorf("%v: %v, want errUsePip", extra, err)
		}
	}
}

func TestParseReportTakesOnlyWheelsWithSHA256OverHTTP(t *testing.T) {
	none := func(string) (string, string, bool) { return "", "", false }
	ok := `{"version":"1","install":[{"download_info":{"url":"https://h/whl/torch-2.6.0%2Bcu126-cp311-cp311-linux_x86_64.whl","archive_info":{"hash":"sha256=` + strings.Repeat("AB", 32) + `"}},"metadata":{"name":"torch","version":"2.6.0+cu126"}}]}`
	files, err := parseReport([]byte(ok), none)
	if err != nil || len(files) != 1 || files[0].Name != "torch-2.6.0+cu126-cp311-cp311-linux_x86_64.whl" || files[0].SHA256 != strings.Repeat("ab", 32) {
		t.Fatalf("%+v %v", files, err)
	}
	for name, rep := range map[string]string{
		"sdist":   strings.Replace(ok, "linux_x86_64.whl", "linux_x86_64.tar.gz", 1),
		"file":    strings.Replace(ok, "https://h/", "file:///", 1),
		"no hash": strings.Replace(ok, `"hash":"sha256=`+strings.Repeat("AB", 32)+`"`, `"hash":"md5=abc"`, 1),
		"dir":     `{"version":"1","install":[{"download_info":{"url":"file:///src","dir_info":{}},"metadata":{"name":"x","version":"1"}}]}`,
		"empty":   `{"version":"1","install":[]}`,
	} {
		if _, err := parseReport([]byte(rep), none); !errors.Is(err, errUsePip) {
			t.Errorf("%s: %v, want errUsePip", name, err)
		}
	}
}

// Real pip resolves against the loopback index through the shim; every wheel then comes over
// the network exactly once (pip's dry run gets stubs), and a second run fetches nothing.
func TestStageResolvesWithPipAndFetchesEachWheelOnce(t *testing.T) {
	ix := serve(t)
	cache := filepath.Join(t.TempDir(), "cache")
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	var sizes int64
	for _, f := range buildWheels(t)["cu126"] {
		sizes += fileSize(t, f)
	}
	plan, out, events := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if !out.OK() {
		t.Fatalf("%+v", out)
	}
	rec := readWheelRecord(plan.StageDir) // the cache's record has every fetched wheel, as pip's stage would
	for _, f := range buildWheels(t)["cu126"] {
		sum, _ := fetch.FileSHA256(f)
		if r := rec.Wheels[filepath.Base(f)]; r.SHA256 != sum || r.From != ix.ChannelURL("cu126") || r.Size != fileSize(t, f) {
			t.Errorf("record of %s: %+v", filepath.Base(f), r)
		}
	}
	if !hasMessage(events, StepStage, "pip resolved 3 wheels") || hasMessage(events, StepStage, "downloading with pip") {
		t.Errorf("the stage did not go through the resolve and the fetch: %v", messages(events, StepStage))
	}
	if ix.BytesServed() != sizes || out.BytesDownloaded != sizes {
		t.Errorf("served %d bytes, outcome says %d; the wheels are %d bytes", ix.BytesServed(), out.BytesDownloaded, sizes)
	}
	for _, f := range buildWheels(t)["cu126"] {
		if n := ix.Requests(filepath.Base(f)); n != 1 {
			t.Errorf("%s was downloaded %d times", filepath.Base(f), n)
		}
	}
	var progress int
	for _, e := range events {
		if e.Progress != nil && e.StepID == StepStage && e.Progress.Total == sizes-fileSize(t, wheelNamed(t, "cu126", "torchaudio")) {
			progress++
		}
	}
	if progress == 0 {
		t.Errorf("no progress event with the stage's total")
	}
}

// An index without PEP 658 metadata (some mirrors) leaves the stage to pip download, and says so.
func TestStageWithoutMetadataDownloadsWithPip(t *testing.T) {
	ix := pyindex.ServeWith(t, buildWheels(t), pyindex.Network{NoMetadata: true})
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	_, out, events := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), filepath.Join(t.TempDir(), "cache")), nil)
	if !out.OK() {
		t.Fatalf("%+v", out)
	}
	if !hasMessage(events, StepStage, "no metadata apart from the wheels") || !hasMessage(events, StepStage, "downloading with pip") {
		t.Errorf("messages: %v", messages(events, StepStage))
	}
}

// A damaged byte in a served wheel: refused with the file and host named, nothing installed, the
// venv as it was; the partial file is gone.
func TestStageRefusesACorruptWheel(t *testing.T) {
	ix := serve(t)
	v := pyindex.NewVenv(t, "")
	before := freeze(t, v)
	cache := filepath.Join(t.TempDir(), "cache")
	ix.Corrupt("torchvision-0.21.0+cu126-py3-none-any.whl")
	plan, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if out.Result != ResultUnchanged || out.FailedStep != StepStage || !strings.Contains(out.Error, "torchvision-0.21.0+cu126-py3-none-any.whl") ||
		!strings.Contains(out.Error, strings.TrimPrefix(ix.URL, "http://")) || !strings.Contains(out.Error, "sha256") {
		t.Fatalf("%+v", out)
	}
	if after := freeze(t, v); after != before {
		t.Errorf("the venv changed:\n%s\n%s", before, after)
	}
	for _, suffix := range []string{"", ".part", ".part.json"} {
		if fileExists(filepath.Join(plan.StageDir, "torchvision-0.21.0+cu126-py3-none-any.whl"+suffix)) {
			t.Errorf("the bad wheel%s is still in the cache", suffix)
		}
	}
}

func messages(evs []Event, step string) []string {
	var out []string
	for _, e := range evs {
		if e.StepID == step && e.Message != "" {
			out = append(out, e.Message)
		}
	}
	return out
}

func wheelNamed(t *testing.T, ch, dist string) string {
	for _, f := range buildWheels(t)[ch] {
		if strings.HasPrefix(filepath.Base(f), dist+"-") {
			return f
		}
	}
	t.Fatalf("no %s wheel in %s", dist, ch)
	return ""
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func fileExists(path string) bool { _, err := os.Stat(path); return err == nil }
