package ui

import (
	"context"
	"errors"

	"gpuwiz/steps/app"
	"gpuwiz/steps/gpu"
)

func (b *stepsBackend) DriverOffer(ctx context.Context) (DriverOffer, error) {
	s, err := b.env.PlanDriver(ctx, app.DriverActRequest{Install: true})
	var f *app.DriverFailure
	if err != nil && !errors.As(err, &f) {
		return DriverOffer{}, err
	}
	if s == nil {
		return DriverOffer{Failure: f}, nil
	}
	o := DriverOffer{Check: s.Check, Card: s.Choice.Card.Name, Version: s.Release.Version, File: s.Release.File, Have: s.Have,
		Why: s.Choice.Why, Failure: f, Ready: f == nil, Impl: s}
	return o, nil
}

func (b *stepsBackend) RunDriver(ctx context.Context, o DriverOffer, events chan<- app.DriverEvent) app.DriverResult {
	s, ok := o.Impl.(*app.DriverSession)
	if !ok {
		return app.DriverResult{Failure: &app.DriverFailure{Code: app.DriverFailStart, Exit: app.ExitFailure}, Exit: app.ExitFailure}
	}
	res := s.Run(ctx, events)
	if res.Ran {
		b.env.ForgetGPUReport()
	}
	return res
}

func (b *stepsBackend) Resume(ctx context.Context) (*app.Resumed, gpu.Report, error) {
	r, err := b.env.TakeResume(ctx, "")
	if r == nil || err != nil {
		return nil, gpu.Report{}, err
	}
	rep, err := b.env.GPUReport(ctx)
	return r, rep, err
}
