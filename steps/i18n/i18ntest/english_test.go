package i18ntest

import (
	"strings"
	"testing"
)

func TestEnglishProse(t *testing.T) {
	clean := []string{
		"驱动版本 560.94 支持 CUDA 12.6；cu130 需要驱动 ≥ 580",
		"运行 gpuwiz doctor --venv C:\\work\\venv --fix 修复",
		"请运行 pip install --index-url https://download.pytorch.org/whl/cu126 torch",
		"显卡：NVIDIA GeForce RTX 3060（算力 8.6，显存 12 GiB）",
		"推荐 PyTorch 2.6.0 + cu126（已验证）",
		"`conda remove -p C:\\envs\\x pytorch cudatoolkit`",
		"apt install python3.12-venv python3.12",
		"虚拟环境 (venv)：~/venvs/torch",
		"q 退出 · ? 更多按键",
	}
	for _, s := range clean {
		if got := EnglishProse(s); len(got) > 0 {
			t.Errorf("%q: found %q", s, got)
		}
	}
	english := map[string]string{
		"No NVIDIA driver answered":           "No NVIDIA driver answered",
		"驱动 is too old for this build":        "is too old for this build",
		"显卡：no GPU":                           "no GPU",
		"enter continue · esc back":           "enter continue",
		"正在安装 (the environment is as before)": "the environment is as before",
	}
	for s, want := range english {
		got := EnglishProse(s)
		if len(got) == 0 || !strings.Contains(strings.Join(got, "|"), want) {
			t.Errorf("%q: found %q, want %q among them", s, got, want)
		}
	}
}
