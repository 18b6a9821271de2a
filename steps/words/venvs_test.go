package words

import (
	"gpuwiz/steps/i18n/i18ntest"
	"testing"
	"time"

	"gpuwiz/steps/venvs"
)

func TestVenvLineSaysHowTheLastRunEnded(t *testing.T) {
	when := time.Date(2026, 12, 3, 12, 0, 0, 0, time.Local)
	h := venvs.Holds{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", Python: "3.12.8"}
	for _, tc := range []struct {
		e    venvs.Entry
		want string
	}{
		{venvs.Entry{Action: "install", Result: "installed", OK: true}, "PyTorch 2.6.0 (cu126), Python 3.12.8 · installed on 2026-12-03"},
		{venvs.Entry{Action: "install", Result: "restored"}, "PyTorch 2.6.0 (cu126), Python 3.12.8 · install failed, restored on 2026-12-03"},
		{venvs.Entry{Action: "repair", Result: "repair failed"}, "PyTorch 2.6.0 (cu126), Python 3.12.8 · repair failed on 2026-12-03"},
		{venvs.Entry{Action: "repair", Result: "cancelled"}, "PyTorch 2.6.0 (cu126), Python 3.12.8 · repair cancelled on 2026-12-03"},
	} {
		tc.e.When = when
		if got := VenvLine(venvs.Found{Source: venvs.SourceKnown, Known: &tc.e, Holds: h}); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
	if got := VenvLine(venvs.Found{Source: venvs.SourceConda, Holds: venvs.Holds{Python: "3.10.14", Conda: true}}); got != "no PyTorch or PaddlePaddle, Python 3.10.14 · conda environment" {
		t.Errorf("conda: %q", got)
	}
}

func TestChineseVenvLine(t *testing.T) {
	i18ntest.Chinese(t)
	for _, c := range []struct {
		e    venvs.Entry
		want string
	}{
		{venvs.Entry{Action: "install", Result: "installed", OK: true}, "已安装"},
		{venvs.Entry{Action: "repair", Result: "cancelled"}, "修复已取消"},
		{venvs.Entry{Action: "install", Result: "restored"}, "安装失败，已还原"},
		{venvs.Entry{Action: "repair", Result: "repair failed"}, "修复失败"},
		{venvs.Entry{Action: "repair", Result: "repaired, problems left", OK: true}, "已修复，但仍有问题"},
	} {
		if got := lastRun(c.e); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
