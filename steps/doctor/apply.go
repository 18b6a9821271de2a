package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/runner"
)

// ReinstallFunc installs c into the venv through the safe install engine, reporting output lines.
type ReinstallFunc func(ctx context.Context, venv, python string, c matrix.Candidate, lines chan<- runner.Line) error

// RepairEvent is progress of ApplyRepair; sends never block (a full channel drops lines, not steps' ends).
type RepairEvent struct {
	Step  int    `json:"step"` // 1-based; 0 for the final verification
	Of    int    `json:"of"`
	Title string `json:"title"`
	Line  string `json:"line,omitempty"`
	Done  bool   `json:"done,omitempty"`
	Err   string `json:"err,omitempty"`
}

// RepairResult is what ApplyRepair did and what doctor says afterwards.
type RepairResult struct {
	Steps  []StepResult `json:"steps"`
	After  *Report      `json:"after,omitempty"` // doctor run again on the repaired environment
	Failed bool         `json:"failed"`
}

// StepResult is one action's outcome.
type StepResult struct {
	Title string `json:"title"`
	OK    bool   `json:"ok"`
	Err   string `json:"err,omitempty"`
}

// ApplyRepair runs the plan's actions in order, then the reinstall, then doctor again (which runs the
// framework's own check). It stops at the first failed step; cancelling ctx stops the running child.
func ApplyRepair(ctx context.Context, deps Deps, rep Repair, events chan<- RepairEvent) (RepairResult, error) {
	d := deps.withDefaults()
	send := func(e RepairEvent) {
		if events == nil {
			return
		}
		select {
		case events <- e:
		default:
		}
	}
	total := len(rep.Actions)
	if rep.Reinstall != nil {
		total++
	}
	var res RepairResult
	fail := func(step int, title string, err error) (RepairResult, error) {
		res.Steps = append(res.Steps, StepResult{Title: title, Err: err.Error()})
		res.Failed = true
		send(RepairEvent{Step: step, Of: total, Title: title, Done: true, Err: err.Error()})
		return res, nil
	}
	for i, a := range rep.Actions {
		step := i + 1
		send(RepairEvent{Step: step, Of: total, Title: a.Title})
		var err error
		switch {
		case a.RemovePath != "":
			err = removeRepairPath(a.RemovePath, rep)
		case len(a.Argv) > 0:
			err = runStep(ctx, d, a.Title, a.Argv, step, total, send)
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err != nil {
			return fail(step, a.Title, err)
		}
		res.Steps = append(res.Steps, StepResult{Title: a.Title, OK: true})
		send(RepairEvent{Step: step, Of: total, Title: a.Title, Done: true})
	}
	if c := rep.Reinstall; c != nil {
		title := fmt.Sprintf("Install %s %s (%s) through the install engine", c.Framework, c.FrameworkVersion, c.Channel)
		send(RepairEvent{Step: total, Of: total, Title: title})
		if d.Reinstall == nil {
			return fail(total, title, fmt.Errorf("this build has no install engine wired in: run gpuwiz install --venv %s", rep.Venv))
		}
		lines := make(chan runner.Line, 256)
		done := make(chan struct{})
		go func() {
			for l := range lines {
				send(RepairEvent{Step: total, Of: total, Title: title, Line: l.Text})
			}
			close(done)
		}()
		err := d.Reinstall(ctx, rep.Venv, rep.Python, *c, lines)
		close(lines)
		<-done
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err != nil {
			return fail(total, title, err)
		}
		res.Steps = append(res.Steps, StepResult{Title: title, OK: true})
		send(RepairEvent{Step: total, Of: total, Title: title, Done: true})
	}
	send(RepairEvent{Step: 0, Of: total, Title: "Run doctor again"})
	after, err := Run(ctx, deps, Options{Venv: rep.Venv, Python: pythonIfNoVenv(rep)})
	if err != nil {
		return res, err
	}
	res.After = &after
	send(RepairEvent{Step: 0, Of: total, Title: "Run doctor again", Done: true})
	return res, nil
}

func pythonIfNoVenv(r Repair) string {
	if r.Venv != "" {
		return ""
	}
	return r.Python
}

func runStep(ctx context.Context, d Deps, title string, argv []string, step, total int, send func(RepairEvent)) error {
	lines := make(chan runner.Line, 256)
	done := make(chan struct{})
	go func() {
		for l := range lines {
			send(RepairEvent{Step: step, Of: total, Title: title, Line: l.Text})
		}
		close(done)
	}()
	res := d.Runner.Run(ctx, runner.Cmd{Name: title, Argv: argv, Env: d.Env.Environ()}, lines)
	close(lines)
	<-done
	if res.Err != nil {
		return fmt.Errorf("%v: %s", res.Err, lastLines(strings.Join(res.Tail, "\n"), 3))
	}
	return nil
}

// removeRepairPath deletes only what a plan may delete: a ~ leftover or a paddle/ directory, inside
// the environment, never a path outside it.
func removeRepairPath(p string, rep Repair) error {
	base := filepath.Base(p)
	if base != "paddle" && !strings.HasPrefix(base, "~") {
		return fmt.Errorf("refusing to delete %s: not a leftover", p)
	}
	if rep.Venv != "" && !under(p, []string{rep.Venv}, "linux") && !under(p, []string{rep.Venv}, "windows") {
		return fmt.Errorf("refusing to delete %s: outside the venv %s", p, rep.Venv)
	}
	if !strings.Contains(strings.ToLower(filepath.ToSlash(p)), "-packages/") {
		return fmt.Errorf("refusing to delete %s: not in site-packages", p)
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("cannot delete %s (close every Python using this venv and retry): %w", p, err)
	}
	return nil
}
