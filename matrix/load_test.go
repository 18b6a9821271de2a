package matrix

import (
	"errors"
	"fmt"
	"gpuwiz/steps/urls"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedMatrixLoads(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2.4.1", "2.6.0", "2.11.0", "2.13.0", "2.14.1", "2.15.0"} {
		if _, ok := m.Lookup("torch", want, "cpu"); !ok {
			t.Errorf("torch %s missing", want)
		}
	}
	for _, want := range []struct{ v, ch string }{{"3.0", "cu123"}, {"3.1", "cu129"}, {"3.2.0", "cu126"}, {"3.3", "cu130"}} {
		if _, ok := m.Lookup("paddle", want.v, want.ch); !ok {
			t.Errorf("paddle %s %s missing", want.v, want.ch)
		}
	}
}

func TestMalformedMatrixFilesGiveOneErrorWithTheLine(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{"unknown-key.toml", "unknown-key.toml:15: unknown key 'pythn_min' in [torch]"},
		{"duplicate-row.toml", "duplicate-row.toml:37: duplicate build: torch 2.6.0 already has channel cu126 (line 23)"},
		{"http-public-host.toml", `http-public-host.toml:26: index_url "http://download.pytorch.org/whl/cu126" uses plain http to a public host`},
		{"bad-version.toml", `bad-version.toml:14: bad torch version "2.6"`},
		{"duplicate-key.toml", "duplicate-key.toml:19: "},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "matrix", tc.file)
			_, err := LoadFile(path)
			if err == nil {
				t.Fatal("loaded without error")
			}
			// The error names the file as the user gave it, so an editor can jump to it.
			msg, want := err.Error(), path+strings.TrimPrefix(tc.want, tc.file)
			if !strings.HasPrefix(msg, want) {
				t.Errorf("error %q\nwant prefix %q", msg, want)
			}
			if n := strings.Count(msg, "\n"); n != 0 {
				t.Errorf("want one error, got %d lines:\n%s", n+1, msg)
			}
		})
	}
}

func TestLoopbackHTTPIndexIsAllowed(t *testing.T) {
	m, err := LoadFile(filepath.Join("..", "testdata", "matrix", "loopback-ok.toml"))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.Lookup("torch", "2.6", "cu126")
	if !ok || c.IndexURL != "http://127.0.0.1:8765/simple" {
		t.Fatalf("lookup: %v %+v", ok, c)
	}
}

func TestLoopbackHosts(t *testing.T) {
	for host, want := range map[string]bool{"localhost": true, "127.0.0.1": true, "127.4.5.6": true, "::1": true,
		"128.0.0.1": false, "download.pytorch.org": false, "localhost.example.com": false, "0.0.0.0": false} {
		if got := urls.IsLoopback(host); got != want {
			t.Errorf("urls.IsLoopback(%q) = %v", host, got)
		}
	}
}

// Several problems in one file: one error each, each at its own line.
func TestEveryProblemIsReported(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "matrix", "loopback-ok.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `python_max = "3.13"`, `python_max = "three"`, 1)
	s = strings.Replace(s, `http://127.0.0.1:8765/simple`, `ftp://example.com/x`, 1)
	s = strings.Replace(s, `cuda = "12.6"`, `cuda = "12.4"`, 1)
	_, err = Parse([]byte(s), "edited.toml")
	var errs interface{ Unwrap() []error }
	if !errors.As(err, &errs) || len(errs.Unwrap()) != 3 {
		t.Fatalf("want 3 errors, got %v", err)
	}
	for _, want := range []string{`edited.toml:16: bad python_max "three"`, "edited.toml:24: channel cu126 needs cuda = \"12.6\"", `edited.toml:26: index_url "ftp://example.com/x": scheme must be https`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

func TestSyntaxErrorNamesTheLine(t *testing.T) {
	_, err := Parse([]byte("schema = 1\n[[torch]\nversion = \"2.6.0\"\n"), "broken.toml")
	if err == nil || !strings.HasPrefix(err.Error(), "broken.toml:2: ") {
		t.Fatalf("got %v", err)
	}
}

// A channel can exist on one OS only: the build's os narrows the release's; naming an OS the release
// lacks, or one that does not exist, is an error at its line.
func TestBuildOSNarrowsTheRelease(t *testing.T) {
	base := `schema = 1
[[cuda]]
version = "12.9"
minor_compat_linux = "525.60.13"
minor_compat_windows = "528.33"
max_compute_cap = "12.1"
[[torch]]
version = "2.10.0"
python_min = "3.10"
python_max = "3.14"
os = %s
torchvision = "0.25.0"
  [[torch.build]]
  channel = "cu129"
  cuda = "12.9"
  index_url = "https://download.pytorch.org/whl/cu129"
  os = %s
  verified = true
`
	m, err := Parse([]byte(fmt.Sprintf(base, `["linux", "windows"]`, `["linux"]`)), "ok.toml")
	if err != nil {
		t.Fatal(err)
	}
	win := m.Select(Facts{Framework: "torch", OS: "windows", DriverVersion: "576.57", CUDAMax: "12.9", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"})
	if len(win.Candidates) != 1 || win.Candidates[0].Compatible || !strings.Contains(strings.Join(win.Candidates[0].Reasons, ";"), "has no cu129 build for Windows") {
		t.Errorf("windows: %+v", win.Candidates)
	}
	lin := m.Select(Facts{Framework: "torch", OS: "linux", DriverVersion: "575.57.08", CUDAMax: "12.9", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"})
	if lin.Recommended == nil || lin.Recommended.Channel != "cu129" {
		t.Errorf("linux: %+v", lin.Candidates)
	}
	for _, tc := range []struct{ rel, build, want string }{
		{`["linux"]`, `["windows"]`, `bad.toml:17: build cu129 of torch 2.10.0 names os "windows", which the release's os list lacks`},
		{`["linux", "windows"]`, `["macos"]`, `bad.toml:17: unknown os "macos"`},
	} {
		_, err := Parse([]byte(fmt.Sprintf(base, tc.rel, tc.build)), "bad.toml")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("os %s in %s: error %v, want prefix %q", tc.build, tc.rel, err, tc.want)
		}
	}
}

// The December 2026 refresh: channels that exist on one OS only, and the CUDA driver rows.
func TestEmbeddedMatrixOneOSChannels(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	linuxOnly := []struct{ fw, v, ch string }{
		{"torch", "2.9.1", "cu129"}, {"torch", "2.10.0", "cu129"}, {"torch", "2.11.0", "cu129"},
		{"torch", "2.13.0", "cu129"}, {"torch", "2.15.0", "cu134"},
		{"paddle", "3.3.1", "cu130"}, {"paddle", "3.4.0", "cu130"}, {"paddle", "3.4.0", "cu132"},
	}
	for _, tc := range linuxOnly {
		f := Facts{Framework: tc.fw, FrameworkVersion: tc.v, OS: "windows", DriverVersion: "600.00", CUDAMax: "13.4", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"}
		found := false
		for _, c := range m.Select(f).Candidates {
			if c.Channel != tc.ch {
				continue
			}
			found = true
			if c.Compatible || !strings.Contains(strings.Join(c.Reasons, ";"), "has no "+tc.ch+" build for Windows") {
				t.Errorf("%s %s %s on Windows: %+v", tc.fw, tc.v, tc.ch, c)
			}
		}
		if !found {
			t.Errorf("%s %s has no %s row", tc.fw, tc.v, tc.ch)
		}
		f.OS = "linux"
		for _, c := range m.Select(f).Candidates {
			if c.Channel == tc.ch && !c.Compatible {
				t.Errorf("%s %s %s on Linux: %v", tc.fw, tc.v, tc.ch, c.Reasons)
			}
		}
	}
	for _, v := range []string{"2.12.1", "2.14.1"} {
		if _, ok := m.Lookup("torch", v, "cu129"); ok {
			t.Errorf("torch %s has no cu129 build (no cu129 torchvision exists for it)", v)
		}
	}
	for v, want := range map[string][2]string{"12.8": {"570.124.06", "572.61"}, "13.0": {"580.95.05", ""}, "13.2": {"595.45.04", ""}} {
		if r, _ := m.CUDARow(v); r.FullLinux != want[0] || r.FullWindows != want[1] {
			t.Errorf("CUDA %s full-toolkit drivers %q / %q, want %q / %q", v, r.FullLinux, r.FullWindows, want[0], want[1])
		}
	}
	for _, tc := range []struct{ v, ch, cudnn string }{{"2.10.0", "cu130", "9.15.1.9"}, {"2.11.0", "cu130", "9.17.1.4"}, {"2.12.1", "cu130", "9.20.0.48"}, {"2.13.0", "cu132", "9.20.0.48"}, {"2.14.1", "cu130", "9.24.0.43"}} {
		if c, _ := m.Lookup("torch", tc.v, tc.ch); c.CUDNN != tc.cudnn {
			t.Errorf("torch %s %s cuDNN %q, want %s", tc.v, tc.ch, c.CUDNN, tc.cudnn)
		}
	}
}

// A row that is not confirmed says why in plain words; every row names a public source.
func TestEmbeddedUnverifiedRowsSayWhy(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, fw := range Frameworks() {
		for _, c := range m.Candidates(fw) {
			if !c.Verified && c.Note == "" {
				t.Errorf("%s %s %s is unverified and its note does not say why", fw, c.FrameworkVersion, c.Channel)
			}
			if c.Source == "" {
				t.Errorf("%s %s %s has no source", fw, c.FrameworkVersion, c.Channel)
			}
			for _, n := range c.NoteParts {
				if !strings.HasSuffix(n, ".") {
					t.Errorf("%s %s %s: note %q is not a sentence ending with a period", fw, c.FrameworkVersion, c.Channel, n)
				}
			}
		}
	}
	for _, r := range m.CUDA {
		if !r.Verified && r.Note == "" {
			t.Errorf("CUDA %s is unverified and its note does not say why", r.Version)
		}
	}
}

// The VC++ runtime each release needs is data: torch 2.9 and later need msvcp140 14.40
// (pytorch/pytorch PR #196987), torch 2.8 the VS 2019 runtime; rows hold up to the next one.
func TestWindowsNeedsFollowsTheRelease(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fw, v, msvcp string
		longest      int
	}{
		{"torch", "2.8.0", "14.29", 0},
		{"torch", "2.9.1+cu128", "14.40", 0},
		{"torch", "2.11.0", "14.40", 0},
		{"torch", "2.13.0", "14.40", 192},
		{"torch", "2.15.0", "14.40", 192},
		{"paddle", "3.2.0", "14.29", 0},
	} {
		r, ok := m.WindowsNeeds(c.fw, c.v)
		if !ok || r.MSVCP140 != c.msvcp || r.LongestPath != c.longest || r.Source == "" {
			t.Errorf("%s %s: %+v ok=%v, want msvcp140 %s longest %d", c.fw, c.v, r, ok, c.msvcp, c.longest)
		}
	}
	if _, ok := m.WindowsNeeds("torch", "1.0.0"); ok {
		t.Error("torch 1.0.0 has no row, yet one was found")
	}
	if got := m.OldestWindowsRuntime(); got != "14.29" {
		t.Errorf("oldest runtime %q", got)
	}
	bad := strings.Replace(string(EmbeddedTOML()), `msvcp140 = "14.40"`, `msvcp140 = "fourteen"`, 1)
	if _, err := Parse([]byte(bad), "bad.toml"); err == nil || !strings.Contains(err.Error(), "msvcp140") {
		t.Errorf("a bad msvcp140 was accepted: %v", err)
	}
}

// unverified_os: a build confirmed on Linux but not on Windows is recommended on Linux only; on Windows
// it stays a choice the notes name. Naming a system the build has no wheels for is an error.
func TestUnverifiedOSNarrowsVerification(t *testing.T) {
	base := `schema = 1
[[cuda]]
version = "12.6"
minor_compat_linux = "525.60.13"
minor_compat_windows = "528.33"
max_compute_cap = "9.0"
[[paddle]]
version = "3.3.1"
python_min = "3.9"
python_max = "3.13"
os = ["linux", "windows"]
verified = true
  [[paddle.build]]
  channel = "cu126"
  cuda = "12.6"
  index_url = "https://www.paddlepaddle.org.cn/packages/stable/cu126/"
  os = %s
  verified = true
  unverified_os = ["windows"]
  note = "The Windows build is not yet confirmed."
  [[paddle.build]]
  channel = "cpu"
  index_url = "https://www.paddlepaddle.org.cn/packages/stable/cpu/"
  verified = true
`
	m, err := Parse([]byte(fmt.Sprintf(base, `["linux", "windows"]`)), "ok.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := m.Lookup("paddle", "3.3.1", "cu126"); c.Verified {
		t.Error("a build unverified on one system is listed as unverified when no system is given")
	}
	f := Facts{Framework: "paddle", OS: "linux", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"}
	if r := m.Select(f).Recommended; r == nil || r.Channel != "cu126" || !r.Verified {
		t.Errorf("linux: %+v", r)
	}
	f.OS = "windows"
	s := m.Select(f)
	if r := s.Recommended; r == nil || r.Channel != "cpu" {
		t.Errorf("windows: recommended %+v, want the verified CPU build", r)
	}
	if c := find(t, s, "3.3.1", "cu126"); !c.Compatible || c.Verified {
		t.Errorf("windows cu126: %+v", c)
	}
	if !hasNote(s, "no verified GPU build of paddle fits this machine: the CPU build of paddle is recommended") ||
		!hasNote(s, "paddle 3.3.1 (cu126) also fits, but that build is unverified (its note says why), so it is not the default: to install it anyway, pass --framework-version 3.3.1 --channel cu126") {
		t.Errorf("windows notes %q", s.Notes)
	}
	_, err = Parse([]byte(fmt.Sprintf(base, `["linux"]`)), "bad.toml")
	if want := `bad.toml:19: build cu126 of paddle 3.3.1 lists unverified_os "windows", a system it has no wheels for`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %q", err, want)
	}
}
