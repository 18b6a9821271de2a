package install

import (
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
)

// EnvInfo is the kind of environment a plan changes, as its files and its interpreter told it.
type EnvInfo struct {
	Kind    string `json:"kind"`             // pyenv.EnvVenv, EnvConda, EnvEmbedded, EnvPrefix
	UV      string `json:"uv,omitempty"`     // made by uv (pyvenv.cfg's uv = version)
	HasPip  bool   `json:"has_pip"`          // pip is installed in it (else gpuwiz's own pip runs against it)
	Python  string `json:"python,omitempty"` // its interpreter
	Pth     string `json:"pth,omitempty"`    // an embedded Python's ._pth file
	FixPth  bool   `json:"fix_pth,omitempty"`
	Purelib string `json:"purelib,omitempty"` // site-packages, as the interpreter reports it
}

// CheckTarget refuses, with the reason, an environment gpuwiz cannot change safely: a Python the
// OS's package manager owns (PEP 668), one that is not 64-bit (no GPU build exists for it), and an
// embedded Python whose ._pth leaves site-packages off sys.path unless the user agreed to the
// one-line change (fixPth).
func CheckTarget(l pyenv.Layout, in pyenv.Installed, fixPth bool) error {
	switch {
	case in.ExternallyManaged:
		return badInput(i18n.T("install.refuse.externally_managed", i18n.D{"Venv": l.Root, "Python": in.Python.Path}))
	case in.Python.Bits != 0 && in.Python.Bits != 64:
		return badInput(i18n.T("install.refuse.not_64bit", i18n.D{"Python": in.Python.Path, "Bits": in.Python.Bits}))
	case in.SiteOffPath && !fixPth:
		if l.Pth != "" && !l.PthSite {
			return badInput(i18n.T("install.refuse.pth_no_site", i18n.D{"File": l.Pth, "Site": in.Purelib}))
		}
		return badInput(i18n.T("install.refuse.site_off_path", i18n.D{"Site": in.Purelib}))
	}
	return nil
}
