package ui

import (
	"strings"
	"testing"

	"gpuwiz/steps/app"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
)

// The GPU screen's sentence on the driver says what the channel list then shows: a Windows driver
// 456.71 (CUDA 11.1) runs the cu118 builds through minor-version compatibility, so the screen must
// not tell the user the GPU is unusable until the driver is updated; 451.48 runs none, and the
// sentence names the least driver that runs the oldest build.
func TestDriverSentenceAgreesWithTheChannelList(t *testing.T) {
	i18n.Set(i18n.English)
	card := []gpu.GPU{{Name: "NVIDIA GeForce RTX 3060", ComputeCapability: "8.6"}}
	mx, err := app.EmbeddedMatrix()
	if err != nil {
		t.Fatal(err)
	}
	cu118 := func(driver, cuda string) bool {
		sel := mx.Select(app.Facts{Framework: "torch", FrameworkVersion: "2.7.1", OS: "windows", DriverVersion: driver, CUDAMax: cuda, ComputeCaps: []string{"8.6"}})
		for _, c := range sel.Candidates {
			if c.Channel == "cu118" {
				return c.Compatible
			}
		}
		t.Fatalf("no torch 2.7.1 cu118 candidate")
		return false
	}

	words := strings.Join(driverWords(gpu.Report{Available: true, DriverVersion: "456.71", CUDAMax: "11.1", GPUs: card}, "windows", true), "\n")
	if !cu118("456.71", "11.1") {
		t.Fatal("the channel list no longer runs cu118 on 456.71: the case below no longer tells anything")
	}
	for _, want := range []string{"Your driver 456.71 (CUDA up to 11.1) runs the builds for CUDA 11.8", "with limits", "528.33 or newer runs CUDA 12.1 to 12.9", "580 or newer runs CUDA 13.0 to 13.4"} {
		if !strings.Contains(words, want) {
			t.Errorf("driver 456.71: %q missing from\n%s", want, words)
		}
	}
	if strings.Contains(words, "to use the GPU") {
		t.Errorf("driver 456.71 runs cu118, yet the screen says the GPU cannot be used:\n%s", words)
	}

	words = strings.Join(driverWords(gpu.Report{Available: true, DriverVersion: "451.48", CUDAMax: "11.0", GPUs: card}, "windows", true), "\n")
	if cu118("451.48", "11.0") {
		t.Fatal("the channel list runs cu118 on 451.48, below NVIDIA's minimum")
	}
	if want := "Your driver 451.48 (CUDA up to 11.0) runs no GPU build gpuwiz offers: even the oldest, for CUDA 11.8, needs driver 452.39 or newer on Windows."; !strings.Contains(words, want) {
		t.Errorf("driver 451.48: want %q in\n%s", want, words)
	}

	words = strings.Join(driverWords(gpu.Report{Available: true, DriverVersion: "581.57", CUDAMax: "13.0", GPUs: card}, "windows", true), "\n")
	if strings.Contains(words, "driver") || strings.Contains(words, "Driver") {
		t.Errorf("driver 581.57 runs every CUDA version the matrix knows; nothing to say about it, got\n%s", words)
	}
}
