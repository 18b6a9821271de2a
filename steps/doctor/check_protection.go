package doctor

import (
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/shellquote"
)

// readProtection reads the venv's protection when gpuwiz's requirements.lock is there.
func readProtection(fsys FS, goos, venv string) *Protection {
	lock, err := fsys.ReadFile(joinFor(goos, venv, "requirements.lock"))
	if err != nil || !strings.Contains(string(lock), "written by gpuwiz") {
		return nil
	}
	pins := keep.LockPins(lock)
	if len(pins) == 0 {
		return nil
	}
	p := &Protection{Status: keep.ReadWith(fsys.ReadFile, venv, goos), Constraints: joinFor(goos, venv, "constraints.txt")}
	c, err := fsys.ReadFile(p.Constraints)
	if err != nil {
		p.NoFile = true
	}
	p.Missing = keep.Stale(pins, keep.ConstraintPins(c))
	return p
}

// checkProtection: a venv gpuwiz installed into whose pip configuration no longer names the
// constraints, or whose constraints no longer hold the build the lock records. Either way the next
// `pip install -r requirements.txt` there may replace the CUDA build with another one.
func checkProtection(e *Evidence) []Finding {
	p := e.Protection
	if p == nil {
		return nil
	}
	fix := i18n.T("doctor.protect.fix", i18n.D{"Command": shellquote.Command(e.GOOS, "gpuwiz", "protect", "--venv", e.Venv)})
	var out []Finding
	if !p.Status.Protected {
		ev := []string{i18n.T("doctor.protect.no_lines", i18n.D{"File": p.Status.File})}
		if p.Status.UserConstraint {
			ev = append(ev, i18n.T("doctor.protect.user_constraint"))
		}
		ev = append(ev, i18n.T("doctor.protect.why"))
		out = append(out, Finding{Code: CodeNotProtected, Severity: SeverityWarning, Title: i18n.T("doctor.protect.off_title"), Evidence: ev, Fix: fix})
	}
	if p.NoFile || len(p.Missing) > 0 {
		ev := []string{i18n.T("doctor.protect.stale_missing", i18n.D{"File": p.Constraints, "Pins": strings.Join(p.Missing, " ")})}
		if p.NoFile {
			ev = []string{i18n.T("doctor.protect.stale_gone", i18n.D{"File": p.Constraints})}
		}
		out = append(out, Finding{Code: CodeConstraintsStale, Severity: SeverityWarning, Title: i18n.T("doctor.protect.stale_title"), Evidence: ev, Fix: fix})
	}
	return out
}
