package ui

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
)

// fakeBackend is a described machine for screen tests: an RTX 3060 on driver 560, two Pythons,
// a matrix of a few torch and paddle builds, and a scripted install.
type fakeBackend struct {
	mu           sync.Mutex
	report       gpu.Report
	probeErr     error
	benchGPU     int                     // the card the last Bench call was asked for
	benchEvents  []bench.Event           // what Bench plays instead of the H200 recording
	benchCutOff  bool                    // Bench's stream ends without Run's summary
	benchSamples bool                    // Bench plays the recorded sampler readings too (teatest only)
	facts        []matrix.Facts          // every Channels call's facts
	matrixFile   string                  // when set, Channels judges this matrix file's builds (the real Select)
	newPython    *app.Interpreter        // listed first by Pythons when set
	venvs        map[string]app.VenvInfo // existing venvs by path
	known        []app.KnownVenv         // what KnownVenvs answers
	knownWarning string
	installLine  int  // log lines the install prints
	blockInstall bool // install runs until cancelled
	installFail  error
	venvRemoved  bool
	verify       app.Checklist
	findings     []app.Finding
	plans        []app.PlanRequest
	sources      []app.PackageSource  // what Sources reports (defaultSources when nil)
	proposed     int                  // the index Sources proposes
	sourceReqs   []app.SourcesRequest // every Sources call
	installed    []app.Plan
	adds         []app.AddRequest // every PlanAdd call
	cancelled    bool
	driverOffer  *app.DriverOffer  // what DriverOffer answers; nil: an error (no driver step)
	driverResult app.DriverResult  // what RunDriver ends with, after its events
	driverRuns   []app.DriverOffer // every RunDriver call
	resumed      *app.Resumed      // what Resume answers
}

func rtx3060() gpu.Report {
	return gpu.Report{Available: true, Backend: "simulated", DriverVersion: "560.94", CUDAMax: "12.6", Simulated: true,
		GPUs: []gpu.GPU{{Index: 0, Name: "NVIDIA GeForce RTX 3060", UUID: "GPU-1", MemoryTotalMiB: 12288, MemoryUsedMiB: 512, ComputeCapability: "8.6"}}}
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{report: rtx3060(), installLine: 20,
		venvs: map[string]app.VenvInfo{"/work/old": {Path: "/work/old", PythonVersion: "3.11.9", Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu118"},
			"/work/paddle": {Path: "/work/paddle", PythonVersion: "3.11.9", Framework: "paddle", FrameworkVersion: "3.0.0"}},
		verify: app.Checklist{OK: true, Checks: []app.Check{
			{ID: "import", Title: "torch imports", OK: true, Evidence: "2.6.0+cu126"},
			{ID: "cuda", Title: "CUDA build", OK: true, Evidence: "torch.version.cuda 12.6"},
			{ID: "device", Title: "GPU visible", OK: true, Evidence: "NVIDIA GeForce RTX 3060 (8.6)"},
			{ID: "matmul", Title: "one matmul on the GPU matches the CPU", OK: true, Evidence: "rel err 2e-7"}}},
		findings: []app.Finding{
			{Code: "pip-extra-index", Severity: "warning", Title: "pip adds an extra index", Evidence: []string{"PIP_EXTRA_INDEX_URL=https://mirror.example/simple"}, Fix: "unset PIP_EXTRA_INDEX_URL"},
			{Code: "paddle-mixed", Severity: "error", Title: "paddlepaddle and paddlepaddle-gpu are both installed", Evidence: []string{"paddlepaddle 3.0.0, paddlepaddle-gpu 3.0.0"}, Fix: "remove both and the paddle/ directory, reinstall paddlepaddle-gpu"}}}
}

func cand(fw, v, ch, cuda string, ok bool, reasons ...string) matrix.Candidate {
	name := map[string]string{"torch": "torch", "paddle": "paddlepaddle-gpu"}[fw]
	return matrix.Candidate{Framework: fw, FrameworkVersion: v, Channel: ch, CUDA: cuda, Compatible: ok, Verified: true,
		IndexURL: "https://download.pytorch.org/whl/" + ch, Reasons: reasons,
		Packages: []matrix.Package{{Name: name, Version: v, LocalLabel: "+" + ch}}}
}

func (f *fakeBackend) Probe(ctx context.Context) (gpu.Report, error) { return f.report, f.probeErr }

func (f *fakeBackend) DriverOffer(ctx context.Context) (app.DriverOffer, error) {
	if f.driverOffer == nil {
		return app.DriverOffer{}, errors.New("no driver step in this test")
	}
	return *f.driverOffer, nil
}

func (f *fakeBackend) RunDriver(ctx context.Context, o app.DriverOffer, events chan<- app.DriverEvent) app.DriverResult {
	f.mu.Lock()
	f.driverRuns = append(f.driverRuns, o)
	f.mu.Unlock()
	total := int64(823_000_000)
	events <- app.DriverEvent{Step: "download", State: app.StepRunning, Done: o.Have, Total: total}
	events <- app.DriverEvent{Step: "download", Done: total, Total: total}
	events <- app.DriverEvent{Step: "download", State: app.StepDone}
	r := f.driverResult
	if r.Failure != nil && r.Failure.Code == app.DriverFailRefused {
		events <- app.DriverEvent{Step: "check", State: app.StepFailed}
		return r
	}
	events <- app.DriverEvent{Step: "check", State: app.StepDone}
	if r.Failure != nil {
		events <- app.DriverEvent{Step: "install", State: app.StepFailed}
		return r
	}
	events <- app.DriverEvent{Step: "install", State: app.StepDone}
	return r
}

func (f *fakeBackend) Resume(ctx context.Context) (*app.Resumed, gpu.Report, error) {
	return f.resumed, f.report, nil
}

func (f *fakeBackend) Channels(ctx context.Context, facts matrix.Facts) (matrix.Selection, error) {
	f.mu.Lock()
	f.facts = append(f.facts, facts)
	f.mu.Unlock()
	if f.matrixFile != "" {
		m, err := matrix.LoadFile(f.matrixFile)
		if err != nil {
			return matrix.Selection{}, err
		}
		return m.Select(facts), nil
	}
	var all []matrix.Candidate
	if facts.Framework == "torch" {
		all = []matrix.Candidate{
			cand("torch", "2.7.1", "cu128", "12.8", false, "needs driver 570.26 for CUDA 12.8; this driver 560.94 supports CUDA 12.6"),
			cand("torch", "2.7.1", "cu126", "12.6", true, "driver 560.94 runs CUDA 12.6", "sm_86 is in the wheel"),
			cand("torch", "2.7.1", "cu118", "11.8", true, "driver 560.94 runs CUDA 11.8"),
			cand("torch", "2.6.0", "cu126", "12.6", true, "driver 560.94 runs CUDA 12.6"),
			cand("torch", "2.6.0", "cu124", "12.4", true, "driver 560.94 runs CUDA 12.4"),
			cand("torch", "2.6.0", "cu118", "11.8", true, "driver 560.94 runs CUDA 11.8"),
		}
		all[2].MinorCompat = true
	} else {
		all = []matrix.Candidate{
			cand("paddle", "3.0.0", "cu126", "12.6", true, "driver 560.94 runs CUDA 12.6"),
			cand("paddle", "3.0.0", "cu118", "11.8", true, "driver 560.94 runs CUDA 11.8"),
		}
	}
	if strings.HasPrefix(facts.PythonVersion, "3.14") { // as the real matrix says of these releases
		for i := range all {
			all[i].Compatible = false
			all[i].Reasons = append(all[i].Reasons, facts.Framework+" "+all[i].FrameworkVersion+" supports Python 3.9–3.13, not 3.14")
		}
	}
	sel := matrix.Selection{Framework: facts.Framework, Facts: facts}
	for _, c := range all {
		if facts.FrameworkVersion == "" || c.FrameworkVersion == facts.FrameworkVersion {
			sel.Candidates = append(sel.Candidates, c)
		}
	}
	for i := range sel.Candidates {
		if sel.Candidates[i].Compatible {
			r := sel.Candidates[i]
			sel.Recommended = &r
			break
		}
	}
	return sel, nil
}

func (f *fakeBackend) Pythons(ctx context.Context) ([]app.Interpreter, error) {
	var first []app.Interpreter
	if f.newPython != nil {
		first = append(first, *f.newPython)
	}
	return append(first, []app.Interpreter{
		{Path: `C:\Users\me\AppData\Local\Microsoft\WindowsApps\python3.12.exe`, Version: "3.12.8", Bits: 64, Kind: "store", Source: "PATH",
			Warnings: []string{"Microsoft Store Python: torch DLLs fail to load from its sandbox; use python.org"}},
		{Path: `C:\Python311\python.exe`, Version: "3.11.9", Bits: 64, Kind: "python.org", Source: "py launcher"},
	}...), nil
}

func (f *fakeBackend) CheckVenv(path string) app.PathCheck {
	switch {
	case strings.TrimSpace(path) == "":
		return app.PathCheck{Errors: []string{"no venv path given: pass a directory such as ./venv"}}
	case strings.Contains(path, "张"):
		return app.PathCheck{Warnings: []string{"the path has non-ASCII characters: some wheels fail to install there; prefer C:\\venvs\\torch"}}
	case strings.HasPrefix(path, "/etc"):
		return app.PathCheck{Errors: []string{"cannot create " + path + ": /etc is not writable; choose a directory you own"}}
	}
	_, ok := f.venvs[path]
	return app.PathCheck{Exists: ok}
}

func (f *fakeBackend) KnownVenvs(ctx context.Context) ([]app.KnownVenv, string) {
	return f.known, f.knownWarning
}

func (f *fakeBackend) InspectVenv(ctx context.Context, path string) (app.VenvInfo, error) {
	if v, ok := f.venvs[path]; ok {
		return v, nil
	}
	return app.VenvInfo{}, errors.New("no venv")
}

// defaultSources are a torch cu126 build's sources as a machine behind a slow link might see them:
// the official index answers with the build, the flat Aliyun page's host does not resolve, and the
// NJU mirror answers without the build.
func defaultSources() []app.PackageSource {
	return []app.PackageSource{
		{ID: "official", Name: "official cu126 index", Kind: "official", IndexURL: "https://download.pytorch.org/whl/cu126",
			Where: "https://download.pytorch.org/whl/cu126", Answers: true, HasBuild: true, Millis: 412, File: "torch-2.7.1+cu126-cp311-cp311-win_amd64.whl"},
		{ID: "aliyun-pytorch", Name: "Aliyun PyTorch wheels (flat page) + Aliyun PyPI", Kind: "flat",
			FindLinks: "https://mirrors.aliyun.com/pytorch-wheels/cu126/", Mirror: "https://mirrors.aliyun.com/pypi/simple/",
			Where:  "wheels https://mirrors.aliyun.com/pytorch-wheels/cu126/ + dependencies https://mirrors.aliyun.com/pypi/simple/",
			Millis: 3, Why: "does not answer: the host name mirrors.aliyun.com does not resolve (no proxy is set: HTTPS_PROXY, HTTP_PROXY and pip's proxy setting are empty)"},
		{ID: "nju-pytorch", Name: "Nanjing University mirror of download.pytorch.org", Kind: "index", IndexURL: "https://mirrors.nju.edu.cn/pytorch/whl/cu126",
			Where: "https://mirrors.nju.edu.cn/pytorch/whl/cu126", Answers: true, Millis: 96, Why: "has torch but not 2.7.1+cu126 (has 2.6.0+cu126, 2.7.0+cu126)"},
	}
}

func (f *fakeBackend) Sources(ctx context.Context, req app.SourcesRequest) (app.SourcesReport, error) {
	f.mu.Lock()
	f.sourceReqs = append(f.sourceReqs, req)
	f.mu.Unlock()
	r := app.SourcesReport{Build: req.Candidate.Framework + " " + req.Candidate.FrameworkVersion + "+" + req.Candidate.Channel + " for Python 3.11 on windows/amd64",
		Timeout: 3 * time.Second, Proposed: f.proposed, Sources: f.sources}
	if r.Sources == nil {
		r.Sources = defaultSources()
	}
	if req.Custom != "" {
		src := app.PackageSource{ID: "custom", Name: "your URL", Kind: "custom", Where: req.Custom, Millis: 3000, TimedOut: true,
			Why: "does not answer: no answer within 3s (no proxy is set: HTTPS_PROXY, HTTP_PROXY and pip's proxy setting are empty)"}
		if strings.Contains(req.Custom, "good") {
			src = app.PackageSource{ID: "custom", Name: "your URL (a package index)", Kind: "custom", IndexURL: req.Custom, Where: req.Custom,
				Answers: true, HasBuild: true, Millis: 35, File: "torch-2.7.1+cu126-cp311-cp311-win_amd64.whl"}
		}
		r = app.SourcesReport{Build: r.Build, Timeout: r.Timeout, Proposed: -1, Sources: []app.PackageSource{src}}
		if src.Usable() {
			r.Proposed = 0
		}
	}
	return r, nil
}

func (f *fakeBackend) Plan(ctx context.Context, req app.PlanRequest) (app.Plan, error) {
	f.mu.Lock()
	f.plans = append(f.plans, req)
	f.mu.Unlock()
	c := req.Candidate
	p := app.Plan{Venv: req.Venv, Candidate: c, DownloadBytes: 2_530_000_000,
		Steps:    []app.PlanStep{{ID: "venv", Title: "Create the venv"}, {ID: "pip", Title: "Upgrade pip"}, {ID: "install", Title: "Install " + c.Framework + " " + c.FrameworkVersion + "+" + c.Channel}, {ID: "lock", Title: "Write requirements.lock"}},
		Install:  []string{c.Framework + "==" + c.FrameworkVersion + "+" + c.Channel},
		Commands: lines("python -m venv "+req.Venv, "python -m pip install --upgrade pip", "python -m pip install --index-url "+cmp.Or(req.IndexURL, c.IndexURL)+" "+c.Framework+"=="+c.FrameworkVersion),
		Notes:    []string{"PIP_INDEX_URL and PIP_EXTRA_INDEX_URL are cleared for these commands"}}
	if req.Reuse {
		p.Steps = p.Steps[1:]
		p.Commands = p.Commands[1:]
		if cur, ok := f.venvs[req.Venv]; ok && cur.Framework == c.Framework {
			p.Uninstall = []string{cur.Framework + "==" + cur.FrameworkVersion + "+" + cur.Channel}
		}
	}
	return p, nil
}

func (f *fakeBackend) Install(ctx context.Context, p app.Plan, events chan<- app.InstallEvent) app.Outcome {
	for i, s := range p.Steps {
		events <- app.InstallEvent{StepID: s.ID, State: app.StepRunning, Message: s.Title}
		if i == len(p.Steps)/2 {
			for j := 0; j < f.installLine; j++ {
				events <- app.InstallEvent{StepID: s.ID, Line: fmt.Sprintf("Collecting package-%d", j)}
			}
			events <- app.InstallEvent{StepID: s.ID, Progress: &app.Progress{Done: 1 << 30, Total: 2 << 30}}
			if f.blockInstall {
				<-ctx.Done()
				f.mu.Lock()
				f.cancelled = true
				f.mu.Unlock()
				events <- app.InstallEvent{StepID: s.ID, State: app.StepFailed, Line: "Successfully uninstalled package-19"}
				return app.Outcome{Result: "cancelled", Restored: true, Err: ctx.Err(), LogPath: "/tmp/gpuwiz.log"}
			}
		}
		if f.installFail != nil && i == len(p.Steps)-1 {
			events <- app.InstallEvent{StepID: s.ID, State: app.StepFailed}
			if f.venvRemoved { // the engine's answer for a new venv that failed before any install
				return app.Outcome{Result: "unchanged", Err: f.installFail, Restored: true, VenvRemoved: true, LogPath: "/tmp/gpuwiz.log"}
			}
			return app.Outcome{Result: "restored", Err: f.installFail, Restored: true, LogPath: "/tmp/gpuwiz.log"}
		}
		events <- app.InstallEvent{StepID: s.ID, State: app.StepDone}
	}
	f.mu.Lock()
	f.installed = append(f.installed, p)
	f.mu.Unlock()
	o := app.Outcome{OK: true, Result: "installed", LogPath: "/tmp/gpuwiz.log", LockFile: p.Venv + "/requirements.lock", Protected: p.Venv + "/pip.conf"}
	if p.Kind == app.PlanOfAdd { // the add's quick verify comes with its outcome
		v := f.verify
		o.Verify = &v
	}
	return o
}

// PlanAdd previews projx (a project with one dependency), needsnew (needs a newer torch: refused)
// and opencv-contrib-python (a second OpenCV variant); anything else is already installed.
func (f *fakeBackend) PlanAdd(ctx context.Context, req app.AddRequest) (app.AddPreview, error) {
	f.mu.Lock()
	f.adds = append(f.adds, req)
	f.mu.Unlock()
	p := app.AddPreview{Framework: "torch", Channel: "cu126", Build: []string{"torch==2.6.0+cu126", "torchvision==0.21.0+cu126"}}
	for _, r := range append(append([]string{}, req.Requirements...), req.Packages...) {
		switch {
		case strings.Contains(r, "offline"): // the source does not answer: pip's own output, as pip printed it
			return app.AddPreview{}, &app.ExitError{Code: app.ExitFailure, Err: &app.AddPreviewFailed{Kind: app.AddFailUnreachable,
				LogPath: "/home/me/.cache/gpuwiz/logs/add-20261203-101500.log", Err: errors.New(pipUnreachable)}}
		case strings.Contains(r, "needsnew"):
			p.Refusal, p.WayOut = &app.AddRefusal{Requirement: "needsnew 1.0", Needs: "torch>=2.7", Installed: "torch 2.6.0+cu126"}, "2.7.1"
			return p, nil
		case strings.Contains(r, "projx"), strings.HasSuffix(r, ".txt"):
			p.Changes = append(p.Changes, app.AddChange{Name: "projx", To: "1.0"}, app.AddChange{Name: "numpy", From: "1.26.4", To: "2.1.0"})
			p.Troubles = append(p.Troubles, app.AddTrouble{Code: app.TroubleNumpyMajor, Dists: []string{"numpy 1.26.4", "numpy 2.1.0"}})
		case strings.Contains(r, "opencv"):
			p.Changes = append(p.Changes, app.AddChange{Name: "opencv-contrib-python", To: "4.10.0"})
			p.Troubles = append(p.Troubles, app.AddTrouble{Code: app.TroubleOpenCVVariants, Dists: []string{"opencv-python 4.10.0", "opencv-contrib-python 4.10.0"}})
		}
	}
	if len(p.Changes) > 0 {
		p.Plan = app.Plan{Kind: app.PlanOfAdd, Venv: req.Venv, Steps: []app.PlanStep{{ID: "snapshot", Title: "Record what the venv holds"}, {ID: "stage", Title: "Download 2 packages"},
			{ID: "install", Title: "Install the project's packages"}, {ID: "verify", Title: "Check the GPU build"}, {ID: "lock", Title: "Write requirements.lock"}}}
	}
	return p, nil
}

// pipUnreachable is what an add's preview says when pip's index does not answer: pip's last lines
// (real pip 23.2 against a closed loopback port).
const pipUnreachable = `pip could not work out what to install (exit status 1); nothing was changed. pip said:
WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPConnection object at 0x7f370d60c2d0>: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/offline/
WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPConnection object at 0x7f370d60d5d0>: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/offline/
ERROR: Could not find a version that satisfies the requirement offline (from versions: none)
ERROR: No matching distribution found for offline`

// AddSources: the venv's build came with the Aliyun PyPI mirror for its dependencies; the pip
// settings name no index; the sources list adds the Tsinghua mirror. Names in the wizard's language,
// as the sources list gives them.
func (f *fakeBackend) AddSources(ctx context.Context, venv string) app.AddSources {
	cu126 := "https://download.pytorch.org/whl/cu126"
	aliyun, tuna := "Aliyun PyPI mirror", "Tsinghua TUNA PyPI mirror"
	if i18n.IsChinese() {
		aliyun, tuna = "阿里云 PyPI 镜像源", "清华 TUNA PyPI 镜像源"
	}
	rec := app.AddSource{Kind: app.AddFromMirror, IndexURL: "https://mirrors.aliyun.com/pypi/simple/", Name: aliyun, Recorded: true, Beside: cu126}
	return app.AddSources{Build: []string{"torch==2.6.0+cu126"}, FrameworkIndex: cu126, Current: rec,
		Choices: []app.AddSource{rec, {Kind: app.AddFromPipSettings},
			{Kind: app.AddFromMirror, IndexURL: "https://pypi.tuna.tsinghua.edu.cn/simple", Name: tuna, Beside: cu126}}}
}

func (f *fakeBackend) Verify(ctx context.Context, venv string, c matrix.Candidate) (app.Checklist, error) {
	return f.verify, nil
}

func (f *fakeBackend) Doctor(ctx context.Context, venv string) (*app.Diagnosis, error) {
	return &app.Diagnosis{Report: app.DoctorReport{Findings: f.findings}}, nil
}

func (f *fakeBackend) RepairPlan(ctx context.Context, venv string, r *app.Diagnosis) (app.Plan, error) {
	c := cand("paddle", "3.0.0", "cu126", "12.6", true)
	return app.Plan{Venv: venv, Candidate: c,
		Steps:     []app.PlanStep{{ID: "remove", Title: "Remove paddlepaddle, paddlepaddle-gpu and paddle/"}, {ID: "install", Title: "Install paddlepaddle-gpu 3.0.0"}},
		Uninstall: []string{"paddlepaddle==3.0.0", "paddlepaddle-gpu==3.0.0", venv + "/lib/site-packages/paddle/"},
		Install:   []string{"paddlepaddle-gpu==3.0.0"},
		Commands:  lines("python -m pip uninstall -y paddlepaddle paddlepaddle-gpu", "python -m pip install --index-url https://www.paddlepaddle.org.cn/packages/stable/cu126/ paddlepaddle-gpu==3.0.0")}, nil
}

// lines are a plan's commands, each as typed.
func lines(commands ...string) []app.PlanCommand {
	out := make([]app.PlanCommand, len(commands))
	for i, c := range commands {
		out[i] = app.PlanCommand{Line: c}
	}
	return out
}

// Bench plays a recorded run: the H200's events (testdata/bench/h200_torch.jsonl), then Run's
// Finished summary, as bench.Run sends them; benchEvents replaces the events and benchCutOff ends
// the stream without the summary. With benchSamples the sampler readings recorded beside it come in
// between, in one fixed order (the last event last): that needs both channels read at once, as a
// real program does, so only teatest runs may ask for it.
func (f *fakeBackend) Bench(ctx context.Context, venv string, gpuIndex int) (*app.BenchRun, error) {
	f.benchGPU = gpuIndex
	evs := f.benchEvents
	if evs == nil {
		evs = recording("h200_torch.jsonl")
	}
	var samples [][]gpu.Sample
	if f.benchSamples {
		samples = recordedSampleSets()
	}
	msgs := interleave(evs, samples, false)
	for i := len(msgs) - 1; i >= 0; i-- { // the last event last: when it shows, every reading was read
		if _, ok := msgs[i].(BenchEventMsg); ok {
			msgs = append(append(msgs[:i:i], msgs[i+1:]...), msgs[i])
			break
		}
	}
	if !f.benchCutOff {
		t := bench.NewTally("torch")
		for _, e := range evs {
			t.Add(e)
		}
		msgs = append(msgs, BenchEventMsg{Event: bench.Finished{Summary: t.Summary()}})
	}
	if !f.benchSamples { // everything buffered: the screen tests read it one command at a time
		events := make(chan bench.Event, len(msgs))
		for _, msg := range msgs {
			events <- msg.(BenchEventMsg).Event
		}
		close(events)
		return &app.BenchRun{Framework: "torch", Events: events}, nil
	}
	events, readings := make(chan bench.Event), make(chan []gpu.Sample)
	go func() {
		defer close(readings)
		defer close(events)
		for _, msg := range msgs {
			switch msg := msg.(type) {
			case BenchEventMsg:
				select {
				case events <- msg.Event:
				case <-ctx.Done():
					return
				}
			case GPUSamplesMsg:
				select {
				case readings <- msg.Samples:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return &app.BenchRun{Framework: "torch", Events: events, Samples: readings}, nil
}

// recording reads a recorded benchmark output from testdata/bench.
func recording(name string) []bench.Event {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "bench", name))
	if err != nil {
		panic(err)
	}
	var out []bench.Event
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		out = append(out, bench.ParseLine([]byte(line)))
	}
	return out
}

// recordedSampleSets are the sampler readings recorded beside the H200 run.
func recordedSampleSets() [][]gpu.Sample {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "samples_h200.jsonl"))
	if err != nil {
		panic(err)
	}
	var out [][]gpu.Sample
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		var s []gpu.Sample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}

func (f *fakeBackend) Activation(venv string) []app.Activation {
	return []app.Activation{{Shell: app.ShellPowerShell, Command: `& "` + venv + `\Scripts\Activate.ps1"`}, {Shell: app.ShellCmd, Command: `"` + venv + `\Scripts\activate.bat"`}}
}
