package ui

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
)

// BenchmarkFirstFrame is start to first frame with the probe excluded (fake backend): build the
// shared state and the root, take the window size, render.
func BenchmarkFirstFrame(b *testing.B) {
	fb := newFakeBackend()
	b.ReportAllocs()
	for b.Loop() {
		m := NewModel(testCommon(fb, false))
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		if len(m.View()) == 0 {
			b.Fatal("empty frame")
		}
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkInstallLogFlood streams 100 000 log lines into the install screen in tick batches,
// then measures one frame (a batch of 1 000 more lines plus View) and the heap after the flood.
func BenchmarkInstallLogFlood(b *testing.B) {
	fb := newFakeBackend()
	c := testCommon(fb, false)
	plan, _ := fb.Plan(c.Ctx, app.PlanRequest{Venv: "/work/new", Candidate: cand("torch", "2.7.1", "cu126", "12.6", true)})
	before := heapInUse()
	s := newInstallScreen(c, plan, &sync.WaitGroup{})
	s.SetSize(78, 20)
	batch := make([]app.InstallEvent, 1000)
	for i := range batch {
		batch[i] = app.InstallEvent{StepID: "install", Line: fmt.Sprintf("  Downloading https://download.pytorch.org/whl/cu126/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl (%d kB)", i)}
	}
	batch[999].Progress = &app.Progress{Done: 1 << 30, Total: 2 << 30}
	for range 100 {
		s.Update(installBatchMsg{events: batch})
		_ = s.View()
	}
	flooded := heapInUse()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Update(installBatchMsg{events: batch})
		_ = s.View()
	}
	b.StopTimer()
	after := heapInUse()
	b.ReportMetric(float64(flooded-min(before, flooded))/(1<<20), "heapMiB-after-100k")
	b.ReportMetric(float64(after-min(before, after))/(1<<20), "heapMiB-end")
	b.ReportMetric(float64(s.log.total), "lines")
}

// BenchmarkInstallFrameView is one frame's View alone with a full log tail.
func BenchmarkInstallFrameView(b *testing.B) {
	fb := newFakeBackend()
	c := testCommon(fb, false)
	plan, _ := fb.Plan(c.Ctx, app.PlanRequest{Venv: "/work/new", Candidate: cand("torch", "2.7.1", "cu126", "12.6", true)})
	s := newInstallScreen(c, plan, &sync.WaitGroup{})
	s.SetSize(78, 20)
	for i := range 100_000 {
		s.log.Add(fmt.Sprintf("Collecting package-%d", i))
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View()
	}
}
