package doctor

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report for people: findings most severe first, then what was checked.
func WriteText(w io.Writer, r Report) {
	fmt.Fprintf(w, "gpuwiz doctor: %s\n", r.target())
	if r.Python.Version != "" {
		fmt.Fprintf(w, "Python %s, %d-bit", r.Python.Version, r.Python.Bits)
		if r.Python.Kind != "" {
			fmt.Fprintf(w, " (%s)", r.Python.Kind)
		}
		fmt.Fprintln(w)
	}
	if len(r.Installed) > 0 {
		var ds []string
		for _, d := range r.Installed {
			ds = append(ds, d.Name+" "+d.Version+d.LocalLabel)
		}
		fmt.Fprintf(w, "Installed: %s\n", strings.Join(ds, ", "))
	}
	if r.Lock != nil {
		fmt.Fprintf(w, "gpuwiz installed: %s==%s%s (channel %s, %s)\n", r.Lock.Package, r.Lock.Version, r.Lock.Label, orNone(r.Lock.Channel), r.Lock.File)
	}
	if r.GPU.Available {
		fmt.Fprintf(w, "Driver %s (CUDA up to %s)", r.GPU.DriverVersion, r.GPU.CUDAMax)
		for _, g := range r.GPU.GPUs {
			fmt.Fprintf(w, "; GPU %d %s, compute %s", g.Index, g.Name, g.ComputeCapability)
		}
		if r.GPU.Simulated {
			fmt.Fprint(w, " [simulated]")
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "Driver: none answered")
	}
	fmt.Fprintln(w)
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "No problems found.")
	}
	for i, f := range r.Findings {
		fmt.Fprintf(w, "%d. [%s] %s  (%s)\n", i+1, strings.ToUpper(string(f.Severity)), f.Title, f.Code)
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "     - %s\n", e)
		}
		fmt.Fprintf(w, "   Fix: %s\n\n", f.Fix)
	}
	if r.Problems > 0 {
		fmt.Fprintf(w, "%d problem(s) found.\n", r.Problems)
	}
	fmt.Fprintln(w, "\nChecked, in order:")
	for i, c := range r.Checked {
		fmt.Fprintf(w, "  %d. %s\n", i+1, c)
	}
}

func (r Report) target() string {
	if r.Venv != "" {
		return "venv " + r.Venv
	}
	return "python " + r.Python.Path
}
