package install

import (
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n/i18ntest"
)

// A repair's source when the venv's lock records none: the channel's official index, but an index
// on this computer (a loopback URL) is never called official, in either language.
func TestRepairSourceOnLoopbackIsNotCalledOfficial(t *testing.T) {
	venv := filepath.Join(t.TempDir(), "venv") // no requirements.lock
	c := func(index string) matrix.Candidate {
		return matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", CUDA: "12.6", IndexURL: index,
			Packages: []matrix.Package{{Name: "torch", Version: "2.6.0+cu126"}}}
	}
	for _, tc := range []struct {
		index, want string
		official    bool
	}{
		{"http://127.0.0.1:9/whl/cu126", "the channel's index on this computer", false},
		{"http://[::1]:9/whl/cu126", "the channel's index on this computer", false},
		{"https://download.pytorch.org/whl/cu126", "the channel's official index", true},
	} {
		src, err := RepairSource(venv, c(tc.index), ReinstallOptions{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src.Why, tc.want) || strings.Contains(src.Why, "official") != tc.official {
			t.Errorf("%s: the source is %q, want %q", tc.index, src.Why, tc.want)
		}
	}
	i18ntest.Chinese(t)
	src, err := RepairSource(venv, c("http://127.0.0.1:9/whl/cu126"), ReinstallOptions{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(src.Why, "官方") || !strings.Contains(src.Why, "本机上的") {
		t.Errorf("the loopback index in Chinese: %q", src.Why)
	}
}
