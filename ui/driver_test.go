package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/driver"
)

// rig1060 is a desktop GTX 1060 on driver 456.71 (CUDA 11.1), the report of a --simulate file.
const rig1060 = "../testdata/driver/rig-gtx1060-456.json"

// driver1060 makes the fake that machine, with the driver step's real answer for it: the check of
// steps/app against the embedded matrix and driver table (no network), ready to install.
func driver1060() func(*fakeBackend) {
	env := &app.Env{G: &app.Globals{SimulateFile: rig1060}}
	rep, err := env.GPUReport(context.Background())
	if err != nil {
		panic(err)
	}
	chk, err := env.CheckDriver(context.Background(), app.DriverRequest{OS: "windows", Offline: true})
	if err != nil {
		panic(err)
	}
	ch := chk.Choices[0]
	return func(f *fakeBackend) {
		f.report = rep
		f.matrixFile = "../matrix/matrix.toml" // the builds judged for this card, as the wizard does
		f.driverOffer = &app.DriverOffer{Check: chk, Card: ch.Card.Name, Version: ch.Driver.Version, File: ch.Driver.File, Why: ch.Why, Ready: true}
		f.driverResult = app.DriverResult{Version: ch.Driver.Version, Downloaded: true, Checked: true, Ran: true}
	}
}

// driverRestart: NVIDIA's installer asks for a restart (3010).
func driverRestart() func(*fakeBackend) {
	base := driver1060()
	return func(f *fakeBackend) {
		base(f)
		f.driverResult.ExitCode, f.driverResult.Restart = driver.ExitRebootRequired, true
	}
}

// driverRefused: the downloaded file's signature does not check out.
func driverRefused() func(*fakeBackend) {
	base := driver1060()
	return func(f *fakeBackend) {
		base(f)
		f.driverResult = app.DriverResult{Downloaded: true, Exit: app.ExitFailure,
			Failure: &app.DriverFailure{Code: app.DriverFailRefused, Refusal: &driver.Refusal{Code: "bad_signature", Detail: "TRUST_E_BAD_DIGEST"}, Exit: app.ExitFailure}}
	}
}

// resumed1060: the wizard starts after the restart, with the new driver answering.
func resumed1060() func(*fakeBackend) {
	base := driver1060()
	return func(f *fakeBackend) {
		base(f)
		f.report.DriverVersion, f.report.CUDAMax = "581.57", "13.0"
		f.driverOffer = nil
		f.resumed = &app.Resumed{Point: app.ResumePoint{Step: app.ResumeStep, Before: "456.71", Version: "581.57"}, Now: "581.57", Found: true}
	}
}

// The GPU screen offers u only when the driver is missing or an update would add CUDA versions the
// card can use: the GTX 1060 on 456.71 gets it; the same card on 581.57, nothing to add, does not.
func TestDriverStoryOnlyWhenAnUpdateAdds(t *testing.T) {
	f := newFakeBackend()
	driver1060()(f)
	st := storyOf(f.driverOffer)
	if st == nil || !st.ready || len(st.adds) == 0 || st.version != "581.57" || len(st.runs) == 0 || st.runs[len(st.runs)-1] != "11.8" {
		t.Fatalf("GTX 1060 on 456.71: %+v", st)
	}
	env := &app.Env{G: &app.Globals{SimulateFile: rig1060}}
	chk, err := env.CheckDriver(context.Background(), app.DriverRequest{OS: "windows", Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	chk.Current = "581.57"
	for i := range chk.Needs {
		chk.Needs[i].CurrentOK = chk.Needs[i].ChosenOK
	}
	if st := storyOf(&app.DriverOffer{Check: chk, Version: "581.57", Ready: true}); st != nil {
		t.Errorf("up to date: %+v", st)
	}
	if st := storyOf(nil); st != nil {
		t.Errorf("no offer: %+v", st)
	}
}

// The driver screen mid-download: under the download step, a bar with the sizes, the rate and the
// time left, as wide as leaves the line within the screen.
func TestDriverScreenShowsTheDownloadBar(t *testing.T) {
	f := newFakeBackend()
	driver1060()(f)
	s := newDriverScreen(testCommon(f, false), *f.driverOffer, &sync.WaitGroup{})
	s.SetSize(72, 24)
	s.job = newJob[app.DriverEvent, app.DriverResult](s.id, func() {}, driverDrainLimit)
	s.Update(driverBatchMsg{addr{s.id}, []app.DriverEvent{{Step: "download", State: app.StepRunning},
		{Step: "download", Done: 300 << 20, Total: 800 << 20, Rate: 12 << 20, ETA: 42 * time.Second}}, nil})
	lines := strings.Split(ansi.Strip(s.View()), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Download") })
	if i < 0 || i+1 == len(lines) {
		t.Fatalf("no download step:\n%s", strings.Join(lines, "\n"))
	}
	want := "    ████████░░░░░░░░░░░░░░ 300.0 MiB / 800.0 MiB · 12.0 MiB/s · 42s left" // 72 columns less the indent and sizes
	if lines[i+1] != want {
		t.Fatalf("under the download step:\n%q\nwant\n%q", lines[i+1], want)
	}
}
