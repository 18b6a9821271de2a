package ui

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// Every call into the backend happens here, inside a tea.Cmd; Update only reads the messages.
// Each message names the screen that started the command (addr), and the root hands it to that
// screen alone: a screen never sees another's results, and a result for a screen that has gone is
// dropped.

// answerMsg is the backend's answer to a screen's question: a value, or the error. about is what
// the question named (a framework, a path, a URL, the text typed), for a screen that may ask again
// before the answer comes and keeps only the answer about what it shows now.
type answerMsg[T any] struct {
	addr
	about string
	value T
	err   error
}

// ask puts a question to the backend in a command; the answer goes to the screen to.
func ask[T any](to screenID, question func() (T, error)) tea.Cmd { return askAbout(to, "", question) }

// askAbout is ask with what the question is about.
func askAbout[T any](to screenID, about string, question func() (T, error)) tea.Cmd {
	return func() tea.Msg {
		v, err := question()
		return answerMsg[T]{addr{to}, about, v, err}
	}
}

type probeMsg = answerMsg[app.GPUReport]

func probeCmd(to screenID, ctx context.Context, b App) tea.Cmd {
	return ask(to, func() (app.GPUReport, error) { return b.Probe(ctx) })
}

// channelsMsg is the builds of a framework (about) that fit the facts.
type channelsMsg = answerMsg[app.Selection]

func channelsCmd(to screenID, ctx context.Context, b App, facts app.Facts) tea.Cmd {
	return askAbout(to, facts.Framework, func() (app.Selection, error) { return b.Channels(ctx, facts) })
}

type pythonsMsg struct {
	addr
	list     []app.Interpreter
	verdicts []string // per Python, why it cannot run the build ("": it can); nil without a build
	err      error
	offer    *app.PythonOffer // how to get a Python, when the backend can say
}

// pythonsCmd finds the Pythons and, when a build is chosen (fit), judges each against it.
func pythonsCmd(to screenID, ctx context.Context, b App, fit *buildFit) tea.Cmd {
	return func() tea.Msg {
		l, err := b.Pythons(ctx)
		msg := pythonsMsg{addr: addr{to}, list: l, err: err}
		if fit != nil {
			msg.verdicts = make([]string, len(l))
			for i, p := range l {
				msg.verdicts[i] = fit.whyNot(ctx, b, p)
			}
		}
		if g, ok := b.(PythonGetter); ok {
			o := g.PythonOffer()
			msg.offer = &o
		}
		return msg
	}
}

// buildFit is the chosen build and the facts of the machine it was chosen for: what a Python must
// fit to make the venv.
type buildFit struct {
	facts app.Facts
	cand  app.Candidate
}

// whyNot asks the matrix whether Python p can run the build: the same facts as the channel screen
// plus p's version and bitness. It answers the reasons about Python, or "".
func (f buildFit) whyNot(ctx context.Context, b App, p app.Interpreter) string {
	facts := f.facts
	facts.PythonVersion, facts.PythonBits = p.Version, p.Bits
	sel, err := b.Channels(ctx, facts)
	if err != nil {
		return ""
	}
	for _, c := range sel.Candidates {
		if c.Channel != f.cand.Channel || c.FrameworkVersion != f.cand.FrameworkVersion || c.Compatible {
			continue
		}
		var why []string
		for _, r := range c.Reasons {
			if strings.Contains(r, "Python") {
				why = append(why, r)
			}
		}
		return i18n.JoinClauses(why)
	}
	return ""
}

type activationMsg = answerMsg[[]app.Activation]

func activationCmd(to screenID, b App, venv string) tea.Cmd {
	return ask(to, func() ([]app.Activation, error) { return b.Activation(venv), nil })
}

// venvCheckMsg answers the check of one typed path (about); value.Path is the absolute path it means.
type venvCheckMsg = answerMsg[app.PathCheck]

// userPaths is how typed paths are read: steps/userpath's way for every path (~, quotes, variables,
// relative to the working directory), in paths when given, else in the system's.
func userPaths(paths *app.UserPaths) app.UserPaths {
	if paths != nil {
		return *paths
	}
	return app.SystemPaths()
}

// venvCheckCmd reads the typed path as userPaths says, then checks the absolute path it means.
func venvCheckCmd(to screenID, b App, paths *app.UserPaths, path string) tea.Cmd {
	return askAbout(to, path, func() (app.PathCheck, error) {
		abs, err := app.NormalizePath(path, userPaths(paths))
		if err != nil {
			return app.PathCheck{Errors: []string{err.Error()}}, nil
		}
		chk := b.CheckVenv(abs)
		if chk.Path == "" {
			chk.Path = abs
		}
		return chk, nil
	})
}

// inspectMsg is what the venv at a path (about) holds.
type inspectMsg = answerMsg[app.VenvInfo]

func inspectCmd(to screenID, ctx context.Context, b App, path string) tea.Cmd {
	return askAbout(to, path, func() (app.VenvInfo, error) { return b.InspectVenv(ctx, path) })
}

type knownVenvsMsg struct {
	addr
	list    []app.KnownVenv
	warning string
}

func knownVenvsCmd(to screenID, ctx context.Context, b App) tea.Cmd {
	return func() tea.Msg {
		l, w := b.KnownVenvs(ctx)
		return knownVenvsMsg{addr{to}, l, w}
	}
}

type planMsg = answerMsg[app.Plan]

func planCmd(to screenID, ctx context.Context, b App, req app.PlanRequest) tea.Cmd {
	return ask(to, func() (app.Plan, error) {
		p, err := b.Plan(ctx, req)
		var notServed *app.ErrNotServed
		if errors.As(err, &notServed) {
			err = errors.New(notServedText(notServed.Check))
		}
		if n := indexNote(p.Index); err == nil && n != "" {
			p.Notes = append(p.Notes, n)
		}
		return p, err
	})
}

func repairPlanCmd(to screenID, ctx context.Context, b App, venv string, r *app.Diagnosis) tea.Cmd {
	return ask(to, func() (app.Plan, error) { return b.RepairPlan(ctx, venv, r) })
}

type verifyMsg = answerMsg[app.Checklist]

func verifyCmd(to screenID, ctx context.Context, b App, venv string, c app.Candidate) tea.Cmd {
	return ask(to, func() (app.Checklist, error) { return b.Verify(ctx, venv, c) })
}

type doctorMsg = answerMsg[*app.Diagnosis]

func doctorCmd(to screenID, ctx context.Context, b App, venv string) tea.Cmd {
	return ask(to, func() (*app.Diagnosis, error) { return b.Doctor(ctx, venv) })
}

type benchStartedMsg struct {
	addr
	feed      BenchFeed
	framework string
	err       error
}

// benchStartCmd starts a run; its feed's messages are addressed to the same screen.
func benchStartCmd(to screenID, ctx context.Context, start benchStarter) tea.Cmd {
	return func() tea.Msg {
		feed, fw, err := start(ctx)
		feed.to = to
		return benchStartedMsg{addr{to}, feed, fw, err}
	}
}

// backendBench is the wizard's benchmark: the backend's, with the venv's Python.
func backendBench(b App, venv string, gpuIndex int) benchStarter {
	return func(ctx context.Context) (BenchFeed, string, error) {
		run, err := b.Bench(ctx, venv, gpuIndex)
		if err != nil {
			return BenchFeed{}, "", err
		}
		return BenchFeed{Events: run.Events, Samples: run.Samples}, run.Framework, nil
	}
}

// installFlushInterval batches the install's log lines: one frame per tick, never one per line.
const installFlushInterval = 80 * time.Millisecond

// installEventBuffer bounds the channel between the install and the screen.
const installEventBuffer = 1024

// job is one running backend session that reports as it goes (an install, a driver session): its
// screen, its channels and its cancel.
type job[E, R any] struct {
	to     screenID
	events chan E
	result chan R
	cancel context.CancelFunc
	limit  int // the most events one tick takes while the session runs
}

type installJob = job[app.InstallEvent, app.Outcome]

func newJob[E, R any](to screenID, cancel context.CancelFunc, limit int) *job[E, R] {
	return &job[E, R]{to: to, events: make(chan E, installEventBuffer), result: make(chan R, 1), cancel: cancel, limit: limit}
}

// start runs the session in its own goroutine, tracked by wg so that Run can wait for the child
// processes to be gone and the environment restored before the process exits.
func (j *job[E, R]) start(wg *sync.WaitGroup, run func(events chan<- E) R) tea.Cmd {
	wg.Add(1)
	return func() tea.Msg {
		go func() {
			defer wg.Done()
			j.result <- run(j.events)
		}()
		return nil
	}
}

// batchMsg carries what a session reported since the last tick, and its result once it has returned.
type batchMsg[E, R any] struct {
	addr
	events []E
	result *R
}

// tick drains the job after one flush interval; Update re-arms it (after) until the result arrives.
func (j *job[E, R]) tick() tea.Cmd {
	return tea.Tick(installFlushInterval, func(time.Time) tea.Msg { return j.drain() })
}

// after is what follows batch b: once the result is in, the session's context is let go and the
// ticks stop; until then, the next tick.
func (j *job[E, R]) after(b batchMsg[E, R]) tea.Cmd {
	if b.result != nil {
		j.cancel()
		return nil
	}
	return j.tick()
}

// drain takes what the session reported since the last tick: at most limit events while it runs,
// and once it has returned, its result and everything it sent.
func (j *job[E, R]) drain() batchMsg[E, R] {
	var events []E
	take := func(limit int) {
		for len(events) < limit {
			select {
			case e := <-j.events:
				events = append(events, e)
			default:
				return
			}
		}
	}
	take(j.limit)
	select {
	case r := <-j.result:
		take(math.MaxInt) // the session has returned: everything it sent is buffered
		return batchMsg[E, R]{addr{j.to}, events, &r}
	default:
	}
	return batchMsg[E, R]{addr{j.to}, events, nil}
}

// installBatchMsg carries what the install reported since the last tick, and its outcome.
type installBatchMsg = batchMsg[app.InstallEvent, app.Outcome]

// installDrainLimit: a fast producer cannot keep one tick draining forever.
const installDrainLimit = 4 * installEventBuffer

// sourcesMsg answers a check of the package sources; about is the URL checked alone ("" for the list).
type sourcesMsg = answerMsg[app.SourcesReport]

func sourcesCmd(to screenID, ctx context.Context, b App, req app.SourcesRequest) tea.Cmd {
	return askAbout(to, req.Custom, func() (app.SourcesReport, error) { return b.Sources(ctx, req) })
}

// addPreviewMsg answers the add screen: pip's preview of what the text typed (about) would change.
type addPreviewMsg = answerMsg[app.AddPreview]

// addSourcesMsg answers the add screen: where the project's packages would come from.
type addSourcesMsg = answerMsg[app.AddSources]

// addSourcesCmd reads where an add into venv would take the project's packages from.
func addSourcesCmd(to screenID, ctx context.Context, b App, venv string) tea.Cmd {
	return ask(to, func() (app.AddSources, error) { return b.AddSources(ctx, venv), nil })
}

// addPreviewCmd reads what was typed (a requirements file's path, steps/userpath's way, or package
// names; "-r FILE" too) and asks the backend for the preview, the project's packages from source
// (zero: the recorded one).
func addPreviewCmd(to screenID, ctx context.Context, b App, paths *app.UserPaths, venv, text string, source app.AddSource) tea.Cmd {
	return askAbout(to, text, func() (app.AddPreview, error) {
		req, err := parseAddInput(text, userPaths(paths))
		if err != nil {
			return app.AddPreview{}, err
		}
		req.Venv, req.Source = venv, source
		return b.PlanAdd(ctx, req)
	})
}

// parseAddInput is the typed text as requirements files and package names: the whole text when it
// names a file (a pasted path with spaces), else each word: after -r, or with a path separator or a
// .txt ending, a file that must exist; otherwise a package.
func parseAddInput(text string, env app.UserPaths) (app.AddRequest, error) {
	var req app.AddRequest
	isFile := func(p string) bool { st, err := os.Stat(p); return err == nil && !st.IsDir() }
	if abs, err := app.NormalizePath(text, env); err == nil && isFile(abs) {
		req.Requirements = []string{abs}
		return req, nil
	}
	fields := strings.Fields(text)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		file := strings.ContainsAny(f, `/\`) || strings.HasSuffix(strings.ToLower(app.UnquotePath(f)), ".txt")
		if f == "-r" || f == "--requirement" {
			if i+1 == len(fields) {
				return req, errors.New(i18n.T("ui.add.r_alone"))
			}
			i++
			f, file = fields[i], true
		}
		if !file {
			req.Packages = append(req.Packages, f)
			continue
		}
		abs, err := app.NormalizePath(f, env)
		if err != nil {
			return req, err
		}
		if !isFile(abs) {
			return req, errors.New(i18n.T("ui.add.no_file", i18n.D{"File": abs}))
		}
		req.Requirements = append(req.Requirements, abs)
	}
	return req, nil
}
