package install

import (
	"errors"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
)

// What gpuwiz cannot change safely is refused as bad input, with the reason: a Python the OS
// manages, one that is not 64-bit, a ._pth that hides site-packages (unless the user agreed to fix it).
func TestCheckTargetRefusesWithTheReason(t *testing.T) {
	l := pyenv.Layout{Kind: pyenv.EnvEmbedded, Root: "/b/python_embeded", Pth: "/b/python_embeded/python311._pth"}
	in := pyenv.Installed{Python: pyenv.Interpreter{Path: "/b/python_embeded/python.exe", Bits: 64}, Purelib: "/b/python_embeded/Lib/site-packages"}
	if err := CheckTarget(l, in, false); err != nil {
		t.Fatalf("a 64-bit Python with site-packages on sys.path: %v", err)
	}
	for name, c := range map[string]struct {
		in   pyenv.Installed
		fix  bool
		want string
	}{
		"externally managed": {pyenv.Installed{Python: in.Python, ExternallyManaged: true}, false, "EXTERNALLY-MANAGED"},
		"32-bit":             {pyenv.Installed{Python: pyenv.Interpreter{Path: "py", Bits: 32}}, false, "32-bit"},
		"._pth without site": {pyenv.Installed{Python: in.Python, SiteOffPath: true, Purelib: in.Purelib}, false, "--fix-pth"},
	} {
		err := CheckTarget(l, c.in, c.fix)
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := CheckTarget(l, pyenv.Installed{Python: in.Python, SiteOffPath: true}, true); err != nil {
		t.Errorf("--fix-pth given: %v", err)
	}
}
