package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/testkit/fakeinstaller"
	"gpuwiz/steps/testkit/nvlookup"
)

// gpuwiz driver --download fetches the lookup's installer for a desktop GTX 1060 into the user
// cache with progress numbers; cut off, it says the partial file is kept and how to go on, and the
// next run says how much was there and finishes. --json gives the numbers.
func TestDriverDownloadCommand(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("GPUWIZ_NVIDIA_LOOKUP", "")
	name := "581.94-desktop-win10-win11-64bit-international-dch-whql.exe"
	s := nvlookup.Serve(t, []nvlookup.Product{{Series: "101", Name: "GeForce GTX 1060", PFID: "815"}},
		map[string][]nvlookup.Driver{"815": {{Version: "581.94", Name: "GeForce Game Ready Driver", WHQL: true, File: name}}})
	body := append(fakeinstaller.WithSecurityDir(fakeinstaller.Program(t)), make([]byte, 4<<20)...)
	s.File("581.94", name, body)
	t.Setenv("GPUWIZ_NVIDIA_LOOKUP", s.URL)
	s.CutNextAfter(1 << 20)
	// After the cut the host answers 503 until Up: the first run gives up after its retries.
	out, stderr, code := runCLI(t, "--simulate", rig1060, "driver", "--download", "--os", "windows")
	dir := filepath.Join(cache, "gpuwiz", "drivers")
	if code != 1 || !strings.Contains(stderr, "run the same command again to go on from there") || !strings.Contains(out, "Driver 581.94 for NVIDIA GeForce GTX 1060 6GB: "+name) {
		t.Fatalf("cut download: exit %d\n%s\n%s", code, out, stderr)
	}
	if fi, err := os.Stat(filepath.Join(dir, name+".part")); err != nil || fi.Size() == 0 {
		t.Fatalf("no partial file kept: %v", err)
	}
	s.Up()
	out, stderr, code = runCLI(t, "--simulate", rig1060, "driver", "--download", "--os", "windows")
	if code != 0 || !strings.Contains(out, "came in an earlier, interrupted download") || !strings.Contains(out, "100%") ||
		!strings.Contains(out, "Downloaded to "+filepath.Join(dir, name)) || !strings.Contains(out, "gpuwiz driver --install") {
		t.Fatalf("resumed download: exit %d\n%s\n%s", code, out, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, name))
	if len(got) != len(body) {
		t.Fatalf("%d bytes, want %d", len(got), len(body))
	}
	out, _, code = runCLI(t, "--simulate", rig1060, "driver", "--download", "--os", "windows", "--json")
	var rep struct {
		File   string
		Result struct {
			Reused  int64 `json:"reused_bytes"`
			Fetched int64 `json:"fetched_bytes"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || rep.File != name || rep.Result.Reused != int64(len(body)) || rep.Result.Fetched != 0 {
		t.Errorf("--json of a download already there: exit %d %v %+v\n%s", code, err, rep, out)
	}
}

// On Linux --install never installs: it prints the distribution's way and exits 3; asked for
// Windows on a Linux machine it says --install works only on Windows (exit 2); a missing --file is
// named (exit 2). In Chinese too.
func TestDriverInstallRefusesOffWindows(t *testing.T) {
	t.Setenv("GPUWIZ_NVIDIA_LOOKUP", "http://127.0.0.1:9")
	out, stderr, code := runCLI(t, "--simulate", rig1060, "driver", "--install", "--os", "linux")
	if code != ExitIncompatible || !strings.Contains(stderr, "gpuwiz never downloads or installs a driver on Linux") || !strings.Contains(stderr, "580") {
		t.Errorf("linux --install: exit %d\n%s\n%s", code, out, stderr)
	}
	_, stderr, code = runCLI(t, "--simulate", rig1060, "driver", "--install", "--os", "windows")
	if code != ExitUsage || !strings.Contains(stderr, "works only on Windows") {
		t.Errorf("windows --install on linux: exit %d %s", code, stderr)
	}
	i18n.Set(i18n.Chinese)
	defer i18n.Set(i18n.English)
	_, stderr, code = runCLI(t, "--simulate", rig1060, "driver", "--install", "--os", "linux")
	if code != ExitIncompatible || !strings.Contains(stderr, "在 Linux 上 gpuwiz 从不自己下载或安装驱动") {
		t.Errorf("zh-CN linux --install: exit %d %s", code, stderr)
	}
}
