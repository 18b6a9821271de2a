package doctor

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/verify"
)

func interruptedReport(t *testing.T) Report {
	j := install.Journal{Format: 1, PID: 99, Started: time.Now(), Venv: "/v", Framework: "torch", Version: "2.6.0", Channel: "cu126",
		Step: install.StepInstall, Changed: true, Remove: []string{"torch"}, Install: []string{"torch==2.6.0+cu126"},
		Backup: "/v/.gpuwiz/backup-1", Snapshot: "/v/.gpuwiz/snapshot-1.txt", IndexURL: "http://127.0.0.1:1/whl/cu126"}
	ev := &Evidence{GOOS: "linux", Venv: "/v", Python: PythonFacts{Path: "/v/bin/python", Version: "3.11.7", Bits: 64},
		Interrupted: &install.Interrupted{Journal: j}, Lock: &LockedBuild{Framework: "torch", Version: "2.6.0", Channel: "cu124"}}
	return buildReport(ev, nil)
}

// The way out of an unfinished run is a command a shell runs as it stands, whatever the venv's path
// holds: a quote, a double quote, a space.
func TestInterruptedFixIsAShellCommand(t *testing.T) {
	venv := `/home/o'brien/my "gpu" venv`
	j := install.Journal{Format: 1, PID: 99, Started: time.Now(), Venv: venv, Framework: "torch", Version: "2.6.0", Channel: "cu126",
		Step: install.StepInstall, Changed: true, Backup: venv + "/.gpuwiz/backup-1"}
	rep := buildReport(&Evidence{GOOS: "linux", Venv: venv, Interrupted: &install.Interrupted{Journal: j}}, nil)
	f := rep.Finding(CodeInterrupted)
	if f == nil {
		t.Fatalf("findings: %+v", rep.Findings)
	}
	for _, argv := range [][]string{{"gpuwiz", "doctor", "--venv", venv, "--fix"}, {"gpuwiz", "doctor", "--venv", venv, "--fix", "--finish"}} {
		cmd := shellquote.Posix(argv...)
		if !strings.Contains(f.Fix, cmd) {
			t.Fatalf("the fix does not hold %s:\n%s", cmd, f.Fix)
		}
		// bash reads it back as the same words.
		out, err := exec.Command("bash", "-c", `set -- `+cmd+`; printf '%s\n' "$@"`).Output()
		if err != nil || string(out) != strings.Join(argv, "\n")+"\n" {
			t.Fatalf("bash reads %s as %q (%v)", cmd, out, err)
		}
	}
}

// An unfinished run is the first finding, an error with both ways out; the plan puts back from the
// backup first and leaves the rest for doctor's second look; --finish adds the build it was installing.
func TestInterruptedInstallIsTheFirstFindingAndThePlanPutsBack(t *testing.T) {
	rep := interruptedReport(t)
	if len(rep.Findings) == 0 || rep.Findings[0].Code != CodeInterrupted || rep.Findings[0].Severity != SeverityError {
		t.Fatalf("findings: %+v", rep.Findings)
	}
	f := rep.Findings[0]
	if !strings.Contains(f.Fix, `gpuwiz doctor --venv /v --fix`) || !strings.Contains(f.Fix, "--fix --finish") || !strings.Contains(strings.Join(f.Evidence, "\n"), "/v/.gpuwiz/backup-1") {
		t.Fatalf("finding: %+v", f)
	}
	m, err := matrix.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	plan := RepairPlan(rep, RepairOptions{Matrix: m})
	if !plan.Restore || plan.Reinstall != nil || len(plan.Actions) != 1 || !plan.Actions[0].Restore {
		t.Fatalf("plan: %+v", plan)
	}
	if stepOf, install := plan.StepNumbers(); stepOf[0] != 1 || install != 0 {
		t.Fatalf("step numbers: %v %d", stepOf, install)
	}
	plan = RepairPlan(rep, RepairOptions{Matrix: m, Finish: true})
	if c := plan.Reinstall; c == nil || c.Channel != "cu126" || c.FrameworkVersion != "2.6.0" {
		t.Fatalf("--finish should reinstall cu126: %+v", plan)
	}
	if stepOf, install := plan.StepNumbers(); stepOf[0] != 1 || install != 2 {
		t.Fatalf("the restore comes before the install: %v %d", stepOf, install)
	}

	// ApplyRepair puts back first; a failed restore ends the repair there.
	var calls []string
	deps := Deps{Runner: runner.New(nil), GOOS: "linux",
		Recover: func(ctx context.Context, venv string, lines chan<- runner.Line) error {
			calls = append(calls, "recover "+venv)
			return errors.New("backup gone")
		},
		Reinstall: func(ctx context.Context, venv, _ string, c matrix.Candidate, lines chan<- runner.Line, installed func()) (*verify.Report, error) {
			calls = append(calls, "reinstall")
			return nil, nil
		}}
	res, err := ApplyRepair(context.Background(), deps, plan, nil)
	if err != nil || !res.Failed || strings.Join(calls, ",") != "recover /v" || !strings.Contains(res.Steps[0].Err, "backup gone") {
		t.Fatalf("a failed restore should end the repair: %+v %v %v", res, err, calls)
	}
}

// The interrupted run had created the venv: putting back removes it, and the repair ends there
// (there is nothing left to check), not with doctor's error about a missing venv.
func TestPuttingBackANewVenvEndsTheRepair(t *testing.T) {
	venv := t.TempDir() + "/venv"
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(venv, 0o755))
	plan := Repair{Venv: venv, Python: venv + "/bin/python", Restore: true, Actions: []Action{{Title: "remove", Fixes: CodeInterrupted, Restore: true}}}
	deps := Deps{Runner: runner.New(nil), GOOS: "linux",
		Recover: func(ctx context.Context, v string, lines chan<- runner.Line) error { return os.RemoveAll(v) }}
	res, err := ApplyRepair(context.Background(), deps, plan, nil)
	if err != nil || res.Failed || res.After != nil || len(res.Steps) != 1 || !res.Steps[0].OK {
		t.Fatalf("want one step done and no second look: %+v %v", res, err)
	}
}
