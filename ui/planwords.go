package ui

import (
	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// stepTitle is a plan step's title: the engine's or doctor's own, or the words for a step app adds
// to a repair.
func stepTitle(p app.Plan, s app.PlanStep) string {
	switch s.Kind {
	case app.PlanStepReinstall:
		c := p.Candidate
		return i18n.T("ui.backend.install_step", i18n.D{"Framework": app.FrameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})
	case app.PlanStepDoctorAgain:
		return i18n.T("ui.backend.doctor_again")
	}
	return s.Title
}

// commandLines are the plan's commands as the plan screen lists them: each command as typed, and in
// words what gpuwiz does itself (a path it deletes, the install engine's reinstall).
func commandLines(p app.Plan) []string {
	out := make([]string, 0, len(p.Commands))
	for _, c := range p.Commands {
		switch {
		case c.Remove != "":
			out = append(out, i18n.T("ui.backend.delete", i18n.D{"Path": c.Remove}))
		case c.Reinstall:
			b := p.Candidate
			from := c.Source
			if from == "" {
				from = i18n.T("ui.backend.index_only", i18n.D{"URL": app.Redact(b.IndexURL)})
			}
			out = append(out, i18n.T("ui.backend.engine_install", i18n.D{"Framework": b.Framework, "Version": b.FrameworkVersion, "From": from}))
		default:
			out = append(out, c.Line)
		}
	}
	return out
}

// planWarnings are the plan's warnings, then what a repair leaves to the user, each with its fix.
func planWarnings(p app.Plan) []string {
	out := append([]string{}, p.Warnings...)
	for _, f := range p.LeftToYou {
		out = append(out, i18n.T("ui.backend.left_to_you", i18n.D{"Title": f.Title, "Fix": f.Fix}))
	}
	return out
}

// checkTitle is a check's title: the check's own, or the words for doctor's clean second run.
func checkTitle(c app.Check) string {
	if c.ID == app.DoctorClean && c.Title == "" {
		return i18n.T("ui.backend.doctor_clean")
	}
	return c.Title
}

// sourceWhy is why the plan takes the source chosen on the package-source screen, for the engine's
// plan ("" when none was chosen).
func sourceWhy(source string) string {
	if source == "" {
		return ""
	}
	return i18n.T("ui.backend.source_why", i18n.D{"Source": source})
}
