package bench

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/runner"
)

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// gpuwizWords is a verdict without the words that are not gpuwiz's: the script's own message
// (Python's English) and the last line Python printed.
func gpuwizWords(s Summary) string {
	v := s.Verdict
	if s.Failure != nil && s.Failure.Message != "" {
		v = strings.ReplaceAll(v, s.Failure.Message, "")
	}
	v, _, _ = strings.Cut(v, "最后的输出：")
	return v
}

// The recorded H200 run and an out-of-memory retry, in Chinese: the verdict keeps every figure.
func TestChineseVerdictOfARecordedRun(t *testing.T) {
	i18ntest.Chinese(t)
	tally, _ := replay(t, "h200_torch.jsonl")
	s := tally.Summary()
	if !s.OK {
		t.Fatalf("verdict %q", s.Verdict)
	}
	if s.Verdict != "计算确实跑在 GPU 上：fp32 矩阵乘法比 CPU 快 32 倍、fp32 51.6 TFLOPS、fp16 702.4 TFLOPS、bf16 684.9 TFLOPS" {
		t.Errorf("verdict %q", s.Verdict)
	}
	i18ntest.NoEnglishProse(t, "verdict", s.Verdict)

	tally, _ = replay(t, "oom_retry.jsonl")
	s = tally.Summary()
	contains(t, "out-of-memory verdict", s.Verdict, "计算确实跑在 GPU 上：", "矩阵规模 8192 时显存不足，已缩小到 4096")
	i18ntest.NoEnglishProse(t, "out-of-memory verdict", s.Verdict)

	tally, _ = replay(t, "crash_midrun.jsonl")
	if s := tally.Summary(); s.Verdict != "性能测试还没有结束" {
		t.Errorf("unfinished: %q", s.Verdict)
	}
	s = finishWith(tally, 139)
	contains(t, "crash verdict", s.Verdict, "性能测试崩溃了：Python 在 matmul cuda fp32 4096 时退出了，退出码 139；最后的输出：Fatal Python error: Segmentation fault")
	i18ntest.NoEnglishProse(t, "crash verdict", gpuwizWords(s))
}

// Real runs of the benchmark script on the stub machines, in Chinese: wrong answers, a hang, and
// each failure the script names (its own message stays as Python wrote it; gpuwiz's words around it
// are Chinese and say what to do).
func TestChineseVerdictsOfStubRuns(t *testing.T) {
	i18ntest.Chinese(t)
	s, _, _ := runStub(t, "wrong", Options{Quick: true})
	contains(t, "wrong answers", s.Verdict, "GPU 算出的结果不对：fp16 相对误差 0.5，超过上限 0.01", "散热")
	i18ntest.NoEnglishProse(t, "wrong answers", s.Verdict)

	s, _, err := runStub(t, "hang", Options{Quick: true, StallTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "hang", s.Verdict, "性能测试没有响应：运行 matmul cuda fp32 4096 时 1s 内没有任何输出")
	i18ntest.NoEnglishProse(t, "hang", s.Verdict)

	for mode, want := range map[string]string{
		"cpu":      "torch 2.11.0+cpu 是 CPU 版，用不了显卡；请安装 GPU 版（gpuwiz install）",
		"nodevice": "没有可用的显卡：",
		"noarch":   "；请选择为这块显卡编译的 CUDA 通道",
	} {
		s, _, err := runStub(t, mode, Options{Quick: true})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, mode, s.Verdict, want)
		i18ntest.NoEnglishProse(t, mode, gpuwizWords(s))
		if mode == "cpu" { // said from the facts the script sent, not from its English message
			i18ntest.NoEnglishOnScreen(t, mode, s.Verdict)
		}
	}
}

// The errors before a run, in Chinese: an unknown framework (still errors.Is ErrUnknownFramework)
// and a Python without torch or paddle.
func TestChineseErrorsBeforeARun(t *testing.T) {
	i18ntest.Chinese(t)
	_, err := Run(context.Background(), runner.New(nil), "python3", "jax", Options{}, nil)
	if !errors.Is(err, ErrUnknownFramework) || err.Error() != `未知框架 "jax"：请选择 torch 或 paddle` {
		t.Errorf("unknown framework: %v", err)
	}
	python, lookErr := exec.LookPath("python3")
	if lookErr != nil {
		t.Skip("no python3")
	}
	t.Setenv("PYTHONPATH", "")
	fw, err := DetectFramework(context.Background(), runner.New(nil), python)
	if fw != "" {
		t.Skipf("%s has %s installed", python, fw)
	}
	if err == nil {
		t.Fatal("no error without a framework")
	}
	contains(t, "no framework", err.Error(), python, "既没有装 torch 也没有装 paddle", "gpuwiz install", "--python")
	i18ntest.NoEnglishProse(t, "no framework", err.Error())
}

// Issue: "CUDA_VISIBLE_DEVICES=None" (Python's None, in English in both languages) on the verdict of
// a build that sees no GPU. The script sends the facts; the sentence is the catalog's.
func TestNoDeviceVerdictSaysTheVariableInWords(t *testing.T) {
	unset := ParseLine([]byte(`{"type":"error","kind":"no-device","message":"torch 2.6.0 (CUDA 12.6) sees no usable GPU","framework_version":"2.6.0","cuda":"12.6","visible":null}`)).(Failure)
	set := ParseLine([]byte(`{"type":"error","kind":"no-device","message":"x","framework_version":"2.6.0","cuda":"12.6","visible":"-1"}`)).(Failure)
	if w := failureWords(&unset); strings.Contains(w, "None") || !strings.Contains(w, "driver") {
		t.Errorf("unset: %s", w)
	}
	if w := failureWords(&set); !strings.Contains(w, `CUDA_VISIBLE_DEVICES is "-1"`) {
		t.Errorf("set: %s", w)
	}
	i18ntest.Chinese(t)
	i18ntest.NoEnglishOnScreen(t, "no-device verdict", failureWords(&unset))
	i18ntest.NoEnglishOnScreen(t, "no-device verdict", failureWords(&set))
}
