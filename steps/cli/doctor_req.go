package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
)

// DoctorRequirementsJSON is `gpuwiz doctor --venv V --requirements FILE --json`: whether installing
// FILE would keep the venv's framework build, and pip's preview of what would change.
type DoctorRequirementsJSON struct {
	ExitCode     int             `json:"exit_code"`
	Requirements string          `json:"requirements"`
	KeepsBuild   bool            `json:"keeps_build"`
	Preview      *app.PipPreview `json:"preview,omitempty"`
	// WayOut is the framework version on the venv's channel that satisfies a refused requirement.
	WayOut string `json:"way_out,omitempty"`
	Error  string `json:"error,omitempty"`
}

// doctorRequirementsRun answers doctor --requirements: pip's dry run under the venv's constraints,
// nothing installed. Exit 0: the build stays; 3: the file needs another framework build; 2: bad input.
func doctorRequirementsRun(ctx context.Context, env *Env, o doctorOptions) error {
	out, venv, file, findLinks, asJSON := o.Out, o.Venv, o.Requirements, o.Source.FindLinks, o.JSON
	indexURL := o.Source.IndexURL
	if indexURL == "" {
		indexURL = o.Source.Mirror
	}
	root, err := existingVenv(venv)
	if err != nil {
		return err
	}
	path, err := filepath.Abs(file)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(path); err == nil && st.IsDir() {
			err = fmt.Errorf("a folder") //i18n:raw never shown: only its presence counts
		}
	}
	if err != nil {
		return Usagef("%s", i18n.T("cli.add.no_file", i18n.D{"File": file}))
	}
	rep := DoctorRequirementsJSON{Requirements: path}
	s, perr := env.PlanAdd(ctx, app.AddRequest{Venv: root, Requirements: []string{path}, IndexURL: indexURL, FindLinks: findLinks})
	code := ExitOK
	if perr != nil {
		code = app.CodeOf(perr, ExitFailure)
	}
	if s != nil && (perr == nil || code == ExitIncompatible) {
		rep.Preview, rep.WayOut = &s.Preview, s.WayOut
	}
	rep.ExitCode, rep.KeepsBuild = code, code == ExitOK
	if asJSON {
		if perr != nil && code != ExitIncompatible {
			rep.Error = perr.Error()
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
		if code != ExitOK {
			return Silent(code)
		}
		return nil
	}
	if perr != nil && code != ExitIncompatible {
		return perr
	}
	p := s.Preview
	build := strings.Join(p.Build, " ")
	if ref := p.Refusal; ref != nil {
		fmt.Fprintln(out, i18n.T("cli.doctor.req.would_replace", i18n.D{"File": path, "Requirement": ref.Requirement, "Needs": ref.Needs, "Installed": ref.Installed}))
		printWayOut(out, s)
		return Silent(ExitIncompatible)
	}
	fmt.Fprintln(out, i18n.T("cli.doctor.req.keeps", i18n.D{"File": path, "Build": build, "Venv": p.Venv}))
	if len(p.Changes) == 0 {
		fmt.Fprintln(out, i18n.T("cli.doctor.req.nothing_new"))
	} else {
		fmt.Fprintln(out, i18n.N("cli.doctor.req.changes", len(p.Changes)))
		printAddChanges(out, p)
	}
	fmt.Fprintln(out, i18n.T("cli.doctor.req.unchanged", i18n.D{"Command": shellquote.Command(runtime.GOOS, "gpuwiz", "add", "--venv", root, "-r", path)}))
	return nil
}
