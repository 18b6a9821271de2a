package pep

import (
	"slices"
	"testing"
)

func TestParseWheelAsTheIndexCheckReadsIt(t *testing.T) {
	w, err := ParseWheel("torch-2.6.0+cu126-cp312-cp312-win_amd64.whl")
	if err != nil || w.Name != "torch" || w.Version != "2.6.0+cu126" || !w.ForOS("windows") || w.ForOS("linux") || !w.ForPython("3.12") || w.ForPython("3.11") {
		t.Errorf("%+v %v", w, err)
	}
	w, err = ParseWheel("paddlepaddle_gpu-3.2.0-1-cp311-cp311-manylinux1_x86_64.whl")
	if err != nil || w.Name != "paddlepaddle-gpu" || w.Version != "3.2.0" || !w.ForOS("linux") || !w.ForPython("3.11") {
		t.Errorf("%+v %v", w, err)
	}
	w, _ = ParseWheel("torch-2.6.0-cp39-abi3-manylinux_2_28_x86_64.manylinux2014_x86_64.whl")
	if !w.ForPython("3.12") || w.ForPython("3.8") {
		t.Errorf("abi3: %+v", w)
	}
	w, _ = ParseWheel("numpy_stub-1.0-py3-none-any.whl")
	if !w.ForPython("3.14") || !w.ForOS("windows") {
		t.Errorf("pure: %+v", w)
	}
	w, _ = ParseWheel("torch-2.9.1+cu129-cp314-cp314t-manylinux_2_28_x86_64.whl")
	if w.ForPython("3.14") {
		t.Error("a free-threaded wheel is not for the regular 3.14")
	}
	w, _ = ParseWheel("torch-2.9.1+cu129-cp312-cp312-manylinux_2_28_aarch64.whl")
	if w.ForOS("linux") {
		t.Error("aarch64 is not x86-64 Linux")
	}
	for _, bad := range []string{"torch-2.6.0.tar.gz", "torch-2.6.0-cp312-win_amd64.whl", "torch-2.6.0-x-cp312-cp312-win_amd64.whl", "torch--cp312-cp312-win_amd64.whl"} {
		if _, err := ParseWheel(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if got := Pythons("3.10", "3.14"); !slices.Equal(got, []string{"3.10", "3.11", "3.12", "3.13", "3.14"}) {
		t.Errorf("%v", got)
	}
	if Normalize("Paddle_Paddle.GPU") != "paddle-paddle-gpu" {
		t.Error("normalize")
	}
}
