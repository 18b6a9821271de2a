package ui

import (
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

func TestWelcomeMovesAndChoosesJourney(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	w := topIs[*welcomeScreen](t, m)
	press(t, m, "up")
	if w.cursor != 3 {
		t.Fatalf("up from the first row wraps to the last, got %d", w.cursor)
	}
	press(t, m, "down", "down", "enter")
	s := topIs[*venvScreen](t, m)
	if s.journey != JourneyChange {
		t.Fatalf("second choice is change channel, got %v", s.journey)
	}
}

func TestQuitAtOnceWhenIdle(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	if !press(t, m, "q") {
		t.Fatal("q on the welcome screen must quit")
	}
	m = newTestRoot(newFakeBackend())
	if !press(t, m, "ctrl+c") {
		t.Fatal("ctrl+c on the welcome screen must quit")
	}
}

func TestEscGoesBack(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter")
	topIs[*gpuScreen](t, m)
	press(t, m, "esc")
	topIs[*welcomeScreen](t, m)
	press(t, m, "esc") // nothing below the first screen: stays
	topIs[*welcomeScreen](t, m)
}

func TestGPUScreenPlainWords(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *fakeBackend)
		want string
	}{
		{"no driver", func(f *fakeBackend) { f.report.Available, f.report.GPUs = false, nil }, "No NVIDIA driver answered"},
		{"old driver", func(f *fakeBackend) { f.report.CUDAMax, f.report.DriverVersion = "11.4", "472.12" }, "runs the builds for CUDA 11.8;"},
		{"too old driver", func(f *fakeBackend) { f.report.CUDAMax, f.report.DriverVersion = "10.1", "418.96" }, "runs no GPU build"},
		{"dropped arch", func(f *fakeBackend) { f.report.GPUs[0].ComputeCapability, f.report.GPUs[0].Name = "6.1", "GTX 1080" }, "2.14 on cu126"},
		{"kepler", func(f *fakeBackend) { f.report.GPUs[0].ComputeCapability = "3.5" }, "use a CPU build"},
		{"fine", func(f *fakeBackend) { f.report.CUDAMax, f.report.DriverVersion = "13.0", "581.57" }, "look fine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fb := newFakeBackend()
			c.edit(fb)
			m := newTestRoot(fb)
			press(t, m, "enter")
			mustContain(t, m.View(), c.want, "SIMULATED")
		})
	}
}

// A Pascal card gets one note, derived from the matrix for the OS, and the probe's own architecture
// warning is not repeated under it; the probe's other warnings stay.
func TestGPUScreenOneArchNote(t *testing.T) {
	fb := newFakeBackend()
	card := gpu.GPU{Index: 0, Name: "NVIDIA GeForce GTX 1080", ComputeCapability: "6.1", MemoryTotalMiB: 8192}
	fb.report.GPUs = []gpu.GPU{card}
	probeWarning := gpu.ArchWarningIn(i18n.Current(), card)
	fb.report.Warnings = []string{probeWarning, "nvmlDeviceGetPowerUsage not exported"}
	m := newTestRoot(fb)
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40}) // one line per sentence
	press(t, m, "enter")
	v := ansi.Strip(m.View())
	mustContain(t, v, "nvmlDeviceGetPowerUsage not exported",
		"GPU 0 (NVIDIA GeForce GTX 1080, compute capability 6.1): the newest PyTorch with kernels for it on Linux is 2.14 on cu126. No cu128 or newer build has them; from torch 2.15 on, no build at all.")
	if strings.Contains(v, "dropped") || strings.Contains(v, "torch 2.15+") || strings.Count(v, "compute capability 6.1") != 1 {
		t.Fatalf("the card is described more than once, or with the old words:\n%s", v)
	}
}

// The note is the matrix's answer for the OS: Windows cu128 carried Pascal for a while, Linux never;
// Volta had Linux cu128 up to 2.10; cards every newest channel carries get no note.
func TestArchNoteFromMatrix(t *testing.T) {
	for _, c := range []struct{ cc, goos, want string }{
		{"6.1", "linux", ": the newest PyTorch with kernels for it on Linux is 2.14 on cu126. No cu128 or newer build has them; from torch 2.15 on, no build at all."},
		{"6.1", "windows", ": the newest PyTorch with kernels for it on Windows is 2.14 on cu126. Newer channels: cu128 up to torch 2.7 only, cu129 and newer never; from torch 2.15 on, no build at all."},
		{"7.0", "linux", ": the newest PyTorch with kernels for it on Linux is 2.14 on cu126. Newer channels: cu128 up to torch 2.10 only, cu129 up to torch 2.10 only, cu130 and newer never; from torch 2.15 on, no build at all."},
		{"3.7", "linux", ": the newest PyTorch with kernels for it on Linux is 2.7 on cu118. No cu121 or newer build has them; from torch 2.8 on, no build at all."},
		{"3.5", "linux", ": no PyTorch GPU build from 2.4 to 2.15 has kernels for it on Linux; use a CPU build."},
		{"7.5", "linux", ""}, {"8.6", "windows", ""}, {"12.0", "linux", ""},
	} {
		if got := archFactsOf(c.cc, c.goos).words("", osWord(c.goos)); got != c.want {
			t.Errorf("%s on %s:\n got %q\nwant %q", c.cc, c.goos, got, c.want)
		}
	}
	// A report made on Windows (a simulated Windows rig) is described as Windows on any machine.
	fb := newFakeBackend()
	fb.report.OS = "windows"
	fb.report.GPUs[0].ComputeCapability = "6.1"
	m := newTestRoot(fb)
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	press(t, m, "enter")
	mustContain(t, ansi.Strip(m.View()), "on Windows is 2.14 on cu126")
}

func TestGPUTableListsCards(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter")
	mustContain(t, m.View(), "RTX 3060", "8.6", "512 / 12288", "Driver 560.94")
}

func TestFrameworkDefaultsToRecommendationAndChangesVersion(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter")
	fs := topIs[*frameworkScreen](t, m)
	if v := fs.choices[0].versions[fs.choices[0].version]; v != "2.7.1" {
		t.Fatalf("torch version defaults to the recommendation 2.7.1, got %s", v)
	}
	press(t, m, "left")
	mustContain(t, m.View(), "2.6.0", "recommended: 2.7.1")
	press(t, m, "right", "right") // right past the newest stays at the newest
	mustContain(t, m.View(), "2.7.1")
	press(t, m, "left", "enter")
	cs := topIs[*channelScreen](t, m)
	if cs.version != "2.6.0" || len(cs.rows) != 3 {
		t.Fatalf("channel screen for 2.6.0 with its 3 builds, got %s with %d", cs.version, len(cs.rows))
	}
}

func TestChannelMarksAndRefusesIncompatible(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter")
	cs := topIs[*channelScreen](t, m)
	if got := cs.rows[cs.cursor].Channel; got != "cu126" {
		t.Fatalf("cursor starts on the recommended cu126, got %s", got)
	}
	v := m.View()
	mustContain(t, v, "★ cu126", "~ cu118", "runs on this driver, with limits", "needs driver 570.26")
	press(t, m, "up", "enter") // cu128 does not fit
	topIs[*channelScreen](t, m)
	mustContain(t, m.View(), "does not fit this machine")
	press(t, m, "down", "enter")
	topIs[*venvScreen](t, m)
}

func TestChangeChannelKeepsVersionAndMarksCurrent(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	press(t, m, "2")
	typeText(t, m, "/work/old")
	mustContain(t, m.View(), "holds: Python 3.11.9, PyTorch 2.6.0 (cu118)")
	press(t, m, "enter", "enter") // venv, then GPU
	cs := topIs[*channelScreen](t, m)
	c := cs.rows[cs.cursor]
	if c.FrameworkVersion != "2.6.0" || c.Channel != "cu126" {
		t.Fatalf("keeps 2.6.0 and moves to the newest fitting channel, got %s %s", c.FrameworkVersion, c.Channel)
	}
	mustContain(t, m.View(), "cu118   CUDA 11.8  2.6.0    (current)")
	for cs.rows[cs.cursor].Channel != "cu118" || cs.rows[cs.cursor].FrameworkVersion != "2.6.0" {
		press(t, m, "down")
	}
	press(t, m, "enter")
	mustContain(t, m.View(), "already has")
	press(t, m, "up", "up", "enter")
	topIs[*sourcesScreen](t, m)
	press(t, m, "enter")
	ps := topIs[*planScreen](t, m)
	if ps.plan == nil || !ps.req.Reuse || ps.req.Candidate.Channel != "cu126" {
		t.Fatalf("plan for reuse on cu126, got %+v", ps.req)
	}
	mustContain(t, m.View(), "To remove", "torch==2.6.0+cu118", "To install", "torch==2.6.0+cu126")
}

func TestVenvPathValidatedAsYouType(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter", "enter")
	vs := topIs[*venvScreen](t, m)
	if vs.cursor != 1 {
		t.Fatalf("the cursor skips the Store Python with warnings, got %d", vs.cursor)
	}
	mustContain(t, m.View(), "Microsoft Store Python", "a new venv will be created here")
	clearInput(t, m, 20)
	typeText(t, m, "/etc/x")
	mustContain(t, m.View(), "/etc is not writable")
	press(t, m, "enter")
	topIs[*venvScreen](t, m)
	mustContain(t, m.View(), "Fix the path first")
	typeText(t, m, "q") // q types into the path, it does not quit
	if !strings.HasSuffix(vs.input.Value(), "q") {
		t.Fatalf("q should be typed, value %q", vs.input.Value())
	}
}

func TestVenvDropsStaleChecks(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	s := newVenvScreen(c, JourneyNew, "torch")
	s.Update(venvCheckMsg{addr: addr{s.id}, about: "old", value: app.PathCheck{Errors: []string{"stale"}}})
	if s.check != nil {
		t.Fatal("an answer about a path no longer typed must be dropped")
	}
	s.Update(venvCheckMsg{addr: addr{s.id}, about: "venv-torch", value: app.PathCheck{}})
	if s.check == nil {
		t.Fatal("the current answer is kept")
	}
}

// A command's result goes to the screen that started it and to no other, wherever that screen is
// on the stack; once its screen has gone it is dropped.
func TestResultsReachOnlyTheirScreen(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter") // welcome, GPU, framework: the channel screen is on top
	ch := topIs[*channelScreen](t, m)
	fw := m.stack[len(m.stack)-2].(*frameworkScreen)
	before := ch.View()
	odd := matrix.Selection{Candidates: []matrix.Candidate{cand("torch", "9.9.9", "cu999", "99.9", true)}}
	settle(t, m, channelsMsg{addr: addr{fw.id}, about: "torch", value: odd})
	if ch.View() != before {
		t.Fatalf("the channel screen took the framework screen's result:\n%s", ch.View())
	}
	if got := fw.choices[0].versions; len(got) != 1 || got[0] != "9.9.9" {
		t.Fatalf("the framework screen below the top did not get its result: %v", got)
	}
	press(t, m, "esc")
	settle(t, m, channelsMsg{addr: addr{ch.id}, about: "torch", value: odd}) // its screen has gone
	if fw.choices[0].versions[0] != "9.9.9" || len(m.stack) != 3 {
		t.Fatal("a result for a screen that has gone changed another")
	}
}

func newJourneyToPlan(t *testing.T, fb *fakeBackend) *Model {
	m := newTestRoot(fb)
	press(t, m, "enter", "enter", "enter", "enter")
	clearInput(t, m, 20)
	typeText(t, m, "/work/new")
	press(t, m, "enter")
	topIs[*sourcesScreen](t, m)
	press(t, m, "enter") // the proposed source: the official index
	topIs[*planScreen](t, m)
	return m
}

func TestPlanRunsNothingUntilConfirmed(t *testing.T) {
	fb := newFakeBackend()
	m := newJourneyToPlan(t, fb)
	mustContain(t, m.View(), "python -m pip install --index-url https://download.pytorch.org/whl/cu126", "about 2.4 GiB")
	if len(fb.installed) != 0 {
		t.Fatal("nothing may run before the plan is confirmed")
	}
	if r := fb.plans[0]; r.Python != `C:\Python311\python.exe` || r.Reuse || r.Venv != "/work/new" {
		t.Fatalf("plan request %+v", r)
	}
	press(t, m, "y")
	topIs[*installScreen](t, m)
	press(t, m, "enter")
	topIs[*verifyScreen](t, m)
	if len(fb.installed) != 1 {
		t.Fatal("confirming runs the plan once")
	}
	mustContain(t, m.View(), "one matmul on the GPU", "Every check passed")
	press(t, m, "enter")
	mustContain(t, m.View(), "PyTorch 2.7.1 (cu126) is installed and verified", "Activate.ps1", "Set-ExecutionPolicy", "activate.bat", "/work/new/requirements.lock", "/tmp/gpuwiz.log")
	if m.ExitCode() != 0 {
		t.Fatalf("exit %d", m.ExitCode())
	}
}

func TestInstallCtrlCAsksThenCancelsAndShowsRestored(t *testing.T) {
	fb := newFakeBackend()
	fb.blockInstall = true
	c := testCommon(fb, false)
	m := NewModel(c)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	plan, _ := fb.Plan(c.Ctx, app.PlanRequest{Venv: "/work/new", Candidate: cand("torch", "2.7.1", "cu126", "12.6", true)})
	_, start := m.Update(planConfirmedMsg{plan})
	s := topIs[*installScreen](t, m)
	// Run the install and take ticks until the download is under way.
	for _, msg := range runCmd(start) {
		m.Update(msg)
	}
	for i := 0; i < 100 && s.total == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		m.Update(drainInstall(s.job))
	}
	if !s.Busy() {
		t.Fatal("a running install is busy")
	}
	mustContain(t, m.View(), "1.0 GiB / 2.0 GiB", "Collecting package-19")
	if press(t, m, "q") {
		t.Fatal("q must not quit while installing")
	}
	press(t, m, "ctrl+c")
	mustContain(t, m.View(), "Cancel the install?")
	press(t, m, "n")
	if s.confirming || s.cancelled {
		t.Fatal("n keeps the install going")
	}
	press(t, m, "ctrl+c", "y")
	m.Wait()
	m.Update(drainInstall(s.job))
	if !fb.cancelled || s.outcome == nil {
		t.Fatal("y cancels the install's context")
	}
	mustContain(t, m.View(), "Cancelled. The environment was restored")
	press(t, m, "enter")
	mustContain(t, m.View(), "Cancelled", "restored to what it held before")
	if m.ExitCode() != 130 {
		t.Fatalf("a cancelled install exits 130, got %d", m.ExitCode())
	}
}

func TestInstallFailureShowsRestored(t *testing.T) {
	fb := newFakeBackend()
	fb.installFail = errFake("pip exited with code 1")
	m := newJourneyToPlan(t, fb)
	press(t, m, "y")
	mustContain(t, m.View(), "Install failed: pip exited with code 1. The environment was restored.")
	press(t, m, "enter")
	topIs[*doneScreen](t, m)
	mustContain(t, m.View(), "Install failed; the previous packages are back", "restored to what it held before")
	if m.ExitCode() != 1 {
		t.Fatalf("exit %d", m.ExitCode())
	}
}

// A new venv that failed before anything was installed is gone again: the screens say so and offer
// no activation of a venv that does not exist.
func TestInstallFailureOfANewVenvSaysItWasRemoved(t *testing.T) {
	fb := newFakeBackend()
	fb.installFail, fb.venvRemoved = errFake("pip download: stage exited with code 1"), true
	m := newJourneyToPlan(t, fb)
	press(t, m, "y")
	mustContain(t, m.View(), "Nothing was installed;", "the new venv was removed again.")
	press(t, m, "enter")
	topIs[*doneScreen](t, m)
	mustContain(t, m.View(), "Install failed; nothing changed", "the venv this run had created was removed again")
	for _, gone := range []string{"Activate it", "venv  /work/new", "activate"} {
		if strings.Contains(m.View(), gone) {
			t.Fatalf("the done screen still offers %q for a removed venv:\n%s", gone, m.View())
		}
	}
	if m.ExitCode() != 1 {
		t.Fatalf("exit %d", m.ExitCode())
	}
}

type errFake string

func (e errFake) Error() string { return string(e) }

func TestVerifyFailureShowsCauseAndFix(t *testing.T) {
	fb := newFakeBackend()
	fb.verify = app.Checklist{Checks: []app.Check{{Title: "CUDA build", Evidence: "torch 2.7.1+cpu", Cause: "a CPU wheel from pip's cache", Fix: "gpuwiz doctor --venv /work/new, then repair"}}}
	m := newJourneyToPlan(t, fb)
	press(t, m, "y", "enter")
	mustContain(t, m.View(), "cause: a CPU wheel", "fix: gpuwiz doctor", "Some checks failed")
	press(t, m, "enter")
	if m.ExitCode() != 4 {
		t.Fatalf("verify failed exits 4, got %d", m.ExitCode())
	}
}

func TestVerifyOpensBenchmark(t *testing.T) {
	m := newJourneyToPlan(t, newFakeBackend())
	press(t, m, "y", "enter", "b")
	if _, ok := m.top().(*benchScreen); !ok {
		t.Fatalf("b opens the benchmark, got %s", m.top().Title())
	}
	press(t, m, "esc")
	topIs[*verifyScreen](t, m)
}

func TestRepairJourney(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	press(t, m, "3")
	typeText(t, m, "/work/paddle")
	press(t, m, "enter")
	ds := topIs[*doctorScreen](t, m)
	if ds.findings[0].Code != "paddle-mixed" {
		t.Fatalf("the error comes before the warning, got %s", ds.findings[0].Code)
	}
	mustContain(t, m.View(), "ERROR", "[paddle-mixed]", "fix: remove both")
	press(t, m, "enter")
	mustContain(t, m.View(), "To remove", "paddlepaddle==3.0.0", "paddlepaddle-gpu==3.0.0", "pip uninstall -y paddlepaddle paddlepaddle-gpu")
	press(t, m, "y", "enter")
	topIs[*verifyScreen](t, m)
	press(t, m, "enter")
	mustContain(t, m.View(), "PaddlePaddle 3.0.0 (cu126) is installed and verified")
}

// r on the doctor and the verify screen forgets the answer and asks again: the second answer is
// what the screen shows.
func TestDoctorAndVerifyAskAgain(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	press(t, m, "3")
	typeText(t, m, "/work/paddle")
	press(t, m, "enter")
	mustContain(t, m.View(), "[paddle-mixed]")
	fb.findings = nil
	press(t, m, "r")
	mustContain(t, m.View(), "Doctor found no problem in /work/paddle")

	fb = newFakeBackend()
	fb.verify = app.Checklist{Checks: []app.Check{{Title: "CUDA build", Cause: "a CPU wheel"}}}
	m = newJourneyToPlan(t, fb)
	press(t, m, "y", "enter")
	mustContain(t, m.View(), "Some checks failed")
	fb.verify = newFakeBackend().verify
	press(t, m, "r")
	mustContain(t, m.View(), "Every check passed")
}

func TestCheckJourneyShowsBothFrameworks(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "4", "enter")
	mustContain(t, m.View(), "PyTorch", "recommended: PyTorch 2.7.1 on cu126", "PaddlePaddle", "cu118   2.7.1 2.6.0", "Nothing was changed")
	if !press(t, m, "q") {
		t.Fatal("q quits")
	}
}

// The check journey judges builds for the Python a new venv would be made from: the first found
// without warnings (the Store Python is passed over).
func TestCheckJourneyJudgesForTheDefaultPython(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	fb.facts = nil
	press(t, m, "4", "enter")
	mustContain(t, m.View(), `Python 3.11.9 64-bit  C:\Python311\python.exe`)
	if len(fb.facts) != 2 {
		t.Fatalf("asked for channels %d times, want once per framework", len(fb.facts))
	}
	for _, f := range fb.facts {
		if f.PythonVersion != "3.11.9" || f.PythonBits != 64 {
			t.Fatalf("%s judged for Python %q (%d-bit), want 3.11.9 64-bit", f.Framework, f.PythonVersion, f.PythonBits)
		}
	}
}

func TestResizeClampsAndFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 10}, {5, 2}, {300, 9001}} {
		m := newTestRoot(newFakeBackend())
		press(t, m, "enter", "enter", "enter")
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		w, h := clampSize(size[0], size[1])
		lines := strings.Split(m.View(), "\n")
		if len(lines) > h {
			t.Fatalf("%v: %d lines for height %d", size, len(lines), h)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("%v: line wider than %d: %q", size, w, l)
			}
		}
	}
}

func TestASCIIDrawsNoBoxDrawing(t *testing.T) {
	m := NewModel(testCommon(newFakeBackend(), true))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	asciiOnly := func() {
		t.Helper()
		for _, r := range m.View() {
			if r > 127 {
				t.Fatalf("non-ASCII %q in --ascii view:\n%s", r, m.View())
			}
		}
	}
	for _, keys := range [][]string{nil, {"enter"}, {"enter"}, {"enter"}, {"enter"}} {
		press(t, m, keys...)
		asciiOnly()
	}
	clearInput(t, m, 20)
	typeText(t, m, "/work/new")
	for _, keys := range [][]string{{"enter"}, {"enter"}, {"y"}, {"enter"}, {"enter"}} { // venv, package source, plan, install, verify
		press(t, m, keys...)
		asciiOnly()
	}
	topIs[*doneScreen](t, m)
}

func TestLogRingIsBounded(t *testing.T) {
	r := newLogRing(3)
	for _, l := range []string{"a", "b", "c", "d", "e"} {
		r.Add(l)
	}
	if got := strings.Join(r.Tail(10, 0), ","); got != "c,d,e" {
		t.Fatalf("tail %s", got)
	}
	if got := strings.Join(r.Tail(2, 1), ","); got != "c,d" {
		t.Fatalf("scrolled tail %s", got)
	}
	if r.total != 5 || r.Len() != 3 {
		t.Fatalf("total %d len %d", r.total, r.Len())
	}
}

// Two cards: the channel choice is judged for both until the user picks one with ↑/↓; then the
// builds are judged for that card alone and the benchmark runs on it.
func TestGPUScreenPicksTheCard(t *testing.T) {
	fb := newFakeBackend()
	fb.report.GPUs = append(fb.report.GPUs, gpu.GPU{Index: 1, Name: "NVIDIA GeForce GTX 1080", UUID: "GPU-2", MemoryTotalMiB: 8192, ComputeCapability: "6.1"})
	fb.report.CUDAMax, fb.report.DriverVersion = "13.0", "581.57" // a driver that runs every build: no sentence on it
	m := newTestRoot(fb)
	press(t, m, "enter")
	mustContain(t, m.View(), "every card", "all 2", "GTX 1080")
	press(t, m, "down")
	mustContain(t, m.View(), "GPU 0 only", "CUDA_DEVICE_ORDER=PCI_BUS_ID", "CUDA_VISIBLE_DEVICES=0", "look fine")
	if strings.Contains(m.View(), "2.14 on cu126") {
		t.Fatal("with GPU 0 (8.6) chosen the screen still warns about GPU 1's architecture")
	}
	press(t, m, "down")
	mustContain(t, m.View(), "GPU 1 only", "2.14 on cu126")
	press(t, m, "down") // wraps to every card
	mustContain(t, m.View(), "every card")
	press(t, m, "up")
	mustContain(t, m.View(), "GPU 1 only")

	fb.facts = nil
	press(t, m, "enter")
	topIs[*frameworkScreen](t, m)
	if len(fb.facts) == 0 {
		t.Fatal("the framework screen asked for no channels")
	}
	for _, f := range fb.facts {
		if strings.Join(f.ComputeCaps, ",") != "6.1" {
			t.Fatalf("channels judged for %q, want only GPU 1's 6.1", f.ComputeCaps)
		}
	}
	fb.facts = nil
	press(t, m, "enter")
	topIs[*channelScreen](t, m)
	if len(fb.facts) == 0 {
		t.Fatal("the channel screen asked for no channels")
	}
	for _, f := range fb.facts {
		if strings.Join(f.ComputeCaps, ",") != "6.1" {
			t.Fatalf("channel screen judged builds for %q, want only GPU 1's 6.1", f.ComputeCaps)
		}
	}
	press(t, m, "enter")
	clearInput(t, m, 20)
	typeText(t, m, "/work/new")
	press(t, m, "enter", "enter", "y", "enter", "b") // venv, package source, plan, verify, benchmark
	if _, ok := m.top().(*benchScreen); !ok || fb.benchGPU != 1 {
		t.Fatalf("benchmark screen %q on GPU %d, want GPU 1", m.top().Title(), fb.benchGPU)
	}
}

// With every card chosen the facts carry every card's capability.
func TestGPUScreenEveryCardByDefault(t *testing.T) {
	fb := newFakeBackend()
	fb.report.GPUs = append(fb.report.GPUs, gpu.GPU{Index: 1, Name: "NVIDIA GeForce GTX 1080", ComputeCapability: "6.1"})
	m := newTestRoot(fb)
	press(t, m, "enter")
	fb.facts = nil
	press(t, m, "enter")
	for _, f := range fb.facts {
		if strings.Join(f.ComputeCaps, ",") != "8.6,6.1" {
			t.Fatalf("channels judged for %q, want both cards", f.ComputeCaps)
		}
	}
}

// A Python the chosen build does not support is marked on the venv screen with the matrix's reason,
// is not the default, and enter on it is refused with what to do.
func TestVenvScreenRefusesAPythonTheBuildDoesNotSupport(t *testing.T) {
	fb := newFakeBackend()
	fb.newPython = &app.Interpreter{Path: `C:\Python314\python.exe`, Version: "3.14.0", Bits: 64, Kind: "python.org", Source: "py launcher"}
	m := newTestRoot(fb)
	press(t, m, "enter", "enter", "enter", "enter")
	s := topIs[*venvScreen](t, m)
	mustContain(t, m.View(), `C:\Python314\python.exe`, "cannot run this build", "supports Python 3.9–3.13, not 3.14")
	if s.pythons[s.cursor].Version != "3.11.9" {
		t.Fatalf("default Python %s, want the supported python.org 3.11", s.pythons[s.cursor].Version)
	}
	press(t, m, "up", "up", "enter") // back to the 3.14 entry
	topIs[*venvScreen](t, m)
	mustContain(t, m.View(), "This Python cannot run the chosen build", "Pick another Python")
	press(t, m, "down", "down", "enter")
	topIs[*sourcesScreen](t, m)
}

// Changing a venv's channel judges the builds for the venv's own Python.
func TestChangeChannelJudgesForTheVenvsPython(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	press(t, m, "down", "enter")
	typeText(t, m, "/work/old")
	press(t, m, "enter", "enter")
	topIs[*channelScreen](t, m)
	if n := len(fb.facts); n == 0 || fb.facts[n-1].PythonVersion != "3.11.9" {
		t.Fatalf("channel facts %+v, want the venv's Python 3.11.9", fb.facts)
	}
}

// helpBindings is every binding the help bar lists for the top screen, short and full.
func helpBindings(m *Model) []key.Binding {
	h := helpKeys{m}
	out := h.ShortHelp()
	for _, col := range h.FullHelp() {
		out = append(out, col...)
	}
	return out
}

// The venv screen's help used to say "↑/k up · ↓/j down" while k and j typed into the path. Every
// key its help lists now does what the help says: no letter is listed (letters type), the arrows
// move between Pythons, and k and j are typed.
func TestVenvHelpListsOnlyKeysThatWork(t *testing.T) {
	for _, journey := range []string{"1", "2"} {
		m := newTestRoot(newFakeBackend())
		press(t, m, journey)
		if journey == "1" {
			press(t, m, "enter", "enter", "enter")
		}
		vs := topIs[*venvScreen](t, m)
		for _, b := range helpBindings(m) {
			for _, k := range b.Keys() {
				if len([]rune(k)) == 1 {
					t.Errorf("journey %s: the help lists %q (%s %s), which types into the path", journey, k, b.Help().Key, b.Help().Desc)
				}
			}
		}
		if journey == "2" {
			continue
		}
		mustContain(t, m.footer(), "↑ python", "↓ python", "ctrl+c quit")
		if strings.Contains(m.footer(), "/k") || strings.Contains(m.footer(), "q quit") {
			t.Fatalf("help: %s", m.footer())
		}
		press(t, m, "up")
		if vs.cursor != 0 {
			t.Fatalf("up moves to the first Python, cursor %d", vs.cursor)
		}
		press(t, m, "down")
		if vs.cursor != 1 {
			t.Fatalf("down moves to the second Python, cursor %d", vs.cursor)
		}
		before := vs.input.Value()
		typeText(t, m, "kj")
		if vs.input.Value() != before+"kj" || vs.cursor != 1 {
			t.Fatalf("k and j type (value %q) and move nothing (cursor %d)", vs.input.Value(), vs.cursor)
		}
	}
}

// The root adds the global keys to what a screen lists: esc only with a screen to go back to, q and
// ? unless the screen takes letters, nothing while the screen is busy.
func TestRootAddsTheGlobalKeys(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	if f := m.footer(); strings.Contains(f, "esc") || !strings.Contains(f, "q quit") || !strings.Contains(f, "? more keys") {
		t.Fatalf("welcome: %s", f)
	}
	press(t, m, "enter")
	mustContain(t, m.footer(), "esc back", "q quit", "? more keys")
	fb := newFakeBackend()
	fb.blockInstall = true
	m = newJourneyToPlan(t, fb)
	_, confirm := m.Update(keyMsg("y"))
	m.Update(confirm()) // the install screen, its commands not run: busy until an outcome comes
	topIs[*installScreen](t, m)
	if f := m.footer(); strings.Contains(f, "quit") || strings.Contains(f, "?") || !strings.Contains(f, "ctrl+c cancel") {
		t.Fatalf("installing: %s", f)
	}
}

// The repair journey offers the venvs gpuwiz knows: enter takes the newest without typing, up/down
// picks another, a typed path still works and unmarks the list.
func TestRepairOffersKnownVenvs(t *testing.T) {
	fb := newFakeBackend()
	knownVenvs(fb)
	m := newTestRoot(fb)
	press(t, m, "3")
	vs := topIs[*venvScreen](t, m)
	if vs.input.Value() != "/work/paddle" || vs.known.cursor != 0 {
		t.Fatalf("the newest known venv is not offered first: input %q, cursor %d", vs.input.Value(), vs.known.cursor)
	}
	press(t, m, "down", "down", "down", "up")
	if vs.input.Value() != "/work/old" {
		t.Fatalf("down, down, down, up: input %q", vs.input.Value())
	}
	mustContain(t, m.View(), "▸ /work/old", "holds: Python 3.11.9, PyTorch 2.6.0 (cu118)")
	mustContain(t, m.footer(), "↑ venv", "↓ venv")
	clearInput(t, m, len("/work/old"))
	typeText(t, m, "/work/paddle")
	if vs.known.cursor != 0 {
		t.Fatalf("typing a known path marks its entry: cursor %d", vs.known.cursor)
	}
	typeText(t, m, "x")
	if vs.known.cursor != -1 || strings.Contains(m.View(), "▸ /work/paddle") {
		t.Fatalf("a typed path that is not on the list leaves it unmarked: cursor %d\n%s", vs.known.cursor, m.View())
	}
	press(t, m, "backspace", "up", "down") // up at the top stays; down takes the next
	press(t, m, "enter")
	ds := topIs[*doctorScreen](t, m)
	if ds.venv != "/work/old" {
		t.Fatalf("doctor runs on %q, want the entry picked with down", ds.venv)
	}
}

// Changing a channel lists only environments that hold a framework; a damaged list is a warning
// on the screen and the path can still be typed.
func TestChangeListsOnlyVenvsWithAFramework(t *testing.T) {
	fb := newFakeBackend()
	knownVenvs(fb)
	fb.knownWarning = "the list of venvs /cfg/venvs.json is damaged (unexpected end of JSON input): delete it, and gpuwiz starts a new one"
	m := newTestRoot(fb)
	press(t, m, "2")
	vs := topIs[*venvScreen](t, m)
	if len(vs.known.items) != 2 {
		t.Fatalf("items %+v", vs.known.items)
	}
	mustContain(t, m.View(), "! the list of venvs /cfg/venvs.json is damaged")
	if strings.Contains(m.View(), ".venv") {
		t.Fatalf("the venv without a framework is offered for a channel change:\n%s", m.View())
	}
	fb.known = nil
	m = newTestRoot(fb)
	press(t, m, "2")
	typeText(t, m, "/work/old")
	press(t, m, "enter")
	topIs[*gpuScreen](t, m)
}

// Issue: a typed venv path went back to the default after esc to the channel screen and enter, and
// an install went into ./venv-paddle. The typed path is kept across a change of channel or version;
// an untouched default follows the framework.
func TestTypedVenvPathSurvivesGoingBack(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter", "enter")
	vs := topIs[*venvScreen](t, m)
	clearInput(t, m, 20)
	typeText(t, m, "/tmp/mine")
	press(t, m, "esc")
	topIs[*channelScreen](t, m)
	press(t, m, "enter")
	vs = topIs[*venvScreen](t, m)
	if got := vs.input.Value(); got != "/tmp/mine" {
		t.Fatalf("back on the venv screen the path is %q, want the typed /tmp/mine", got)
	}
	press(t, m, "esc", "esc") // channel, framework: another version
	topIs[*frameworkScreen](t, m)
	press(t, m, "enter", "enter")
	if got := topIs[*venvScreen](t, m).input.Value(); got != "/tmp/mine" {
		t.Fatalf("after another version the path is %q", got)
	}
	// Left untouched, the default is the framework's own.
	m = newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter", "enter", "esc", "enter")
	if got := topIs[*venvScreen](t, m).input.Value(); got != "venv-torch" {
		t.Fatalf("the untouched default became %q", got)
	}
}

// Issue: ~/x was taken literally and a directory named ~ was made; a pasted "Copy as path" kept its
// quotes. The screen shows the absolute path the text means, and that path goes on.
func TestVenvPathIsReadAsPeopleTypeIt(t *testing.T) {
	for _, c := range []struct{ typed, want string }{
		{"~/x", "/home/me/x"},
		{`"/tmp/quoted venv"`, "/tmp/quoted venv"},
		{"$DATA/env", "/data/env"},
		{"rel/env", "/work/rel/env"},
	} {
		m := newTestRoot(newFakeBackend())
		press(t, m, "enter", "enter", "enter", "enter")
		topIs[*venvScreen](t, m)
		clearInput(t, m, 20)
		typeText(t, m, c.typed)
		mustContain(t, m.View(), "means "+c.want, "a new venv will be created here")
		press(t, m, "enter")
		if m.ch.venv != c.want {
			t.Errorf("%q: the venv chosen is %q, want %q", c.typed, m.ch.venv, c.want)
		}
	}
	m := newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter", "enter")
	clearInput(t, m, 20)
	typeText(t, m, "$NOPE/x")
	mustContain(t, m.View(), "NOPE in this path is not set")
	press(t, m, "enter")
	topIs[*venvScreen](t, m)
}

// Issue: a cancel before anything changed said the environment was restored. The line says what the
// engine did: nothing changed, the new venv removed, or the old set put back.
func TestCancelSaysWhatTheEngineDid(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	s := newInstallScreen(c, app.Plan{Steps: []app.PlanStep{{ID: "stage", Title: "download"}}}, nil)
	s.SetSize(78, 20)
	s.cancelled = true
	for _, e := range []struct {
		o         app.Outcome
		want, not string
	}{
		{app.Outcome{Result: "cancelled", Unchanged: true}, "before anything in the environment changed", "restored"},
		{app.Outcome{Result: "cancelled", Unchanged: true, VenvRemoved: true}, "created was removed again", "restored"},
		{app.Outcome{Result: "cancelled", Restored: true}, "was restored", "as it was"},
	} {
		o := e.o
		s.outcome = &o
		v := s.View()
		if !strings.Contains(v, e.want) || strings.Contains(v, e.not) {
			t.Errorf("%+v: want %q, not %q:\n%s", e.o, e.want, e.not, v)
		}
	}
	d := newDoneScreen(c, choices{venv: "/work/env", outcome: &app.Outcome{Result: "cancelled", Unchanged: true}})
	d.SetSize(78, 20)
	if v := d.View(); !strings.Contains(v, "the environment is as it was") || strings.Contains(v, "restored") {
		t.Errorf("done screen after a cancel that changed nothing:\n%s", v)
	}
}

// Issue: a repair ended on "✓ Run doctor again" while doctor still reported an error, and the done
// screen then said "run gpuwiz doctor": a loop. The step is ✗ and the done screen lists what is left.
func TestRepairWithErrorsLeftIsNoSuccess(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	s := newInstallScreen(c, app.Plan{Steps: []app.PlanStep{{ID: "0", Title: "Run doctor again"}}}, nil)
	s.SetSize(78, 20)
	s.apply([]app.InstallEvent{{StepID: "0", State: app.StepRunning}, {StepID: "0", State: app.StepFailed, Line: "doctor still finds 1 error: see the fix under it"}})
	if v := s.View(); !strings.Contains(v, "✗  Run doctor again") {
		t.Fatalf("the last step of a repair that left an error:\n%s", v)
	}
	ch := choices{journey: JourneyRepair, venv: "/work/env", outcome: &app.Outcome{OK: true, Result: "repaired"},
		verify: &app.Checklist{Checks: []app.Check{{Title: "no NVIDIA driver answered", Fix: "install the NVIDIA driver"}}}}
	d := newDoneScreen(c, ch)
	d.SetSize(78, 20)
	v := d.View()
	mustContain(t, v, "doctor still finds these problems", "no NVIDIA driver answered", "fix: install the NVIDIA driver")
	if strings.Contains(v, "run gpuwiz doctor") {
		t.Fatalf("the done screen after a repair sends the user back to doctor:\n%s", v)
	}
}

// A build that failed verification is not kept: the done screen claims no protection (nor the -c
// way of keeping it) and says what to do instead.
func TestDoneAfterAFailedVerifyClaimsNoProtection(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	o := &app.Outcome{OK: true, Result: "installed", LogPath: "/tmp/gpuwiz.log", LockFile: "/work/env/requirements.lock", ConstraintsFile: "/work/env/constraints.txt"}
	d := newDoneScreen(c, choices{venv: "/work/env", outcome: o, verify: &app.Checklist{Checks: []app.Check{{Title: "matmul on the GPU"}}}})
	d.SetSize(78, 30)
	v := d.View()
	mustContain(t, v, "Installed, but verification failed", "This build failed verification, so the venv does not keep it")
	mustContain(t, strings.Join(strings.Fields(v), " "), "then run gpuwiz again to choose another channel or version")
	for _, claim := range []string{"keeps its build by itself", "keeps later installs from replacing"} {
		if strings.Contains(v, claim) {
			t.Errorf("the done screen says %q of a build that failed verification:\n%s", claim, v)
		}
	}
}

// Issue: at 80x24 content was cut with no sign that more followed. A screen taller than the body
// says how much more there is and scrolls with pgdn/pgup (listed in the help bar); a line wider
// than the body ends with … .
func TestTallScreenSaysMoreAndScrolls(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	v := ansi.Strip(m.View())
	mustContain(t, v, "more lines below: pgdn", "pgdn page down")
	if strings.Contains(v, "Set up a new environment") {
		t.Fatalf("the menu fits? the test needs a taller screen:\n%s", v)
	}
	for range 4 {
		press(t, m, "pgdown")
	}
	v = ansi.Strip(m.View())
	mustContain(t, v, "lines above: pgup")
	if !strings.Contains(v, "4.") {
		t.Fatalf("pgdn did not reach the end of the menu:\n%s", v)
	}
	press(t, m, "down", "enter") // the screen's own keys still work while scrolled
	topIs[*venvScreen](t, m)
	// A wide line is cut with … , never silently.
	m = newTestRoot(newFakeBackend())
	press(t, m, "enter", "enter", "enter", "enter")
	mustContain(t, ansi.Strip(m.View()), `WindowsApps\pyth…`)
}

// Issue item 14: r gave no sign that the driver was asked again, and the no-driver screen said its
// advice twice.
func TestProbeAgainSaysSoAndNoDriverAdviceOnce(t *testing.T) {
	fb := newFakeBackend()
	m := newTestRoot(fb)
	press(t, m, "enter")
	topIs[*gpuScreen](t, m)
	press(t, m, "r")
	mustContain(t, m.View(), "Asked the driver again")
	fb = newFakeBackend()
	fb.report.Available, fb.report.GPUs = false, nil
	fb.report.Warnings = []string{"No NVIDIA driver answered"}
	m = newTestRoot(fb)
	press(t, m, "enter")
	v := ansi.Strip(m.View())
	if n := strings.Count(v, "No NVIDIA driver answered"); n != 1 {
		t.Fatalf("the no-driver advice is said %d times:\n%s", n, v)
	}
	// With the probe's own message (what it looked for, what to do), the screen does not say it again.
	fb = newFakeBackend()
	fb.report.Available, fb.report.GPUs = false, nil
	fb.report.Message = "No NVIDIA driver found. Looked for: NVML. Install the driver for your card from https://www.nvidia.com/Download/index.aspx and run gpuwiz again, or continue with a CPU build."
	m = newTestRoot(fb)
	press(t, m, "enter")
	v = ansi.Strip(m.View())
	if n := strings.Count(v, "run gpuwiz again"); n != 1 || !strings.Contains(v, "No CUDA toolkit is needed") {
		t.Fatalf("the no-driver advice is said %d times (want once, and the toolkit line):\n%s", n, v)
	}
}
