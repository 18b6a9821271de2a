package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

func TestReportArgvKeepsTheStagesChoices(t *testing.T) {
	pip := pipcmd.Pip{Python: "/v/bin/python"}
	dl := PipArgs{Sub: "download", Progress: "off", NoDeps: true, IndexURL: "https://download.pytorch.org/whl/cu126", Dest: "/cache/x",
		Constraints: []string{"/c.txt"}, Pins: []string{"torch==2.6.0+cu126"}}
	index := func(i int) string { return "http://127.0.0.1:1/i/" + strconv.Itoa(i) }
	links := func(i int) string { return "http://127.0.0.1:1/l/" + strconv.Itoa(i) + "/" }
	got, err := reportArgs(dl, "/tmp/r.json", index, links)
	if err != nil {
		t.Fatal(err)
	}
	want := "/v/bin/python -m pip install --dry-run --ignore-installed --no-cache-dir --report /tmp/r.json --quiet --no-input --disable-pip-version-check --no-deps --index-url http://127.0.0.1:1/i/0 -c /c.txt torch==2.6.0+cu126"
	if strings.Join(pipArgv(pip, got), " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(pipArgv(pip, got), " "), want)
	}
	withLinks := dl
	withLinks.FindLinks = []string{"https://mirror/whl/torch_stable.html"}
	if got, err := reportArgs(withLinks, "r", index, links); err != nil || !strings.Contains(strings.Join(pipArgv(pip, got), " "), "--find-links http://127.0.0.1:1/l/0/") {
		t.Errorf("a find-links page is the shim's too: %v %v", got, err)
	}
	notDownload := dl
	notDownload.Sub = "install"
	if _, err := reportArgs(notDownload, "r", index, links); !errors.Is(err, errUsePip) {
		t.Errorf("an install: %v, want errUsePip", err)
	}
}

func TestParseReportTakesOnlyWheelsOverHTTP(t *testing.T) {
	none := func(string) (fetch.File, bool, bool) { return fetch.File{}, false, false }
	ok := `{"version":"1","install":[{"download_info":{"url":"https://h/whl/torch-2.6.0%2Bcu126-cp311-cp311-linux_x86_64.whl","archive_info":{"hash":"sha256=` + strings.Repeat("AB", 32) + `"}},"metadata":{"name":"torch","version":"2.6.0+cu126"}}]}`
	files, _, err := parseReport([]byte(ok), none)
	if err != nil || len(files) != 1 || files[0].Name != "torch-2.6.0+cu126-cp311-cp311-linux_x86_64.whl" || files[0].SHA256 != strings.Repeat("ab", 32) {
		t.Fatalf("%+v %v", files, err)
	}
	// No sha256 (a flat page without #sha256=): taken, the downloader checks the zip.
	files, _, err = parseReport([]byte(strings.Replace(ok, `"hash":"sha256=`+strings.Repeat("AB", 32)+`"`, `"hash":"md5=abc"`, 1)), none)
	if err != nil || len(files) != 1 || files[0].SHA256 != "" {
		t.Fatalf("without a sha256: %+v %v", files, err)
	}
	for name, rep := range map[string]string{
		"sdist": strings.Replace(ok, "linux_x86_64.whl", "linux_x86_64.tar.gz", 1),
		"file":  strings.Replace(ok, "https://h/", "file:///", 1),
		"dir":   `{"version":"1","install":[{"download_info":{"url":"file:///src","dir_info":{}},"metadata":{"name":"x","version":"1"}}]}`,
		"empty": `{"version":"1","install":[]}`,
	} {
		if _, _, err := parseReport([]byte(rep), none); !errors.Is(err, errUsePip) {
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
	// One byte more of each: the ranged GET that asks for the size and range support.
	if ix.BytesServed() != sizes+int64(len(buildWheels(t)["cu126"])) || out.BytesDownloaded != sizes {
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

// An index without PEP 658 metadata (some mirrors) on a server that refuses HEAD: pip still
// resolves through the shim, which reads each wheel's metadata out of the remote zip with Range
// requests; every wheel then comes once, through gpuwiz's downloader.
func TestStageWithoutMetadataReadsItOutOfTheWheels(t *testing.T) {
	ix := pyindex.ServeWith(t, buildWheels(t), pyindex.Network{NoMetadata: true, NoHead: true})
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	var sizes int64
	for _, f := range buildWheels(t)["cu126"] {
		sizes += fileSize(t, f)
	}
	_, out, events := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), filepath.Join(t.TempDir(), "cache")), nil)
	if !out.OK() {
		t.Fatalf("%+v", out)
	}
	if hasMessage(events, StepStage, "downloading with pip") || !hasLine(events, StepStage, "read out of the remote zip") {
		t.Errorf("messages: %v", messages(events, StepStage))
	}
	if out.BytesDownloaded != sizes || ix.BytesServed() > sizes+sizes/20 {
		t.Errorf("fetched %d, served %d; the wheels are %d bytes", out.BytesDownloaded, ix.BytesServed(), sizes)
	}
}

// A flat find-links page without metadata and without #sha256 (the shape of several mirrors of
// PyTorch's wheels), its dependencies from an index beside it: the stage goes through the shim and
// the downloader; every wheel is checked as a zip, and the computed sha256 lands in the cache's
// record and the venv's requirements.lock.
func TestStageFromAFlatPageWithoutHashes(t *testing.T) {
	channels := map[string][]string{"cu126": buildWheels(t)["cu126"], "deps": {wheelNamed(t, "cu126", "gpuwiz_dep")}}
	ix := pyindex.ServeWith(t, channels, pyindex.Network{NoMetadata: true, NoHashes: true})
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	o := options(t, v, torchTarget(ix, "cu126"), filepath.Join(t.TempDir(), "cache"))
	o.FindLinks, o.Mirror = ix.FlatURL("cu126"), ix.ChannelURL("deps")
	plan, out, events := install(t, context.Background(), o, nil)
	if !out.OK() {
		t.Fatalf("%+v", out)
	}
	if hasMessage(events, StepStage, "downloading with pip") {
		t.Errorf("messages: %v", messages(events, StepStage))
	}
	torch := wheelNamed(t, "cu126", "torch")
	sum, _ := fetch.FileSHA256(torch)
	if r := readWheelRecord(plan.StageDir).Wheels[filepath.Base(torch)]; r.SHA256 != sum || r.From != ix.FlatURL("cu126") {
		t.Errorf("record of torch: %+v", r)
	}
	lock, _ := os.ReadFile(plan.LockFile)
	if !strings.Contains(string(lock), "sha256="+sum) {
		t.Errorf("requirements.lock:\n%s", lock)
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

func hasLine(evs []Event, step, sub string) bool {
	for _, e := range evs {
		if e.StepID == step && strings.Contains(e.Line, sub) {
			return true
		}
	}
	return false
}

// pip's raw progress lines get a rate and a time left, over files one after another.
func TestPipRateOverRawProgress(t *testing.T) {
	var r pipRate
	t0 := time.Unix(1000, 0)
	var last runner.Progress
	for i, d := range []int64{0, 10 << 20, 20 << 20, 30 << 20} { // 10 MiB a second
		last = runner.Progress{Done: d, Total: 40 << 20}
		r.add(&last, t0.Add(time.Duration(i)*time.Second))
	}
	if last.BytesPerSec < 9<<20 || last.BytesPerSec > 11<<20 || last.ETASeconds < 0.9 || last.ETASeconds > 1.1 {
		t.Errorf("%+v", last)
	}
	next := runner.Progress{Done: 5 << 20, Total: 8 << 20} // the next file: the count goes on
	r.add(&next, t0.Add(4*time.Second))
	if next.BytesPerSec < 4<<20 || next.ETASeconds <= 0 {
		t.Errorf("%+v", next)
	}
}
