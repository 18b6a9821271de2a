package cli

import (
	"context"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
)

// checkIndexServes asks the index, before anything changes, whether it serves the chosen build's
// wheels for this OS and the target Python. A build it does not serve is refused (exit 3) with the
// next-best build it does serve; --force goes on with a note. An index that cannot be read refuses
// nothing: the plan says so and the download will tell.
func checkIndexServes(ctx context.Context, env *Env, a installAnswers, v pyenv.Venv, python string, cand *matrix.Candidate, notes *[]string) error {
	if a.FindLinks != "" {
		*notes = append(*notes, i18n.T("cli.install.index_not_checked"))
		return nil
	}
	py := python
	if v.Exists() {
		py = v.Python()
	}
	pyVersion := ""
	if py != "" {
		if in, err := pyenv.Describe(ctx, py); err == nil {
			pyVersion = in.Version
		}
	}
	if pyVersion == "" {
		return nil // no target Python known yet: nothing exact to ask
	}
	minor := pep.Minor(pyVersion)
	facts := matrix.Facts{Framework: a.Framework, FrameworkVersion: a.FrameworkVersion, OS: osOf(), PythonVersion: pyVersion, Simulated: env.G.SimulateFile != ""}
	if _, err := fillGPUFacts(ctx, env, &facts); err != nil {
		return err
	}
	m, err := env.Matrix()
	if err != nil {
		return err
	}
	sel := m.Select(facts)
	verdict := indexcheck.CheckBuild(ctx, &indexcheck.Fetcher{Timeout: 10 * time.Second}, indexcheck.Source{IndexURL: a.IndexURL}, *cand, facts.OS, minor, sel.Candidates)
	switch {
	case verdict.Refused() && a.Force:
		*notes = append(*notes, "--force: "+verdict.Message())
	case verdict.Refused():
		return Exitf(ExitIncompatible, "%s", verdict.Message())
	case verdict.Status == indexcheck.CouldNotLook:
		*notes = append(*notes, i18n.T("cli.install.index_unreadable", i18n.D{"Reason": verdict.Reason()}))
	}
	return nil
}
