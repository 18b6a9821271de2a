package doctor

import (
	"fmt"
	"io"
	"strings"

	"gpuwiz/steps/i18n"
)

// WriteText prints the report for people: findings most severe first, then what was checked.
func WriteText(w io.Writer, r Report) {
	fmt.Fprintln(w, i18n.T("doctor.text.header", i18n.D{"Target": r.target()}))
	if r.Python.Version != "" {
		if r.Python.Kind != "" {
			fmt.Fprintln(w, i18n.T("doctor.text.python_kind", i18n.D{"Version": r.Python.Version, "Bits": r.Python.Bits, "Kind": kindLabel(r.Python.Kind)}))
		} else {
			fmt.Fprintln(w, i18n.T("doctor.text.python", i18n.D{"Version": r.Python.Version, "Bits": r.Python.Bits}))
		}
	}
	if len(r.Installed) > 0 {
		var ds []string
		for _, d := range r.Installed {
			ds = append(ds, d.Name+" "+d.Version+d.LocalLabel)
		}
		fmt.Fprintln(w, i18n.T("doctor.text.installed", i18n.D{"Dists": i18n.Join(ds)}))
	}
	if r.Lock != nil {
		fmt.Fprintln(w, i18n.T("doctor.text.lock", i18n.D{"Build": r.Lock.Package + "==" + r.Lock.Version + r.Lock.Label, "Channel": orNone(r.Lock.Channel), "File": r.Lock.File}))
	}
	if r.GPU.Available {
		parts := []string{i18n.T("doctor.text.driver", i18n.D{"Driver": r.GPU.DriverVersion, "CUDAMax": r.GPU.CUDAMax})}
		for _, g := range r.GPU.GPUs {
			parts = append(parts, i18n.T("doctor.text.gpu", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": g.ComputeCapability}))
		}
		line := i18n.JoinClauses(parts)
		if r.GPU.Simulated {
			line += " " + i18n.T("doctor.text.simulated")
		}
		fmt.Fprintln(w, line)
	} else {
		fmt.Fprintln(w, i18n.T("doctor.text.no_driver"))
	}
	fmt.Fprintln(w)
	// What blocks or threatens the build first, numbered; then the context, under its own heading
	// (it changes nothing about the build, and no exit code).
	n, context := 0, 0
	for _, f := range r.Findings {
		if !f.IsProblem() {
			context++
			continue
		}
		n++
		writeFinding(w, n, f)
	}
	if r.Problems > 0 {
		fmt.Fprintln(w, i18n.N("doctor.text.problems", r.Problems))
	} else {
		fmt.Fprintln(w, i18n.T("doctor.text.no_problems"))
	}
	if context > 0 {
		fmt.Fprintln(w, "\n"+i18n.T("doctor.text.context"))
		n = 0
		for _, f := range r.Findings {
			if !f.IsProblem() {
				n++
				writeFinding(w, n, f)
			}
		}
	}
	fmt.Fprintln(w, "\n"+i18n.T("doctor.text.checked"))
	for i, c := range r.Checked {
		fmt.Fprintf(w, "  %d. %s\n", i+1, c)
	}
}

func writeFinding(w io.Writer, n int, f Finding) {
	// the layout is the catalog's: the English report tags the finding with its code to search
	// for, the Chinese one names it in words only (the code is for --json and the logs)
	fmt.Fprintln(w, i18n.T("doctor.text.finding", i18n.D{"Number": n, "Severity": severityLabel(f.Severity), "Title": f.Title, "Code": f.Code}))
	for _, e := range f.Evidence {
		fmt.Fprintf(w, "     - %s\n", e)
	}
	fmt.Fprintf(w, "   %s\n\n", i18n.T("doctor.text.fix", i18n.D{"Fix": f.Fix}))
}

// severityLabel is a finding's severity as the text report shows it (the JSON keeps the code).
func severityLabel(s Severity) string { return severityLabels.Say(s, strings.ToUpper(string(s))) }

var severityLabels = i18n.Words[Severity]{
	SeverityError:   func() string { return i18n.T("doctor.severity.error") },
	SeverityWarning: func() string { return i18n.T("doctor.severity.warning") },
	SeverityInfo:    func() string { return i18n.T("doctor.severity.info") },
}

// kindLabel is the kind of Python (pyenv's classification) as the text report shows it; the JSON
// keeps the word itself. conda, pyenv and python.org are names and stay as they are.
func kindLabel(kind string) string { return kindLabels.Say(kind, kind) }

var kindLabels = i18n.Words[string]{
	"venv":    func() string { return i18n.T("doctor.kind.venv") },
	"store":   func() string { return i18n.T("doctor.kind.store") },
	"system":  func() string { return i18n.T("doctor.kind.system") },
	"unknown": func() string { return i18n.T("doctor.kind.unknown") },
}

func (r Report) target() string {
	if r.Venv != "" {
		return i18n.T("doctor.text.target_venv", i18n.D{"Path": r.Venv})
	}
	return i18n.T("doctor.text.target_python", i18n.D{"Path": r.Python.Path})
}
