package indexcheck_test

import (
	"context"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/pep"
)

// The install check against a loopback index, in Chinese: the refusal names the missing wheel and
// the next best build with its flags; a broken index says why it could not look.
func TestCheckBuildInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	ix := realisticIndex(t)
	m := testMatrix(t)
	sel := m.Select(matrix.Facts{Framework: "torch", OS: "windows", DriverVersion: "560.94", CUDAMax: "12.6", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"})
	cu124, _ := m.Lookup("torch", "2.6.0", "cu124")
	v := indexcheck.CheckBuild(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, cu124, "windows", "3.12", sel.Candidates)
	if !v.Refused() || v.NextBest == nil {
		t.Fatalf("%+v", v)
	}
	msg := v.Message()
	i18ntest.NoEnglishProse(t, "refusal", msg)
	for _, want := range []string{"torch 2.6.0（cu124）", "适用于 Windows 的 torchvision==0.21.0+cu124（Python 3.12）", "--framework-version 2.6.0 --channel cu126"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q missing from %q", want, msg)
		}
	}
	if got := v.MissingList(); got != "适用于 Windows 的 torchvision==0.21.0+cu124（Python 3.12）" {
		t.Errorf("missing list %q", got)
	}
	v.NextBest = nil
	i18ntest.NoEnglishProse(t, "refusal without next best", v.Message())

	for _, how := range []string{"garbage", "500", "empty"} {
		ix.Break("cu124", how)
		down := indexcheck.CheckBuild(context.Background(), &indexcheck.Fetcher{}, indexcheck.Source{Mirror: ix.URL}, cu124, "windows", "3.12", sel.Candidates)
		if down.Refused() || down.Status != indexcheck.CouldNotLook {
			t.Errorf("%s: %+v", how, down)
			continue
		}
		why := down.Reason()
		i18ntest.NoEnglishProse(t, how, why)
		if !strings.Contains(why, "无法查看安装源") || !strings.Contains(why, ix.URL+"/whl/cu124/") || !strings.Contains(why, "torch、torchvision") {
			t.Errorf("%s: %q", how, why)
		}
	}
}

// The source flags' and wheel names' errors in Chinese.
func TestErrorsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, s := range []indexcheck.Source{{IndexURL: "download.pytorch.org/whl"}, {IndexURL: "https://a.org/{channel}", Mirror: "https://b.org"}} {
		err := s.Validate()
		if err == nil {
			t.Fatalf("%+v passed", s)
		}
		i18ntest.NoEnglishProse(t, "source", err.Error())
	}
	for _, f := range []string{"torch.tar.gz", "torch-2.6.0.whl", "torch-2.6.0-x-cp312-cp312-win_amd64.whl", "torch-2.6.0-cp312-c$p312-win_amd64.whl"} {
		_, err := pep.ParseWheel(f)
		if err == nil {
			t.Fatalf("%s parsed", f)
		}
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%s: %v", f, err)
		}
		i18ntest.NoEnglishProse(t, f, err.Error())
	}
}
