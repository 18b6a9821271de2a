package install

import "testing"

func TestWheelBuiltForOtherReadsTheLocalLabel(t *testing.T) {
	build := []string{"torch==2.6.0+cu126", "torchvision==0.21.0+cu126"}
	for file, want := range map[string]string{
		"/d/flash_attn-2.7.4+cu128torch2.7-cp311-cp311-linux_x86_64.whl":   "torch 2.7",
		"/d/flash_attn-2.7.4+cu126torch2.6-cp311-cp311-linux_x86_64.whl":   "",
		"/d/sageattention-2.1.1+cu124torch2.6.0-cp311-cp311-win_amd64.whl": "", // another CUDA minor: the same major runs
		"/d/xformers-0.0.29+cu118-cp311-cp311-win_amd64.whl":               "cu118",
		"/d/insightface-0.7.3-cp311-cp311-win_amd64.whl":                   "",
		"/d/triton_windows-3.2.0.post12-cp311-cp311-win_amd64.whl":         "",
	} {
		ref := wheelBuiltForOther(AddChange{Name: "x", Direct: file}, build)
		switch {
		case want == "" && ref != nil:
			t.Errorf("%s: refused (%+v)", file, ref)
		case want != "" && (ref == nil || ref.Needs != want):
			t.Errorf("%s: %+v, want %q", file, ref, want)
		}
	}
	if got := directSource("file:///C:/Users/me/x-1.0-py3-none-any.whl"); got != "C:/Users/me/x-1.0-py3-none-any.whl" {
		t.Errorf("windows file URL: %q", got)
	}
	if got := directSource("file:///home/me/my%20proj"); got != "/home/me/my proj" {
		t.Errorf("posix file URL: %q", got)
	}
}
