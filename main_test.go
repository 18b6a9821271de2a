package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tc-hib/winres"
	winversion "github.com/tc-hib/winres/version"

	"gpuwiz/steps/testkit/gobuild"
)

// goBuild builds this package into a temp dir's name with extra environment and arguments.
func goBuild(t *testing.T, name string, env []string, args ...string) string {
	t.Helper()
	return gobuild.Build(t, gobuild.Options{Out: filepath.Join(t.TempDir(), name), Env: env, Flags: args})
}

// TestProductLinksNoTestKit: the binary, for Linux and for Windows, links no test kit
// (steps/testkit/...), no net/http/httptest and not the testing package.
func TestProductLinksNoTestKit(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		cmd := exec.Command("go", "list", "-deps", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps (%s): %v", goos, err)
		}
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, "gpuwiz/steps/testkit") || p == "testing" || p == "net/http/httptest" {
				t.Errorf("the %s binary links %s", goos, p)
			}
		}
	}
}

// TestStampedVersionFlag builds the binary the way a release does (-X main.version, main.commit,
// main.date) and runs it: --version prints all three.
func TestStampedVersionFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	exe := goBuild(t, "gpuwiz", []string{"CGO_ENABLED=0"}, "-ldflags",
		"-X main.version=9.8.7 -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-12-03T19:00:00Z")
	out, err := exec.Command(exe, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("gpuwiz --version: %v\n%s", err, out)
	}
	want := "gpuwiz 9.8.7 (commit 0123456789abcdef0123456789abcdef01234567, built 2026-12-03T19:00:00Z)\n"
	if string(out) != want {
		t.Fatalf("gpuwiz --version printed %q, want %q", out, want)
	}
}

// windowsManifest is the part of an application manifest gpuwiz relies on.
type windowsManifest struct {
	XMLName   xml.Name `xml:"assembly"`
	Execution struct {
		Level    string `xml:"level,attr"`
		UIAccess string `xml:"uiAccess,attr"`
	} `xml:"trustInfo>security>requestedPrivileges>requestedExecutionLevel"`
	Settings struct {
		ActiveCodePage string `xml:"activeCodePage"`
		LongPathAware  string `xml:"longPathAware"`
	} `xml:"application>windowsSettings"`
	SupportedOS []struct {
		ID string `xml:"Id,attr"`
	} `xml:"compatibility>application>supportedOS"`
}

// TestWindowsExeCarriesManifestAndVersion builds gpuwiz.exe as `GOOS=windows go build .` does (the
// committed rsrc_windows_amd64.syso is linked into every windows/amd64 build) and reads the resources
// back from the PE file: the application manifest (UTF-8 code page, long paths, asInvoker) is exactly
// winres/gpuwiz.manifest, and the version resource carries winres/winres.json's product facts. A
// .syso left behind after an edit of either file fails here: regenerate it with
// go tool -modfile=.ci/tools/go.mod go-winres make --arch amd64
func TestWindowsExeCarriesManifestAndVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the Windows binary")
	}
	exe := goBuild(t, "gpuwiz.exe", []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"})
	f, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := winres.LoadFromEXE(f)
	if err != nil {
		t.Fatalf("reading the resources of gpuwiz.exe: %v", err)
	}

	manifest := rs.Get(winres.RT_MANIFEST, winres.ID(1), 0x409)
	if manifest == nil {
		t.Fatal("gpuwiz.exe has no application manifest (RT_MANIFEST #1)")
	}
	source, err := os.ReadFile(filepath.Join("winres", "gpuwiz.manifest"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(manifest, source) {
		t.Errorf("the manifest in gpuwiz.exe is not winres/gpuwiz.manifest: regenerate rsrc_windows_amd64.syso\n%s", manifest)
	}
	var m windowsManifest
	if err := xml.Unmarshal(manifest, &m); err != nil {
		t.Fatalf("the manifest is not XML: %v\n%s", err, manifest)
	}
	if m.Settings.ActiveCodePage != "UTF-8" {
		t.Errorf("activeCodePage %q, want UTF-8", m.Settings.ActiveCodePage)
	}
	if m.Settings.LongPathAware != "true" {
		t.Errorf("longPathAware %q, want true", m.Settings.LongPathAware)
	}
	if m.Execution.Level != "asInvoker" || m.Execution.UIAccess != "false" {
		t.Errorf("requestedExecutionLevel %+v, want asInvoker without uiAccess", m.Execution)
	}
	if len(m.SupportedOS) == 0 || m.SupportedOS[0].ID != "{8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a}" {
		t.Errorf("supportedOS %+v, want Windows 10/11", m.SupportedOS)
	}

	var raw []byte // one translation, stored under its language (0409)
	rs.WalkType(winres.RT_VERSION, func(id winres.Identifier, _ uint16, data []byte) bool {
		if id == winres.ID(1) {
			raw = data
		}
		return raw == nil
	})
	if raw == nil {
		t.Fatal("gpuwiz.exe has no version resource (RT_VERSION #1)")
	}
	vi, err := winversion.FromBytes(raw)
	if err != nil {
		t.Fatalf("the version resource does not parse: %v", err)
	}
	got := versionStrings(t, vi)
	var src struct {
		RTVersion map[string]map[string]struct {
			Info map[string]map[string]string `json:"info"`
		} `json:"RT_VERSION"`
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join("winres", "winres.json")), &src); err != nil {
		t.Fatal(err)
	}
	want := src.RTVersion["#1"]["0000"].Info["0409"]
	if len(want) == 0 {
		t.Fatal("winres/winres.json has no RT_VERSION #1 0000 info 0409")
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("version resource %s = %q, want %q (winres/winres.json)", k, got[k], v)
		}
	}
	if got["OriginalFilename"] != "gpuwiz.exe" || got["ProductName"] != "gpuwiz" || !strings.Contains(got["LegalCopyright"], "the gpuwiz authors") {
		t.Errorf("version resource: %v", got)
	}
}

// versionStrings is the en-US string table of a version resource.
func versionStrings(t *testing.T, vi *winversion.Info) map[string]string {
	t.Helper()
	b, err := vi.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Info map[string]map[string]string `json:"info"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return v.Info["0409"]
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
