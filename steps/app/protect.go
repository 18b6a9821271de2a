package app

import (
	"os"
	"path/filepath"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
)

// Protection is what Protect did to a venv's pip settings: the state it leaves, and the pins
// written anew into constraints.txt.
type Protection struct {
	Status    keep.Status
	Rewritten []string
}

// Protect makes pip in the venv at root (absolute, an existing venv) keep its framework build
// (pip.conf's constraint on the venv's requirements.lock), or with off takes that away. Protecting
// a venv without a lock is a usage error; a setting that could not be written, a failure.
func Protect(root string, off bool) (Protection, error) {
	var p Protection
	var err error
	if off {
		p.Status, err = keep.Unprotect(root, "")
	} else {
		if _, err := os.Stat(filepath.Join(root, "requirements.lock")); err != nil {
			return p, Usagef("%s", i18n.T("keep.err.no_lock", i18n.D{"Venv": root}))
		}
		p.Status, p.Rewritten, err = keep.Ensure(root, "")
	}
	if err != nil {
		return p, Exitf(ExitFailure, "%v", err)
	}
	return p, nil
}
