package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// route turns a screen's result into the next screen of the current journey.
func (m *Model) route(msg tea.Msg) (tea.Model, tea.Cmd, bool) {
	c := m.c
	switch msg := msg.(type) {
	case langSwitchMsg:
		// The other language from now on: the key help and every screen's cached text are built
		// again (the welcome is the only screen then; its cursor stays).
		next := i18n.Chinese
		if i18n.IsChinese() {
			next = i18n.English
		}
		i18n.Set(next)
		c.Keys = keyMapFor(c.Styles.ASCII)
		w := newWelcome(c)
		w.cursor = msg.cursor
		return m, m.replace(w), true
	case journeyChosenMsg:
		m.ch = choices{journey: msg.journey}
		switch msg.journey {
		case JourneyChange, JourneyRepair:
			return m, m.push(newVenvScreen(c, msg.journey, "")), true
		default:
			return m, m.push(newGPUScreen(c, msg.journey)), true
		}
	case gpuDoneMsg:
		full := msg.report
		m.ch.report, m.ch.gpu, m.ch.story = &full, msg.gpu, msg.story
		r := forCards(full, msg.gpu) // the channel screens judge builds against the chosen card(s)
		switch m.ch.journey {
		case JourneyCheck:
			return m, m.push(newCheckScreen(c, r)), true
		case JourneyChange:
			cur := m.ch.current
			cs := newChannelScreen(c, r, cur.Framework, cur.FrameworkVersion, cur)
			cs.story = m.ch.story
			return m, m.push(cs), true
		default:
			return m, m.push(newFrameworkScreen(c, r)), true
		}
	case frameworkMsg:
		m.ch.framework, m.ch.version = msg.framework, msg.version
		cs := newChannelScreen(c, forCards(*m.ch.report, m.ch.gpu), msg.framework, msg.version, nil)
		cs.story = m.ch.story
		return m, m.push(cs), true
	case driverRequestMsg:
		return m, m.push(newDriverScreen(c, msg.offer, m.wg)), true
	case driverReprobeMsg:
		// The driver screen and the GPU screen under it go; a new GPU screen probes the new driver.
		if len(m.stack) >= 2 {
			m.stack = m.stack[:len(m.stack)-2]
		}
		return m, m.push(newGPUScreen(c, m.ch.journey)), true
	case resumeMsg:
		return m, m.resume(msg), true
	case channelChosenMsg:
		cand := msg.candidate
		m.ch.candidate = &cand
		if m.ch.journey == JourneyChange {
			return m, m.push(newSourcesScreen(c, m.sourcesRequest())), true
		}
		vs := newVenvScreen(c, JourneyNew, cand.Framework)
		vs.fit = m.buildFit(cand)
		if m.ch.typedVenv != "" {
			vs.input.SetValue(m.ch.typedVenv)
			vs.input.CursorEnd()
		}
		return m, m.push(vs), true
	case venvChosenMsg:
		m.ch.venv, m.ch.python, m.ch.reuse, m.ch.current = msg.path, msg.python, msg.reuse, msg.info
		switch m.ch.journey {
		case JourneyChange:
			return m, m.push(newGPUScreen(c, JourneyChange)), true
		case JourneyRepair:
			return m, m.push(newDoctorScreen(c, msg.path)), true
		default:
			return m, m.push(newSourcesScreen(c, m.sourcesRequest())), true
		}
	case sourcesChosenMsg:
		src := msg.source
		m.ch.source = &src
		return m, m.push(newPlanScreen(c, m.planRequest(), nil)), true
	case doctorFinishMsg:
		m.ch.doctor = msg.report
		return m, m.push(newPlanScreen(c, app.PlanRequest{Venv: m.ch.venv, Reuse: true}, msg.report)), true
	case planConfirmedMsg:
		p := msg.plan
		m.ch.plan = &p
		if m.ch.candidate == nil && p.Candidate.Framework != "" {
			cand := p.Candidate
			m.ch.candidate = &cand
		}
		return m, m.replace(newInstallScreen(c, p, m.wg)), true
	case installFinishMsg:
		o := msg.outcome
		m.ch.outcome = &o
		if !o.OK {
			m.exitCode = exitForOutcome(o)
			return m, m.replace(newDoneScreen(c, m.ch)), true
		}
		return m, m.replace(newVerifyScreen(c, m.ch.venv, m.candidate(), o.Verify)), true
	case verifyFinishMsg:
		m.ch.verify = msg.report
		if msg.report != nil && !msg.report.OK {
			m.exitCode = app.ExitVerifyFailed
		}
		return m, m.push(newDoneScreen(c, m.ch)), true
	case addRequestMsg:
		return m, m.push(newAddScreen(c, m.ch.venv)), true
	case addSourceRequestMsg:
		return m, m.push(newAddSourceScreen(c, msg.sources, msg.current)), true
	case addSourceChosenMsg:
		// The chooser goes; the add screen under it takes the source.
		if _, ok := m.top().(*addSourceScreen); ok {
			m.pop()
		}
		next, cmd := m.updateTop(msg)
		return next, cmd, true
	case addConfirmedMsg:
		is := newInstallScreen(c, msg.preview.Plan, m.wg)
		is.finish = func(o app.Outcome) tea.Msg { return addFinishMsg{o} }
		is.next = relabel(c.Keys.Select, i18n.T("ui.install.key_see_result"))
		return m, m.replace(is), true
	case addFinishMsg:
		o := msg.outcome
		switch {
		case !o.OK:
			m.exitCode = exitForOutcome(o)
		case o.Verify != nil && !o.Verify.OK:
			m.exitCode = app.ExitVerifyFailed
		default:
			m.exitCode = 0
		}
		return m, m.replace(newAddDoneScreen(c, m.ch.venv, o)), true
	case benchRequestMsg:
		return m, m.push(m.newBench()), true
	case BenchRerunMsg: // a new screen for the new run: the old run's messages find no receiver
		return m, m.rerunBench(), true
	}
	return m, nil, false
}

// resume continues at the channel step when the wizard starts after the restart a driver install
// asked for and the new driver answers: the welcome, the GPU screen with the new report, the
// framework screen and the channel screen, which says so. Anything else leaves the welcome as it is.
func (m *Model) resume(msg resumeMsg) tea.Cmd {
	r := msg.resumed
	if msg.err != nil || r == nil || !r.Found || len(m.stack) != 1 {
		return nil
	}
	if _, ok := m.top().(*welcomeScreen); !ok {
		return nil
	}
	c := m.c
	rep := msg.report
	m.ch = choices{journey: JourneyNew, report: &rep, gpu: -1, framework: "torch"}
	gs := newGPUScreen(c, JourneyNew)
	gs.report, gs.probes = &rep, 1
	cmds := []tea.Cmd{m.push(gs), driverOfferCmd(gs.id, c.Ctx, c.Backend), m.push(newFrameworkScreen(c, rep))}
	cs := newChannelScreen(c, forCards(rep, -1), "torch", "", nil)
	cs.resumed = r
	cmds = append(cmds, m.push(cs))
	return tea.Batch(cmds...)
}

func (m *Model) candidate() app.Candidate {
	if m.ch.candidate != nil {
		return *m.ch.candidate
	}
	return app.Candidate{}
}

func (m *Model) planRequest() app.PlanRequest {
	r := app.PlanRequest{Venv: m.ch.venv, Python: m.ch.python, Candidate: m.candidate(), Reuse: m.ch.reuse}
	if src := m.ch.source; src != nil && src.Kind != "official" {
		r.IndexURL, r.FindLinks, r.Mirror, r.Source = src.IndexURL, src.FindLinks, src.Mirror, src.Name+": "+src.Where
		r.SourceWhy = sourceWhy(r.Source)
	}
	return r
}

func (m *Model) sourcesRequest() app.SourcesRequest {
	return app.SourcesRequest{Candidate: m.candidate(), Venv: m.ch.venv, Python: m.ch.python}
}

func exitForOutcome(o app.Outcome) int {
	switch o.Result {
	case app.Cancelled, app.Interrupted:
		return app.ExitInterrupted
	}
	return app.ExitFailure
}

// benchGPU is the card the wizard benchmarks: the one chosen on the GPU screen, else the first.
func (m *Model) benchGPU() int {
	if m.ch.gpu >= 0 {
		return m.ch.gpu
	}
	if r := m.ch.report; r != nil && len(r.GPUs) > 0 {
		return r.GPUs[0].Index
	}
	return 0
}

// buildFit is what a Python must fit for cand on the chosen card(s); nil before the GPU screen.
func (m *Model) buildFit(cand app.Candidate) *buildFit {
	if m.ch.report == nil {
		return nil
	}
	return &buildFit{facts: factsFor(forCards(*m.ch.report, m.ch.gpu), cand.Framework, cand.FrameworkVersion), cand: cand}
}
