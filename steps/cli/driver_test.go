package cli

import (
	"strings"
	"testing"
)

const rig1060 = "../../testdata/driver/rig-gtx1060-456.json"

// --check exits 3 when the installed driver is below what the wanted channel needs, 0 when it is
// not; bad input is exit 2 with what to do.
func TestDriverCheckExitCodes(t *testing.T) {
	t.Setenv("GPUWIZ_NVIDIA_LOOKUP", "http://127.0.0.1:9")
	out, stderr, code := runCLI(t, "--simulate", rig1060, "driver", "--check", "--os", "windows", "--channel", "cu128")
	if code != ExitIncompatible || !strings.Contains(out, "too old for the channel") || !strings.Contains(out, "528.33") {
		t.Errorf("cu128 on 456.71: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, _, code := runCLI(t, "--simulate", rig1060, "driver", "--check", "--os", "windows", "--channel", "cu118"); code != 0 {
		t.Errorf("cu118 on 456.71: exit %d, want 0 (452.39 is enough)", code)
	}
	for _, args := range [][]string{{"--os", "macos"}, {"--windows", "8"}, {"--channel", "cu999"}} {
		_, stderr, code := runCLI(t, append([]string{"--simulate", rig1060, "driver"}, args...)...)
		if code != ExitUsage || stderr == "" {
			t.Errorf("%v: exit %d %q, want 2 with a message", args, code, stderr)
		}
	}
}
