package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// installLogPath is where this run's install log goes (the engine writes it; the ui only names it).
func installLogPath() string {
	dir := os.TempDir()
	if d, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(d, "gpuwiz", "logs")
	}
	return filepath.Join(dir, "install-"+time.Now().Format("20060102-150405")+".log")
}

// planned is what Install needs back from Plan: the engine's plan and its options.
type planned struct {
	plan install.Plan
	opts install.Options
}

func (b *stepsBackend) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	venv := pyenv.Venv{Root: req.Venv}
	var have pyenv.Installed
	if venv.Exists() {
		in, err := pyenv.Inspect(ctx, b.run, venv.Python())
		if err != nil {
			return Plan{}, fmt.Errorf("cannot read what %s holds: %w", req.Venv, err)
		}
		have = in
	}
	opts := install.Options{Venv: venv, Python: req.Python, Target: install.TargetOf(req.Candidate), LogPath: installLogPath()}
	p, err := install.MakePlan(opts, have)
	if err != nil {
		return Plan{}, err
	}
	out := Plan{Venv: req.Venv, Candidate: req.Candidate, Uninstall: p.Uninstall, Install: p.Install,
		Notes: p.Notes, Warnings: p.Warnings, Impl: planned{p, opts}}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, PlanStep{ID: s.ID, Title: s.Title})
	}
	for _, argv := range p.Commands {
		out.Commands = append(out.Commands, runner.QuoteArgv(argv))
	}
	return out, nil
}
