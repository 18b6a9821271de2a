package doctor

import (
	"testing"

	"gpuwiz/steps/i18n"
)

// uv that made the environment threatens the build (a warning, a problem); uv only on PATH is
// context: nothing says it is used for this environment, so a repair that worked still ends ✓.
func TestUVOnlyOnPathIsContext(t *testing.T) {
	i18n.Set(i18n.English)
	torch := []Dist{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}
	for _, c := range []struct {
		uv      UVFacts
		problem bool
	}{
		{UVFacts{OnPath: "/usr/local/bin/uv", Constraints: "/v/constraints.txt"}, false},
		{UVFacts{MadeBy: "0.9.2", Constraints: "/v/constraints.txt"}, true},
		{UVFacts{MadeBy: "0.9.2", OnPath: "/usr/local/bin/uv", Constraints: "/v/constraints.txt"}, true},
	} {
		u := c.uv
		fs := checkUV(&Evidence{GOOS: "linux", Venv: "/v", Dists: torch, UV: &u})
		if len(fs) != 1 || fs[0].IsProblem() != c.problem {
			t.Errorf("%+v: findings %+v, want problem %v", c.uv, fs, c.problem)
		}
	}
}
