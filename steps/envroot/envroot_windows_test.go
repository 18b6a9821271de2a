package envroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Windows spellings of a path: the \\?\ prefix, another case, a short (8.3) name, a UNC path,
// a drive-relative and a rooted RECORD line. Run under Wine by steps/winetest.
func TestWindowsSpellings(t *testing.T) {
	env, site, outside := tree(t)
	r := New(env, site)
	inside := filepath.Join(site, "torch", "x.py")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	for _, p := range []string{inside, `\\?\` + inside, strings.ToUpper(inside), strings.ToLower(inside)} {
		if !r.Inside(p) {
			t.Errorf("Inside(%q) = false", p)
		}
	}
	for _, p := range []string{filepath.Join(outside, "x"), `\\?\` + filepath.Join(outside, "x"), strings.ToUpper(filepath.Join(outside, "x")),
		`\\localhost\C$\victim\x`, `\\?\UNC\localhost\C$\victim\x`} {
		if r.Inside(p) {
			t.Errorf("Inside(%q) = true", p)
		}
	}
	for _, rel := range []string{`C:victim\x`, `C:..\x`, `\victim\x`, `/victim/x`, `\\localhost\share\x`, `//localhost/share/x`,
		`..\..\..\..\victim\x`, filepath.Join(outside, "x"), strings.ToUpper(filepath.Join(outside, "x"))} {
		if p, ok := r.Join(site, rel); ok {
			t.Errorf("Join(site, %q) = %q, accepted", rel, p)
		}
	}
	if p, ok := r.Join(site, `torch\x.py`); !ok || !strings.EqualFold(p, inside) {
		t.Errorf(`Join(site, "torch\\x.py") = %q, %v`, p, ok)
	}
	if short := shortOf(env); short != "" && short != env {
		if !New(short).Inside(inside) {
			t.Errorf("the environment named by its short name %q does not hold %q", short, inside)
		}
	}
	if r.Removable(strings.ToUpper(site)) || r.Removable(`\\?\`+env) {
		t.Error("a root spelled another way is removable")
	}
}
