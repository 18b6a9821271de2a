//go:build linux && cgo

package nvmlearly

import (
	"strings"
	"testing"
)

// TestConstructorAgreesWithWanted: the C constructor's test of the arguments says what Wanted says.
func TestConstructorAgreesWithWanted(t *testing.T) {
	for _, args := range []string{"gpu", "gpu --json", "gpu --json --timings", "gpu --watch", "", "--version", "gpu --help",
		"gpu -h", "channels", "gpu --simulate rig.json", "gpu --json --simulate=rig.json", "doctor gpu", "gpu --", "gpu --simulated",
		"--lang zh-CN gpu --json", "--lang=zh-CN gpu", "--no-color --ascii gpu", "--matrix m.toml gpu --json", "--sources=s.toml gpu",
		"--lang gpu gpu", "--lang gpu", "--lang", "--simulate r.json gpu", "--simulate=r.json gpu", "--verbose gpu", "--help gpu",
		"--lang zh-CN doctor", "--ascii=true gpu", "--no-color=false gpu --help"} {
		a := strings.Fields(args)
		if got, want := wantedC(a), Wanted(a); got != want {
			t.Errorf("%q: the constructor says %v, Wanted %v", args, got, want)
		}
	}
}
