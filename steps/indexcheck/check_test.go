package indexcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/testkit/pyindex"
)

var both = []string{"linux", "windows"}

// The loopback index of the tests: cu126 serves every declared wheel, and a torch 2.7.0 the matrix
// lacks; cu124 has no Windows torchvision (a phantom row); cu129 serves Windows wheels too although
// the matrix says Linux only; torchaudio is missing on cu129, where the matrix marks it optional.
func realisticIndex(t *testing.T) *pyindex.Index {
	py := []string{"3.11", "3.12"}
	cu124 := pyindex.Torch("2.6.0", "", "2.6.0", "cu124", py, both)
	cu124 = append(cu124, pyindex.Torch("", "0.21.0", "", "cu124", py, []string{"linux"})...)
	return pyindex.ServeNames(t, map[string][]string{
		"cu124": cu124,
		"cu126": append(pyindex.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, both),
			append(pyindex.Torch("2.7.0", "0.22.0", "2.7.0", "cu126", py, both),
				"torch-2.8.0.dev20250601+cu126-cp312-cp312-win_amd64.whl", "torch-2.5.0+cu126-cp312-cp312-win_amd64.whl")...),
		"cu129":  pyindex.Torch("2.6.0", "0.21.0", "", "cu129", py, both),
		"cu126p": pyindex.Paddle("3.2.0", py, both),
	})
}

func testMatrix(t *testing.T) *matrix.Matrix {
	m, err := matrix.LoadFile(filepath.Join("..", "..", "testdata", "indexcheck", "matrix.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func row(t *testing.T, rep indexcheck.Report, fw, v, ch string) indexcheck.Result {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Framework == fw && r.Version == v && r.Channel == ch {
			return r
		}
	}
	t.Fatalf("no row %s %s %s in %+v", fw, v, ch, rep.Rows)
	return indexcheck.Result{}
}

func TestCheckMatrixAgainstALoopbackIndex(t *testing.T) {
	ix := realisticIndex(t)
	m := testMatrix(t)
	// the paddle row's pages live under /paddle/cu126p on the mirror: point only torch at the mirror
	rep := indexcheck.CheckMatrix(context.Background(), m, []string{"torch"}, &indexcheck.Fetcher{Timeout: 5 * time.Second}, indexcheck.Source{Mirror: ix.URL}, 4)

	ok := row(t, rep, "torch", "2.6.0", "cu126")
	if ok.Status != indexcheck.Served || len(ok.Missing)+len(ok.OptionalMissing)+len(ok.CouldNotLook) != 0 {
		t.Errorf("cu126: %+v", ok)
	}
	ph := row(t, rep, "torch", "2.6.0", "cu124")
	if ph.Status != indexcheck.Phantom || len(ph.Missing) != 1 || ph.Missing[0].Package != "torchvision" || ph.Missing[0].OS != "windows" ||
		!slices.Equal(ph.Missing[0].Pythons, []string{"3.11", "3.12"}) || ph.Missing[0].Version != "0.21.0+cu124" {
		t.Errorf("cu124 phantom: %+v", ph)
	}
	if !strings.Contains(ph.Reason(), "the index has no torchvision==0.21.0+cu124 for Windows (Python 3.11, 3.12)") {
		t.Errorf("reason %q", ph.Reason())
	}
	lin := row(t, rep, "torch", "2.6.0", "cu129")
	if lin.Status != indexcheck.Served || !slices.Equal(lin.OS, []string{"linux"}) || !slices.Equal(lin.ExtraOS, []string{"windows"}) {
		t.Errorf("cu129 (Linux only, Windows wheels served): %+v", lin)
	}
	if len(lin.OptionalMissing) != 1 || lin.OptionalMissing[0].Package != "torchaudio" || lin.OptionalMissing[0].OS != "linux" {
		t.Errorf("cu129 optional torchaudio: %+v", lin.OptionalMissing)
	}
	// extra: 2.7.0 on cu126 (not 2.5.0, older than the matrix; not the dev build)
	if e := rep.Extra; len(e) != 1 || e[0].Framework != "torch" || e[0].Version != "2.7.0" || e[0].Channel != "cu126" || !slices.Equal(e[0].OS, both) {
		t.Errorf("extra %+v", rep.Extra)
	}
	if p, u := rep.Phantoms(); p != 1 || u != 0 {
		t.Errorf("phantoms %d unknown %d", p, u)
	}
}

// A page that does not answer, or answers with something that is not an index page, is "could not
// look", never "missing".
func TestBrokenPagesAreCouldNotLookNeverMissing(t *testing.T) {
	m := testMatrix(t)
	for _, how := range []string{"garbage", "json", "500", "empty"} {
		ix := realisticIndex(t)
		ix.Break("cu126", how)
		rep := indexcheck.CheckMatrix(context.Background(), m, []string{"torch"}, &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, 2)
		r := row(t, rep, "torch", "2.6.0", "cu126")
		if r.Status != indexcheck.CouldNotLook || len(r.Missing) != 0 || len(r.CouldNotLook) != 3 || !strings.HasPrefix(r.CouldNotLook[0].URL, ix.URL+"/whl/cu126/") {
			t.Errorf("%s: %+v", how, r)
		}
		if !strings.Contains(r.Reason(), "could not look at the index") {
			t.Errorf("%s: reason %q", how, r.Reason())
		}
	}
	// nothing listening at all
	rep := indexcheck.CheckMatrix(context.Background(), m, nil, &indexcheck.Fetcher{Timeout: 2 * time.Second}, indexcheck.Source{}, 2)
	for _, r := range rep.Rows {
		if r.Status != indexcheck.CouldNotLook {
			t.Errorf("index down: %s %s %s is %q", r.Framework, r.Version, r.Channel, r.Status)
		}
	}
}

// The flat find-links form and PEP 691 JSON give the same answers as PEP 503 pages.
func TestFlatPageAndJSON(t *testing.T) {
	ix := realisticIndex(t)
	m := testMatrix(t)
	rep := indexcheck.CheckMatrix(context.Background(), m, []string{"torch"}, &indexcheck.Fetcher{}, indexcheck.Source{FindLinks: ix.URL + "/flat/{channel}.html"}, 3)
	if r := row(t, rep, "torch", "2.6.0", "cu126"); r.Status != indexcheck.Served {
		t.Errorf("flat cu126: %+v", r)
	}
	if r := row(t, rep, "torch", "2.6.0", "cu124"); r.Status != indexcheck.Phantom {
		t.Errorf("flat cu124: %+v", r)
	}
	// paddle on a PEP 691 index: /paddle/<channel>/ answers JSON when asked
	pad := m.Candidates("paddle")[0]
	res := indexcheck.Check(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{IndexURL: ix.URL + "/paddle/{channel}p"}, pad, both, []string{"3.11", "3.12"})
	if res.Status != indexcheck.Served {
		t.Errorf("paddle JSON: %+v", res)
	}
	res = indexcheck.Check(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{IndexURL: ix.URL + "/paddle/{channel}p"}, pad, both, []string{"3.13"})
	if res.Status != indexcheck.Phantom || res.Missing[0].Package != "paddlepaddle-gpu" {
		t.Errorf("paddle on 3.13: %+v", res)
	}
}

// Each page is fetched once however many rows share it.
func TestPagesAreFetchedOnce(t *testing.T) {
	ix := realisticIndex(t)
	m := testMatrix(t)
	f := &indexcheck.Fetcher{}
	indexcheck.CheckMatrix(context.Background(), m, []string{"torch"}, f, indexcheck.Source{Mirror: ix.URL}, 8)
	if n := ix.Pages(); n != 9 { // 3 channels x torch, torchvision, torchaudio
		t.Errorf("%d requests, want 9", n)
	}
}

// The install check: one OS, one Python; a build the index lacks is refused with the next best.
func TestCheckBuildOffersTheNextBest(t *testing.T) {
	ix := realisticIndex(t)
	m := testMatrix(t)
	sel := m.Select(matrix.Facts{Framework: "torch", OS: "windows", DriverVersion: "560.94", CUDAMax: "12.6", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"})
	cu124, _ := m.Lookup("torch", "2.6.0", "cu124")
	v := indexcheck.CheckBuild(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, cu124, "windows", "3.12", sel.Candidates)
	if !v.Refused() || v.NextBest == nil || v.NextBest.Channel != "cu126" {
		t.Fatalf("%+v", v)
	}
	if msg := v.Message(); !strings.Contains(msg, "torch 2.6.0 (cu124) is not served for this system: the index has no torchvision==0.21.0+cu124 for Windows (Python 3.12)") ||
		!strings.Contains(msg, "--framework-version 2.6.0 --channel cu126") {
		t.Errorf("message %q", msg)
	}
	lin := indexcheck.CheckBuild(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, cu124, "linux", "3.12", sel.Candidates)
	if lin.Refused() || lin.Status != indexcheck.Served {
		t.Errorf("linux: %+v", lin)
	}
	ix.Break("cu124", "500")
	down := indexcheck.CheckBuild(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, cu124, "windows", "3.12", sel.Candidates)
	if down.Refused() || down.Status != indexcheck.CouldNotLook {
		t.Errorf("a broken index refuses nothing: %+v", down)
	}
}

// A mirrored page that links the wheels on another host: the build is listed, and the result
// names where the bytes would come from.
func TestCheckNamesTheHostTheWheelsAreLinkedOn(t *testing.T) {
	m := testMatrix(t)
	c := m.Candidates("torch")[0]
	var files []string
	for _, p := range c.Packages {
		for _, py := range []string{"cp311", "cp312"} {
			for _, plat := range []string{"manylinux_2_28_x86_64", "win_amd64"} {
				files = append(files, p.Name+"-"+p.Version+p.LocalLabel+"-"+py+"-"+py+"-"+plat+".whl")
			}
		}
	}
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for _, f := range files {
			fmt.Fprintf(&b, `<a href="https://download-r2.pytorch.org/whl/%s/%s">%s</a>`+"\n", c.Channel, strings.ReplaceAll(f, "+", "%2B"), f)
		}
		_, _ = w.Write([]byte(b.String()))
	}))
	defer mirror.Close()
	res := indexcheck.Check(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{IndexURL: mirror.URL + "/whl/{channel}"}, c, []string{"linux"}, []string{"3.11"})
	if res.Status != indexcheck.Served || res.WheelsFrom != "download-r2.pytorch.org" {
		t.Fatalf("%+v", res)
	}
}
