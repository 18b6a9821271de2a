package i18ntest

import (
	"reflect"
	"testing"
)

// The lines the walk-through found on Chinese screens, each caught; a Chinese line with commands,
// paths, flags, env vars and package names is not.
func TestEnglishOnScreen(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"CUDA_VISIBLE_DEVICES=None", []string{"None"}},
		{"驱动 560.94   查询方式 simulated", []string{"simulated"}},
		{"检测失败（no_gpu）", []string{"no_gpu"}},
		{"原因：framework-check-failed", []string{"framework-check-failed"}},
		{"安装失败：stage cancelled: context canceled", []string{"cancelled", "context", "canceled"}},
		{"本机没有：PEP 658 元数据", nil},
		{"运行 gpuwiz doctor --venv /tmp/a_b --fix；检查 site-packages 和 paddlepaddle-gpu", nil},
		{"错误 [cpu-build]", []string{"cpu-build"}},
		{"安装源配置了额外的源 (pip-extra-index)", []string{"pip-extra-index"}},
		{"错误（no-cuda-build）：torch 2.5.1+cpu", []string{"no-cuda-build"}},
		{"连不上：dial tcp: lookup download.pytorch.org: no such host", []string{"no such host", "dial tcp"}},
		{"torch.version.cuda is None", []string{"is None", "None"}},
		{"  版本   通道   CUDA   CUDNN   PYTHON   系统", []string{"CUDNN", "PYTHON"}},
		{"请安装 python3.12-venv（python3-venv）；cuDNN 9.5、CUDA 12.6、Python 3.12、Linux、Windows", nil},
		{"先设置 CUDA_VISIBLE_DEVICES，再运行 python -m pip install torch", nil},
	} {
		if got := EnglishOnScreen(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

// Names with digits (sm_50, cu126, x86_64) are facts, not codes.
func TestArchNamesAreNoCodes(t *testing.T) {
	if got := EnglishOnScreen("内核：sm_50、sm_86，平台 x86_64"); got != nil {
		t.Errorf("got %q", got)
	}
}
