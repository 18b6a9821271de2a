package gpu

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// The nvidia-smi fallback on recorded output, in Chinese: the sentence, the count, the names, and
// every warning (fields not reported, an architecture no build supports) without English left.
func TestChineseReportFromNvidiaSMI(t *testing.T) {
	i18ntest.Chinese(t)
	run, _ := recordedSMI(t, "multi-na", "banner-610.txt")
	r, err := smiFor(run).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "message", r.Message, "NVIDIA 显卡驱动", "最高支持 CUDA 13.3", "共 3 块显卡", "Tesla K80", "、")
	i18ntest.NoEnglishProse(t, "message", r.Message)
	w := strings.Join(r.Warnings, "\n")
	contains(t, "warnings", w, "GPU 1：没有报告功耗（[N/A]）", "GPU 2：没有报告利用率（[Not Supported]）", "算力 3.7", "请使用 CPU 版")
	i18ntest.NoEnglishProse(t, "warnings", w)

	run, _ = recordedSMI(t, "old", "old-banner.txt")
	r, err = smiFor(run).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w = strings.Join(r.Warnings, "\n")
	contains(t, "old driver's warnings", w, "查不到算力", "低于 525.60", "CUDA 12")
	i18ntest.NoEnglishProse(t, "old driver's warnings", w)
	contains(t, "one card's message", r.Message, "共 1 块显卡：GeForce GTX 1060 6GB")
}

// English keeps its plural: one GPU, two GPUs (no "GPU(s)").
func TestReportMessageCountsGPUs(t *testing.T) {
	run, _ := recordedSMI(t, "h200", "h200-banner.txt")
	r, _ := smiFor(run).Probe(context.Background())
	if r.Message != "NVIDIA driver 580.159.04 (CUDA up to 13.0) with 1 GPU: NVIDIA H200" {
		t.Errorf("one GPU: %q", r.Message)
	}
	run, _ = recordedSMI(t, "multi-na", "banner-610.txt")
	r, _ = smiFor(run).Probe(context.Background())
	if !strings.Contains(r.Message, "with 3 GPUs: ") {
		t.Errorf("three GPUs: %q", r.Message)
	}
}

// The probe chain as it runs on this machine: in Chinese whether or not a driver answers.
func TestChineseProbeOnThisMachine(t *testing.T) {
	i18ntest.Chinese(t)
	r, err := Default().Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Available {
		contains(t, "message", r.Message, "NVIDIA 显卡驱动", "块显卡")
	} else {
		contains(t, "message", r.Message, "没有找到 NVIDIA 显卡驱动", "已查找：", "nvidia-smi（PATH 中）", "CPU 版")
	}
	i18ntest.NoEnglishOnScreen(t, "message", r.Message)
	i18ntest.NoEnglishProse(t, "warnings", strings.Join(r.Warnings, "\n"))
}

// An NVML answer of a machine without a working driver is said in words; its own name stays in
// the attempt's detail, for --json and the logs.
func TestNVMLAnswersInWords(t *testing.T) {
	i18ntest.Chinese(t)
	for name, want := range map[string]string{
		"ERROR_LIBRARY_NOT_FOUND":            "本机没有安装 NVIDIA 驱动",
		"NVML_ERROR_DRIVER_NOT_LOADED":       "驱动已安装，但没有运行",
		"NVML_ERROR_LIB_RM_VERSION_MISMATCH": "更新驱动后请重启",
	} {
		failing := newNVMLProber("nvml", func() (nvmlLib, error) { return nil, &ReturnError{Call: "nvmlInit", Name: name} })
		r, _ := newChain([]namedProber{{"NVML", failing}}, nil).Probe(context.Background())
		if len(r.LookedFor) != 1 || r.LookedFor[0].Detail != "nvmlInit: "+name {
			t.Fatalf("%s: looked for %+v", name, r.LookedFor)
		}
		contains(t, name, r.Message, want)
		if strings.Contains(r.Message, name) {
			t.Errorf("%s: the message names NVML's code:\n%s", name, r.Message)
		}
		i18ntest.NoEnglishOnScreen(t, name, r.Message)
	}
}

// No driver, cards on the PCI bus: the count, what was looked for and why, all in Chinese.
func TestChineseNoDriverReport(t *testing.T) {
	i18ntest.Chinese(t)
	failing := newNVMLProber("nvml", func() (nvmlLib, error) { return nil, errNotExported{"nvmlInit_v2"} })
	r, _ := newChain([]namedProber{{"NVML", failing}, {i18n.T("gpu.backend.smi_on_path"), newSMIProber(execRunner)}}, AdapterList{{VendorID: 0x10de, DeviceID: 0x2504}, {VendorID: 0x10de, DeviceID: 0x1b06}, {VendorID: 0x8086, DeviceID: 0x3e92}}).Probe(context.Background())
	if r.Available {
		t.Skip("nvidia-smi answered on this machine")
	}
	contains(t, "message", r.Message, "PCI 总线上有 2 个 NVIDIA 显示设备", "NVIDIA GeForce RTX 3060 Lite Hash Rate（Ampere 架构，算力 8.6；PCI 10DE:2504）", "GeForce GTX 1080 Ti（Pascal 架构，算力 6.1", "NVML：当前驱动没有导出 nvmlInit_v2", "；", "https://www.nvidia.com/Download/index.aspx")
	i18ntest.NoEnglishProse(t, "message", r.Message)
	if msg := ErrNoGPU.Error(); msg != "没有可以采样的 NVIDIA 显卡" {
		t.Errorf("ErrNoGPU reads %q", msg)
	}
}

// A --simulate file written in English reads in Chinese: the message and the card warnings are
// gpuwiz's own, so they follow the language; the file's errors are Chinese too.
func TestChineseSimulateFile(t *testing.T) {
	i18ntest.Chinese(t)
	p, err := FromFile("../../testdata/fakenvml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Probe(context.Background())
	contains(t, "message", r.Message, "NVIDIA 显卡驱动 566.36", "共 2 块显卡", "NVIDIA GeForce RTX 4090、NVIDIA GeForce GTX 1080")
	i18ntest.NoEnglishProse(t, "message", r.Message)
	if len(r.Warnings) != 1 || r.Warnings[0] != ArchWarningIn(i18n.Current(), r.GPUs[1]) {
		t.Errorf("the file's English card warning is not the Chinese one: %q", r.Warnings)
	}
	contains(t, "warning", r.Warnings[0], "算力 6.1", "cu126 通道")
	i18ntest.NoEnglishProse(t, "warning", r.Warnings[0])

	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err = FromFile(missing)
	contains(t, "missing file", err.Error(), "模拟文件", missing, "不存在", "gpuwiz gpu --json >")
	i18ntest.NoEnglishProse(t, "missing file", err.Error())
	for body, want := range map[string]string{
		`{}`:                           `缺少字段 "available"`,
		`{"available":true,"gpus":[]}`: `gpus 为空`,
		`{"available":false,"os":"darwin","gpus":[]}`:                       `请写 windows 或 linux`,
		`{"available":true,"driver_version":"566.36","gpus":[{"index":0}]}`: "gpus[0] 没有名称",
	} {
		f := filepath.Join(dir, "bad.json")
		os.WriteFile(f, []byte(body), 0o644)
		_, err := FromFile(f)
		if err == nil {
			t.Fatalf("%s: no error", body)
		}
		contains(t, body, err.Error(), "不是显卡报告", want)
		i18ntest.NoEnglishProse(t, body, err.Error())
	}
}

// A report made in Chinese reads in English again (the message is regenerated, not kept).
func TestSimulateFileFromChineseReadsInEnglish(t *testing.T) {
	p, err := FromFile("../../testdata/fakenvml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	fp := p.(*fileProber)
	i18n.Set(i18n.Chinese)
	zh, _ := fp.Probe(context.Background())
	i18n.Set(i18n.English)
	fp.report.Message, fp.report.Warnings = zh.Message, zh.Warnings
	en, _ := fp.Probe(context.Background())
	if !strings.HasPrefix(en.Message, "NVIDIA driver 566.36 (CUDA up to 12.7) with 2 GPUs") || !strings.Contains(en.Warnings[0], "dropped this architecture") {
		t.Errorf("message %q warnings %q", en.Message, en.Warnings)
	}
	fp.report.Message = "simulated RTX 3060 rig"
	if r, _ := fp.Probe(context.Background()); r.Message != "simulated RTX 3060 rig" {
		t.Errorf("a message gpuwiz did not write is kept: %q", r.Message)
	}
}
