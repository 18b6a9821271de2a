package ui

import (
	"context"
	"math"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
)

// driverOfferMsg answers the GPU screen's question: which driver, and can u install it here.
type driverOfferMsg = answerMsg[app.DriverOffer]

func driverOfferCmd(to screenID, ctx context.Context, b App) tea.Cmd {
	return ask(to, func() (app.DriverOffer, error) { return b.DriverOffer(ctx) })
}

type driverJob = job[app.DriverEvent, app.DriverResult]

// driverBatchMsg carries what the session reported since the last tick.
type driverBatchMsg = batchMsg[app.DriverEvent, app.DriverResult]

// driverDrainLimit: the driver session reports a few steps and its download's progress; a tick
// takes all it sent.
const driverDrainLimit = math.MaxInt

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
