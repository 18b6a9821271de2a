package venvs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/jsonfile"
)

// Real environments on disk, listed in Chinese: what each holds keeps its versions and labels.
func TestHoldsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	dir := t.TempDir()
	cases := map[string]struct {
		dists []string
		want  string
	}{
		"torch":   {[]string{"torch-2.6.0+cu126"}, "PyTorch 2.6.0（cu126），Python 3.12.8"},
		"gpu":     {[]string{"paddlepaddle_gpu-3.0.0"}, "飞桨（PaddlePaddle）3.0.0 GPU 版，Python 3.12.8"},
		"cpu":     {[]string{"paddlepaddle-3.0.0"}, "飞桨（PaddlePaddle）3.0.0 CPU 版，Python 3.12.8"},
		"mixed":   {[]string{"paddlepaddle-3.0.0", "paddlepaddle_gpu-3.0.0"}, "飞桨（PaddlePaddle）3.0.0，paddlepaddle 和 paddlepaddle-gpu 同时存在，Python 3.12.8"},
		"nothing": {nil, "未安装 PyTorch 或飞桨，Python 3.12.8"},
	}
	for name, c := range cases {
		root := makeVenv(t, filepath.Join(dir, name), "3.12.8", c.dists...)
		got := Read(root, "linux").Describe()
		if got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
		i18ntest.NoEnglishProse(t, name, got)
	}
}

// A list written by a newer gpuwiz and a damaged list, read in Chinese.
func TestListWarningsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	dir := t.TempDir()
	s := Store{Path: filepath.Join(dir, "venvs.json")}
	a := makeVenv(t, filepath.Join(dir, "a"), "3.12.8")
	os.WriteFile(s.Path, []byte(fmt.Sprintf(`{"schema":2,"colour":"blue","venvs":[{"path":%q,"when":"2026-12-01T10:00:00Z","gpu":"RTX 3060"}]}`, a)), 0o644)
	_, warning, err := s.List(context.Background())
	if err != nil || !strings.Contains(warning, `"colour"、"venvs[0].gpu"`) || !strings.HasPrefix(warning, s.Path+"：") {
		t.Fatalf("warning %q, err %v", warning, err)
	}
	i18ntest.NoEnglishProse(t, "warning", warning)

	damaged := []byte(`{"venvs": "not a list"}`)
	os.WriteFile(s.Path, damaged, 0o644)
	_, _, err = s.Load()
	_, jsonErr := jsonfile.Decode(damaged, &file{})
	if err == nil || jsonErr == nil || !strings.Contains(err.Error(), "已损坏") || !strings.Contains(err.Error(), s.Path) {
		t.Fatalf("damaged: %v", err)
	}
	i18ntest.NoEnglishProse(t, "damaged", strings.Replace(err.Error(), jsonErr.Error(), "", 1))
}

// English stays as it was.
func TestHoldsEnglishUnchanged(t *testing.T) {
	h := Holds{Python: "3.11.9", Framework: "paddle", FrameworkVersion: "3.0.0", Package: "paddlepaddle-gpu", Mixed: true}
	if got := h.Describe(); got != "PaddlePaddle 3.0.0 (paddlepaddle and paddlepaddle-gpu both), Python 3.11.9" {
		t.Fatalf("%q", got)
	}
}
