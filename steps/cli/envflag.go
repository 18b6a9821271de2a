package cli

import "gpuwiz/steps/app"

// envFlag is --venv / --env: a path as userpath reads it, where an interpreter's path names the
// environment it belongs to (Scripts\python.exe of a venv, python_embeded\python.exe of a portable
// bundle, bin/python3 of a prefix).
type envFlag struct{ p *string }

func newEnvFlag(p *string) *envFlag { return &envFlag{p: p} }

func (f *envFlag) String() string {
	if f == nil || f.p == nil {
		return ""
	}
	return *f.p
}

func (f *envFlag) Set(s string) error {
	v, err := app.CleanPath(s)
	if err != nil {
		return err
	}
	if v != "" {
		v = app.EnvRootOf(v)
	}
	*f.p = v
	return nil
}

// Type is "string", as for any text flag.
func (f *envFlag) Type() string { return "string" }
