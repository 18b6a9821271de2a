package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/vcredist"
	"gpuwiz/steps/verify"
)

// ReinstallFunc installs c into the venv through the safe install engine, reporting output lines.
// It returns the engine's own verification of the installed build (nil when it has none), which
// the check after the repair takes instead of importing the framework a second time. installed,
// when not nil, is called once the engine's install step has written the new set into the venv
// (its verify step follows): the check after the repair starts its probes then, beside the verify.
type ReinstallFunc func(ctx context.Context, venv, python string, c matrix.Candidate, lines chan<- runner.Line, installed func()) (*verify.Report, error)

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

// installRedist fetches, checks and starts Microsoft's VC++ redistributable (never elevated); its
// folder is gpuwiz's cache folder.
var installRedist = func(ctx context.Context) error {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	_, err = vcredist.Install(ctx, vcredist.Deps{}, filepath.Join(dir, "gpuwiz", "vcredist"))
	return err
}

// ApplyRepair runs the plan, then doctor again (which runs the framework's own check). Cancelling
// ctx stops the running child.
//
// With a reinstall, the install engine runs first and alone: it stages every new wheel before it
// removes anything, makes the plan's Engine removals itself under the venv lock, and puts the old
// packages back on failure, so a failed reinstall ends the repair with the venv as it was and no
// other step run. Only after it succeeded do the plan's own (harmless) actions run; one of those
// failing is reported in Steps but does not undo or fail the repair. Without a reinstall the
// actions run in order under the venv lock, stopping at the first failure.
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
	stepOf, installStep := rep.StepNumbers()
	var res RepairResult
	var checked *verify.Report // the engine's verification of what it installed
	var early *probes          // the check after's probes, started once the engine installed the set
	defer func() { early.stop() }()
	fail := func(step int, title string, err error) (RepairResult, error) {
		res.Steps = append(res.Steps, StepResult{Title: title, Err: err.Error()})
		res.Failed = true
		send(RepairEvent{Step: step, Of: total, Title: title, Done: true, Err: err.Error()})
		return res, nil
	}
	if rep.Restore {
		i := slicesIndexRestore(rep.Actions)
		title := i18n.T("doctor.repair.restore", i18n.D{"Backup": ""})
		step := 1
		if i >= 0 {
			title, step = rep.Actions[i].Title, stepOf[i]
		}
		send(RepairEvent{Step: step, Of: total, Title: title})
		lines, stop := lineSender(send, step, total, title)
		err := d.Recover(ctx, rep.Venv, lines)
		stop()
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err != nil {
			return fail(step, title, err)
		}
		res.Steps = append(res.Steps, StepResult{Title: title, OK: true})
		send(RepairEvent{Step: step, Of: total, Title: title, Done: true})
	}
	c := rep.Reinstall
	if c == nil {
		for i, a := range rep.Actions {
			if a.Engine {
				return fail(stepOf[i], a.Title, errors.New(i18n.T("doctor.apply.engine_only")))
			}
		}
	} else {
		title := installTitle(*c)
		send(RepairEvent{Step: installStep, Of: total, Title: title})
		if d.Reinstall == nil {
			return fail(installStep, title, errors.New(i18n.T("doctor.apply.no_engine", i18n.D{"Venv": shellquote.Command(runtime.GOOS, rep.Venv)})))
		}
		lines, stop := lineSender(send, installStep, total, title)
		var installed func()
		if !slices.ContainsFunc(rep.Actions, isOwnAction) {
			// Nothing of the plan's own runs after the engine, so the venv that the install step
			// leaves is the one the check after the repair reads: its probes (a Python start and
			// two pip starts) run beside the engine's verify step instead of after it.
			installed = func() {
				if python, venv, err := ResolvePython(afterOptions(rep), d.FS, d.GOOS, d.Env); err == nil {
					early = startProbes(ctx, d, python, venv)
				}
			}
		}
		verified, err := d.Reinstall(ctx, rep.Venv, rep.Python, *c, lines, installed)
		stop()
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err != nil {
			return fail(installStep, title, err)
		}
		checked = verified
		for i, a := range rep.Actions {
			if a.Engine {
				res.Steps = append(res.Steps, StepResult{Title: a.Title, OK: true})
				send(RepairEvent{Step: stepOf[i], Of: total, Title: a.Title, Done: true})
			}
		}
		res.Steps = append(res.Steps, StepResult{Title: title, OK: true})
		send(RepairEvent{Step: installStep, Of: total, Title: title, Done: true})
	}
	ran, err := applyOwnActions(ctx, d, rep, stepOf, total, c != nil, send, &res)
	if err != nil {
		return res, err
	}
	if res.Failed {
		return res, nil
	}
	if entries, err := os.ReadDir(rep.Venv); rep.Restore && rep.Venv != "" && (errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0) {
		return res, nil // the interrupted run had made the venv, and putting back removed it: nothing to check
	}
	again := i18n.T("doctor.apply.run_again")
	send(RepairEvent{Step: 0, Of: total, Title: again})
	afterDeps := deps
	if checked != nil && !ran {
		// The engine verified the build it installed a moment ago, and nothing has changed the venv
		// since: its report is the framework's own check, not a second import of the framework.
		afterDeps.Verify = func(ctx context.Context, r runner.Runner, python, framework, channel string) (FrameworkCheck, error) {
			if framework != checked.Framework {
				return d.Verify(ctx, r, python, framework, channel)
			}
			return frameworkCheckOf(*checked), nil
		}
	}
	if !ran {
		afterDeps.early = early
	}
	began := time.Now()
	after, err := Run(ctx, afterDeps, afterOptions(rep))
	runner.Note(d.Runner, fmt.Sprintf("the check after the repair: %.3f s", time.Since(began).Seconds())) //i18n:raw the log, for support
	if err != nil {
		return res, err
	}
	res.After = &after
	// The last step passes only when doctor finds no error any more: a repair that leaves an error
	// must not end on a ✓ (its findings say what is left).
	errs := 0
	for _, f := range after.Findings {
		if f.Severity == SeverityError {
			errs++
		}
	}
	if errs > 0 {
		send(RepairEvent{Step: 0, Of: total, Title: again, Done: true, Err: i18n.N("doctor.apply.errors_left", errs)})
		return res, nil
	}
	send(RepairEvent{Step: 0, Of: total, Title: again, Done: true})
	return res, nil
}

// applyOwnActions runs the plan's actions that are not the engine's, holding the venv lock so no
// gpuwiz install works on the venv meanwhile. afterInstall: the engine already succeeded, so a
// failure is reported and the rest still run; otherwise the first failure ends the repair. ran says
// whether the plan had any such action (it may have changed the venv after the engine's check).
func applyOwnActions(ctx context.Context, d Deps, rep Repair, stepOf []int, total int, afterInstall bool, send func(RepairEvent), res *RepairResult) (ran bool, err error) {
	first := slices.IndexFunc(rep.Actions, isOwnAction)
	if first < 0 {
		return false, nil
	}
	record := func(step int, title string, err error) {
		if err == nil {
			res.Steps = append(res.Steps, StepResult{Title: title, OK: true})
			send(RepairEvent{Step: step, Of: total, Title: title, Done: true})
			return
		}
		res.Steps = append(res.Steps, StepResult{Title: title, Err: err.Error()})
		send(RepairEvent{Step: step, Of: total, Title: title, Done: true, Err: err.Error()})
		if !afterInstall {
			res.Failed = true
		}
	}
	if rep.Venv != "" {
		unlock, err := pyenv.Lock(rep.Venv)
		if err != nil {
			record(stepOf[first], rep.Actions[first].Title, err)
			return true, nil
		}
		defer unlock()
	}
	for i, a := range rep.Actions {
		if !isOwnAction(a) {
			continue
		}
		step := stepOf[i]
		send(RepairEvent{Step: step, Of: total, Title: a.Title})
		var err error
		switch {
		case a.VCRedist:
			err = installRedist(ctx)
		case a.UVProject != nil:
			err = a.UVProject.Write()
		case a.RemovePath != "":
			err = removeRepairPath(a.RemovePath, rep)
		case len(a.Argv) > 0:
			err = runStep(ctx, d, a.Title, a.Argv, step, total, send)
		}
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		record(step, a.Title, err)
		if res.Failed {
			return true, nil
		}
	}
	return true, nil
}

// RepairStep is one step of a repair plan, numbered as ApplyRepair runs it: the restore of an
// interrupted run, the engine's removals, the install, then doctor's own steps.
type RepairStep struct {
	N      int     `json:"n"`
	Title  string  `json:"title"`
	Action *Action `json:"action,omitempty"` // nil for the install
	// Index is the action's place in Actions (-1 for the install).
	Index int `json:"-"`
}

// Steps is the plan in the order ApplyRepair runs it: the one listing the CLI, the wizard and
// --json show. The install's title is installTitle's words for the candidate.
func (r Repair) Steps() []RepairStep {
	var out []RepairStep
	add := func(keep func(Action) bool) {
		for i := range r.Actions {
			if keep(r.Actions[i]) {
				out = append(out, RepairStep{N: len(out) + 1, Title: r.Actions[i].Title, Action: &r.Actions[i], Index: i})
			}
		}
	}
	add(func(a Action) bool { return a.Restore })
	add(func(a Action) bool { return a.Engine })
	if c := r.Reinstall; c != nil {
		out = append(out, RepairStep{N: len(out) + 1, Title: installTitle(*c), Index: -1})
	}
	add(isOwnAction)
	return out
}

// installTitle names the repair's install step.
func installTitle(c matrix.Candidate) string {
	return i18n.T("doctor.apply.install", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel})
}

// MarshalJSON writes the plan with its steps in the order they run.
func (r Repair) MarshalJSON() ([]byte, error) {
	type plain Repair
	return json.Marshal(struct {
		plain
		Steps []RepairStep `json:"steps"`
	}{plain(r), r.Steps()})
}

// StepNumbers is Steps as numbers: stepOf[i] is Actions[i]'s number (1-based); install is the
// install's number (0 without a Reinstall).
func (r Repair) StepNumbers() (stepOf []int, install int) {
	stepOf = make([]int, len(r.Actions))
	for _, st := range r.Steps() {
		if st.Index < 0 {
			install = st.N
		} else {
			stepOf[st.Index] = st.N
		}
	}
	return stepOf, install
}

// isOwnAction: doctor runs a itself, after the engine (neither the engine's removal nor the restore).
func isOwnAction(a Action) bool { return !a.Engine && !a.Restore }

// afterOptions name the environment the check after the repair reads.
func afterOptions(r Repair) Options { return Options{Venv: r.Venv, Python: pythonIfNoVenv(r)} }

// slicesIndexRestore is the index of the plan's restore action, -1 when there is none.
func slicesIndexRestore(as []Action) int {
	for i, a := range as {
		if a.Restore {
			return i
		}
	}
	return -1
}

// lineSender is a channel of output lines that become step's events, and the function that closes
// it once the sender is done, after the last line went out.
func lineSender(send func(RepairEvent), step, total int, title string) (chan<- runner.Line, func()) {
	lines := make(chan runner.Line, 256)
	done := make(chan struct{})
	go func() {
		for l := range lines {
			send(RepairEvent{Step: step, Of: total, Title: title, Line: l.Text})
		}
		close(done)
	}()
	return lines, func() { close(lines); <-done }
}

func pythonIfNoVenv(r Repair) string {
	if r.Venv != "" {
		return ""
	}
	return r.Python
}

func runStep(ctx context.Context, d Deps, title string, argv []string, step, total int, send func(RepairEvent)) error {
	lines, stop := lineSender(send, step, total, title)
	res := d.Runner.Run(ctx, runner.Cmd{Name: title, Argv: argv, Env: d.Env.Environ()}, lines)
	stop()
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
		return errors.New(i18n.T("doctor.apply.refuse_not_leftover", i18n.D{"Path": p}))
	}
	if rep.Venv != "" && (!under(p, []string{rep.Venv}, "linux") && !under(p, []string{rep.Venv}, "windows") || !envroot.New(rep.Venv).Removable(p)) {
		return errors.New(i18n.T("doctor.apply.refuse_outside", i18n.D{"Path": p, "Venv": rep.Venv}))
	}
	if !strings.Contains(strings.ToLower(filepath.ToSlash(p)), "-packages/") {
		return errors.New(i18n.T("doctor.apply.refuse_not_site", i18n.D{"Path": p}))
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("%s: %w", i18n.T("doctor.apply.cannot_delete", i18n.D{"Path": p}), err)
	}
	return nil
}
