package cli

import (
	"github.com/spf13/pflag"

	"gpuwiz/steps/app"
)

// envFlag is --venv / --env: a path flag (app.PathFlag: the path as userpath reads it), where an
// interpreter's path names the environment it belongs to (Scripts\python.exe of a venv,
// python_embeded\python.exe of a portable bundle, bin/python3 of a prefix).
type envFlag struct {
	pflag.Value // the path flag: its String, its Type, and Set before the environment is found
	p           *string
}

func newEnvFlag(p *string) envFlag { return envFlag{app.PathFlag(p), p} }

func (f envFlag) Set(s string) error {
	if err := f.Value.Set(s); err != nil || *f.p == "" {
		return err
	}
	*f.p = app.EnvRootOf(*f.p)
	return nil
}
