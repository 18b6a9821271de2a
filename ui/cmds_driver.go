package ui

import (
	"context"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
)

// driverOfferMsg answers the GPU screen's question: which driver, and can u install it here.
type driverOfferMsg struct {
	addr
	offer app.DriverOffer
	err   error
}

func driverOfferCmd(to screenID, ctx context.Context, b App) tea.Cmd {
	return func() tea.Msg {
		o, err := b.DriverOffer(ctx)
		return driverOfferMsg{addr{to}, o, err}
	}
}

// driverJob is one running driver session: its screen, its channels and its cancel.
type driverJob struct {
	to     screenID
	events chan app.DriverEvent
	result chan app.DriverResult
	cancel context.CancelFunc
}

func startDriverCmd(ctx context.Context, b App, o app.DriverOffer, job *driverJob, wg *sync.WaitGroup) tea.Cmd {
	wg.Add(1)
	return func() tea.Msg {
		go func() {
			defer wg.Done()
			job.result <- b.RunDriver(ctx, o, job.events)
		}()
		return nil
	}
}

// driverBatchMsg carries what the session reported since the last tick.
type driverBatchMsg struct {
	addr
	events []app.DriverEvent
	result *app.DriverResult
}

func driverTickCmd(job *driverJob) tea.Cmd {
	return tea.Tick(installFlushInterval, func(time.Time) tea.Msg {
		batch := driverBatchMsg{addr: addr{job.to}}
		drain := func() {
			for {
				select {
				case e := <-job.events:
					batch.events = append(batch.events, e)
				default:
					return
				}
			}
		}
		drain()
		select {
		case r := <-job.result:
			drain()
			batch.result = &r
		default:
		}
		return batch
	})
}

// resumeMsg tells the root where a restart after a driver install left the wizard.
type resumeMsg struct {
	resumed *app.Resumed
	report  app.GPUReport
	err     error
}

func resumeCmd(ctx context.Context, b App) tea.Cmd {
	return func() tea.Msg {
		r, rep, err := b.Resume(ctx)
		return resumeMsg{r, rep, err}
	}
}
