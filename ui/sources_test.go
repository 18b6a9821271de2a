package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/install"
	"gpuwiz/steps/testkit/pyindex"
)

// mirrorSources: the official index is too slow from here, the Aliyun flat page has the build, the
// NJU mirror has it too and answered fastest.
func mirrorSources(f *fakeBackend) {
	s := defaultSources()
	s[0].Answers, s[0].HasBuild, s[0].Millis, s[0].File, s[0].TimedOut = false, false, 3000, "", true
	s[0].Why = "does not answer: no answer within 3s (no proxy is set: HTTPS_PROXY, HTTP_PROXY and pip's proxy setting are empty)"
	s[1].Answers, s[1].HasBuild, s[1].Millis, s[1].Why, s[1].File = true, true, 140, "", "torch-2.7.1+cu126-cp311-cp311-win_amd64.whl"
	s[2].HasBuild, s[2].Millis, s[2].Why, s[2].File = true, 58, "", "torch-2.7.1+cu126-cp311-cp311-win_amd64.whl"
	f.sources, f.proposed = s, 2
}

func newJourneyToSources(t *testing.T, fb *fakeBackend) (*Model, *sourcesScreen) {
	m := newTestRoot(fb)
	press(t, m, "enter", "enter", "enter", "enter")
	clearInput(t, m, 20)
	typeText(t, m, "/work/new")
	press(t, m, "enter")
	return m, topIs[*sourcesScreen](t, m)
}

func TestSourcesProposedIsPreselectedAndFlowsIntoThePlan(t *testing.T) {
	fb := newFakeBackend()
	mirrorSources(fb)
	m, s := newJourneyToSources(t, fb)
	if len(fb.sourceReqs) != 1 {
		t.Fatalf("sources checked %d times, want once", len(fb.sourceReqs))
	}
	if r := fb.sourceReqs[0]; r.Venv != "/work/new" || r.Python != `C:\Python311\python.exe` || r.Candidate.Channel != "cu126" || r.Custom != "" {
		t.Fatalf("sources request %+v", r)
	}
	if s.cursor != 2 {
		t.Fatalf("cursor %d, want the proposed NJU mirror (2)", s.cursor)
	}
	mustContain(t, m.View(), "too slow", "has this build  58 ms", "has this build  140 ms", "carries torch-2.7.1+cu126")
	press(t, m, "enter")
	ps := topIs[*planScreen](t, m)
	r := fb.plans[0]
	if r.IndexURL != "https://mirrors.nju.edu.cn/pytorch/whl/cu126" || r.FindLinks != "" || r.Mirror != "" || !strings.Contains(r.Source, "Nanjing") {
		t.Fatalf("plan request %+v", r)
	}
	if ps.req.IndexURL != r.IndexURL {
		t.Fatalf("the plan screen's request %+v", ps.req)
	}
	mustContain(t, m.View(), "packages from Nanjing University mirror", "https://mirrors.nju.edu.cn/pytorch/whl/cu126 torch==2.7.1")
}

func TestSourcesFlatPageGivesFindLinksAndMirror(t *testing.T) {
	fb := newFakeBackend()
	mirrorSources(fb)
	m, _ := newJourneyToSources(t, fb)
	press(t, m, "up", "enter")
	r := fb.plans[0]
	if r.FindLinks != "https://mirrors.aliyun.com/pytorch-wheels/cu126/" || r.Mirror != "https://mirrors.aliyun.com/pypi/simple/" || r.IndexURL != "" {
		t.Fatalf("plan request %+v", r)
	}
}

// The official index, chosen, is no override at all: the plan is the channel's own.
func TestSourcesOfficialChoiceLeavesThePlanAlone(t *testing.T) {
	fb := newFakeBackend()
	m, s := newJourneyToSources(t, fb)
	if s.cursor != 0 {
		t.Fatalf("cursor %d", s.cursor)
	}
	press(t, m, "enter")
	if r := fb.plans[0]; r.IndexURL != "" || r.FindLinks != "" || r.Mirror != "" || r.Source != "" {
		t.Fatalf("plan request %+v", r)
	}
}

func TestSourcesUnusableNeedsASecondEnter(t *testing.T) {
	fb := newFakeBackend()
	m, _ := newJourneyToSources(t, fb)
	press(t, m, "down", "enter") // Aliyun: its host does not resolve
	topIs[*sourcesScreen](t, m)
	mustContain(t, m.View(), "This source cannot be used as it is: it does not answer", "Press enter again to use it anyway")
	press(t, m, "enter")
	topIs[*planScreen](t, m)
	if r := fb.plans[0]; r.FindLinks == "" {
		t.Fatalf("plan request %+v", r)
	}
}

func TestSourcesCustomURLIsCheckedThenUsed(t *testing.T) {
	fb := newFakeBackend()
	m, s := newJourneyToSources(t, fb)
	press(t, m, "down", "down", "down")
	if !s.onInput() || !s.Typing() {
		t.Fatal("the last row is the URL entry, and it takes letters")
	}
	typeText(t, m, "https://good.example/whl/cu126q") // q types, it does not quit
	press(t, m, "backspace", "enter")
	if n := len(fb.sourceReqs); n != 2 || fb.sourceReqs[1].Custom != "https://good.example/whl/cu126" {
		t.Fatalf("sources requests %+v", fb.sourceReqs)
	}
	if s.custom == nil || s.cursor != 3 {
		t.Fatalf("the checked URL is a row of its own, selected: cursor %d, %+v", s.cursor, s.custom)
	}
	mustContain(t, m.View(), "your URL (a package index)", "has this build  35 ms")
	press(t, m, "enter")
	if r := fb.plans[0]; r.IndexURL != "https://good.example/whl/cu126" {
		t.Fatalf("plan request %+v", r)
	}
}

// The check runs in a command, never in Update; an answer about a URL no longer being checked is
// dropped.
func TestSourcesIOOnlyInCommandsAndStaleURLAnswersDropped(t *testing.T) {
	fb := newFakeBackend()
	c := testCommon(fb, false)
	s := newSourcesScreen(c, app.SourcesRequest{Candidate: cand("torch", "2.7.1", "cu126", "12.6", true)})
	first := s.Init()
	if len(fb.sourceReqs) != 0 {
		t.Fatal("Init asked the backend itself")
	}
	if _, cmd := s.Update(keyMsg("r")); cmd != nil {
		t.Fatal("r while checking starts a second check")
	}
	s.Update(first().(sourcesMsg))
	if s.report == nil || len(fb.sourceReqs) != 1 {
		t.Fatalf("report %v, %d backend calls", s.report, len(fb.sourceReqs))
	}
	old := s.checkURL("https://old.example/whl/cu126")
	current := s.checkURL("https://good.example/whl/cu126")
	s.Update(old().(sourcesMsg))
	if s.custom != nil {
		t.Fatal("an answer about a URL no longer being checked was kept")
	}
	s.Update(current().(sourcesMsg))
	if s.custom == nil || s.custom.IndexURL != "https://good.example/whl/cu126" {
		t.Fatalf("custom %+v", s.custom)
	}
}

// The real backend checks the --sources list for the build, with the venv Python's tags, against
// loopback indexes: one missing the build, one good; and the plan it makes uses the choice.
func TestStepsBackendSourcesAndPlanUseTheChoice(t *testing.T) {
	dir := t.TempDir()
	good := pyindex.Serve(t, map[string][]string{"cu126": {buildWheel(t, dir, "torch", "2.6.0+cu126", nil, 0)}})
	missing := pyindex.Serve(t, map[string][]string{"cu126": {buildWheel(t, filepath.Join(dir, "old"), "torch", "2.5.1+cu126", nil, 0)}})
	list := filepath.Join(dir, "sources.toml")
	writeFileT(t, list, "schema = 1\n[[source]]\nid = \"good\"\nname = \"good mirror\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \""+good.URL+"/whl/{channel}\"\nseen = \"a test\"\n")
	env := &app.Env{G: &app.Globals{SourcesFile: list}}
	b := app.NewWizard(env)
	c := matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: missing.ChannelURL("cu126"),
		Packages: []matrix.Package{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}}
	rep, err := b.Sources(context.Background(), app.SourcesRequest{Candidate: c, Venv: filepath.Join(dir, "venv"), Python: pyindex.Python(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sources) != 2 || rep.Proposed != 1 || !rep.Sources[1].Usable() || rep.Sources[0].Usable() {
		t.Fatalf("%+v", rep)
	}
	if !strings.Contains(rep.Sources[0].Why, "has torch but not 2.6.0+cu126") || !strings.Contains(rep.Build, "torch 2.6.0+cu126 for Python 3.") {
		t.Fatalf("%+v", rep)
	}
	src := rep.Sources[1]
	p, err := b.Plan(context.Background(), app.PlanRequest{Venv: filepath.Join(dir, "venv"), Python: pyindex.Python(t), Candidate: c,
		IndexURL: src.IndexURL, FindLinks: src.FindLinks, Mirror: src.Mirror})
	if err != nil {
		t.Fatal(err)
	}
	opts := p.InstallSession().Options
	if opts.IndexURLOverride != good.ChannelURL("cu126") {
		t.Fatalf("install options %+v", opts)
	}
	if !strings.Contains(strings.Join(commandLines(p), "\n"), "--index-url "+good.ChannelURL("cu126")) {
		t.Fatalf("the plan's commands do not use the chosen index:\n%s", strings.Join(commandLines(p), "\n"))
	}
	// A flat page and its dependency index go to the engine as they are.
	p, err = b.Plan(context.Background(), app.PlanRequest{Venv: filepath.Join(dir, "venv"), Python: pyindex.Python(t), Candidate: c,
		FindLinks: good.URL + "/whl/cu126/torch/", Mirror: good.ChannelURL("cu126")}) // a page listing the wheels
	if err != nil {
		t.Fatal(err)
	}
	if o := p.InstallSession().Options; o.FindLinks != good.URL+"/whl/cu126/torch/" || o.Mirror != good.ChannelURL("cu126") || o.IndexURLOverride != "" {
		t.Fatalf("install options %+v", o)
	}
	var _ install.Options = opts
}

func writeFileT(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Issue: after a typed URL checked "✓ has this build", the screen still said "No source has this
// build…". The sentence follows what was found, the typed URL included.
func TestSourcesNoneIsNotSaidOnceTheTypedURLHasTheBuild(t *testing.T) {
	fb := newFakeBackend()
	s := defaultSources()
	for i := range s {
		s[i].Answers, s[i].HasBuild, s[i].File, s[i].Why = false, false, "", "does not answer"
	}
	fb.sources, fb.proposed = s, -1
	m, scr := newJourneyToSources(t, fb)
	mustContain(t, m.View(), "No source has this build")
	for !scr.onInput() {
		press(t, m, "down")
	}
	typeText(t, m, "https://good.example/whl/cu126")
	press(t, m, "enter")
	v := m.View()
	mustContain(t, v, "has this build", "Your URL has this build")
	if strings.Contains(v, "No source has this build") {
		t.Fatalf("stale sentence after the typed URL was found good:\n%s", v)
	}
}

// A mirror whose page links the wheels on another host is not shown as having the build: its row
// names that host, and the selected row's detail says the wheels would come from there.
func TestSourcesNameWhereAMirrorsWheelsComeFrom(t *testing.T) {
	fb := newFakeBackend()
	s := defaultSources()
	s[2].HasBuild, s[2].Millis, s[2].Why, s[2].File, s[2].WheelsFrom = true, 21, "", "torch-2.7.1+cu126-cp311-cp311-win_amd64.whl", "download-r2.pytorch.org"
	fb.sources, fb.proposed = s, 0
	m, scr := newJourneyToSources(t, fb)
	view := m.View()
	mustContain(t, view, "→ elsewhere  21 ms", "has this build  412 ms")
	if strings.Count(view, "has this build") != 1+strings.Count(view, "the fastest source that has this build") {
		t.Errorf("the mirror is shown as having the build:\n%s", view)
	}
	scr.moveTo(2)
	mustContain(t, m.View(), "wheels on download-r2.pytorch.org: they would be downloaded from there")
}
