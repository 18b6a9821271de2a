package ui

import (
	"context"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
)

// Every call into the backend happens here, inside a tea.Cmd; Update only reads the messages.

type probeMsg struct {
	report gpu.Report
	err    error
}

func probeCmd(ctx context.Context, b Backend) tea.Cmd {
	return func() tea.Msg {
		r, err := b.Probe(ctx)
		return probeMsg{r, err}
	}
}

type channelsMsg struct {
	framework string
	sel       matrix.Selection
	err       error
}

func channelsCmd(ctx context.Context, b Backend, facts matrix.Facts) tea.Cmd {
	return func() tea.Msg {
		sel, err := b.Channels(ctx, facts)
		return channelsMsg{facts.Framework, sel, err}
	}
}

type pythonsMsg struct {
	list []Interpreter
	err  error
}

func pythonsCmd(ctx context.Context, b Backend) tea.Cmd {
	return func() tea.Msg {
		l, err := b.Pythons(ctx)
		return pythonsMsg{l, err}
	}
}

// venvCheckMsg answers one keystroke's path; seq drops answers to older keystrokes.
type venvCheckMsg struct {
	seq   int
	path  string
	check PathCheck
}

func venvCheckCmd(b Backend, seq int, path string) tea.Cmd {
	return func() tea.Msg { return venvCheckMsg{seq, path, b.CheckVenv(path)} }
}

type inspectMsg struct {
	path string
	info VenvInfo
	err  error
}

func inspectCmd(ctx context.Context, b Backend, path string) tea.Cmd {
	return func() tea.Msg {
		info, err := b.InspectVenv(ctx, path)
		return inspectMsg{path, info, err}
	}
}

type planMsg struct {
	plan Plan
	err  error
}

func planCmd(ctx context.Context, b Backend, req PlanRequest) tea.Cmd {
	return func() tea.Msg {
		p, err := b.Plan(ctx, req)
		return planMsg{p, err}
	}
}

func repairPlanCmd(ctx context.Context, b Backend, venv string, r DoctorReport) tea.Cmd {
	return func() tea.Msg {
		p, err := b.RepairPlan(ctx, venv, r)
		return planMsg{p, err}
	}
}

type verifyMsg struct {
	report VerifyReport
	err    error
}

func verifyCmd(ctx context.Context, b Backend, venv string, c matrix.Candidate) tea.Cmd {
	return func() tea.Msg {
		r, err := b.Verify(ctx, venv, c)
		return verifyMsg{r, err}
	}
}

type doctorMsg struct {
	report DoctorReport
	err    error
}

func doctorCmd(ctx context.Context, b Backend, venv string) tea.Cmd {
	return func() tea.Msg {
		r, err := b.Doctor(ctx, venv)
		return doctorMsg{r, err}
	}
}

// installFlushInterval batches the install's log lines: one frame per tick, never one per line.
const installFlushInterval = 80 * time.Millisecond

// installEventBuffer bounds the channel between the install and the screen.
const installEventBuffer = 1024

// installJob is one running install: its channels, its cancel and a WaitGroup that Run waits on.
type installJob struct {
	events  chan InstallEvent
	outcome chan Outcome
	cancel  context.CancelFunc
}

// startInstallCmd runs the install in its own goroutine, tracked by wg so that Run can wait for
// the child processes to be gone and the environment restored before the process exits.
func startInstallCmd(ctx context.Context, b Backend, plan Plan, job *installJob, wg *sync.WaitGroup) tea.Cmd {
	wg.Add(1)
	return func() tea.Msg {
		go func() {
			defer wg.Done()
			job.outcome <- b.Install(ctx, plan, job.events)
		}()
		return nil
	}
}

// installBatchMsg carries what the install reported since the last tick.
type installBatchMsg struct {
	events  []InstallEvent
	outcome *Outcome
}

// installTickCmd drains the event channel after one flush interval; Update re-arms it until the
// outcome arrives.
func installTickCmd(job *installJob) tea.Cmd {
	return tea.Tick(installFlushInterval, func(time.Time) tea.Msg { return drainInstall(job) })
}

func drainInstall(job *installJob) installBatchMsg {
	var batch installBatchMsg
	drain := func(limit int) {
		for len(batch.events) < limit {
			select {
			case e := <-job.events:
				batch.events = append(batch.events, e)
			default:
				return
			}
		}
	}
	drain(4 * installEventBuffer) // a fast producer cannot keep one tick draining forever
	select {
	case o := <-job.outcome:
		drain(int(^uint(0) >> 1)) // the install has returned: everything it sent is buffered
		batch.outcome = &o
	default:
	}
	return batch
}
