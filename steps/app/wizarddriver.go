package app

import (
	"context"
	"errors"

	"gpuwiz/steps/driver"
)

// DriverOffer is the driver step as the wizard's GPU screen shows it.
type DriverOffer struct {
	Check   DriverCheck
	Card    string
	Version string // the installer's driver
	File    string
	Have    int64 // bytes of it already in the cache (an interrupted download)
	Why     []driver.Reason
	// Ready: gpuwiz can fetch and start it here (Windows, an installer known, no restart pending);
	// Failure says why not.
	Ready   bool
	Failure *DriverFailure

	session *DriverSession // handed back to RunDriver
}

// DriverOffer is the driver for the machine's cards and, when one can be installed here, the
// installer ready to fetch, check and start (the driver session).
func (w *Wizard) DriverOffer(ctx context.Context) (DriverOffer, error) {
	s, err := w.env.PlanDriver(ctx, DriverActRequest{Install: true})
	var f *DriverFailure
	if err != nil && !errors.As(err, &f) {
		return DriverOffer{}, err
	}
	if s == nil {
		return DriverOffer{Failure: f}, nil
	}
	return DriverOffer{Check: s.Check, Card: s.Choice.Card.Name, Version: s.Release.Version, File: s.Release.File, Have: s.Have,
		Why: s.Choice.Why, Failure: f, Ready: f == nil, session: s}, nil
}

// RunDriver downloads, checks and starts the offer's installer, sending progress on events (not
// closed); a new GPU probe after it sees the new driver.
func (w *Wizard) RunDriver(ctx context.Context, o DriverOffer, events chan<- DriverEvent) DriverResult {
	if o.session == nil {
		return DriverResult{Failure: &DriverFailure{Code: DriverFailStart, Exit: ExitFailure}, Exit: ExitFailure}
	}
	res := o.session.Run(ctx, events)
	if res.Ran {
		w.env.ForgetGPUReport()
	}
	return res
}

// Resume is where an earlier driver install that asked for a restart left the wizard (nil: none),
// with the GPU report now.
func (w *Wizard) Resume(ctx context.Context) (*Resumed, GPUReport, error) {
	r, err := w.env.TakeResume(ctx, "")
	if r == nil || err != nil {
		return nil, GPUReport{}, err
	}
	rep, err := w.env.GPUReport(ctx)
	return r, rep, err
}
