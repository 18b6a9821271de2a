package matrix

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

func loadEmbedded(t testing.TB) *Matrix {
	t.Helper()
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func cudaOf(t testing.TB, c Candidate) *version.Version {
	t.Helper()
	v, err := version.NewVersion(c.CUDA)
	if err != nil {
		t.Fatalf("candidate %s %s: cuda %q", c.FrameworkVersion, c.Channel, c.CUDA)
	}
	return v
}

func atLeast(t testing.TB, v, min string) bool {
	t.Helper()
	return !version.Must(version.NewVersion(v)).LessThan(version.Must(version.NewVersion(min)))
}

// Facts of real machines, from FACTS.md sections 2 and 3.
var (
	rtx5090Win  = Facts{Framework: "torch", OS: "windows", DriverVersion: "576.80", CUDAMax: "12.9", ComputeCaps: []string{"12.0"}, PythonVersion: "3.12", PythonBits: 64}
	gtx1080Win  = Facts{Framework: "torch", OS: "windows", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"6.1"}, PythonVersion: "3.11", PythonBits: 64}
	gtx1080Lin  = Facts{Framework: "torch", OS: "linux", DriverVersion: "570.133.07", CUDAMax: "12.8", ComputeCaps: []string{"6.1"}, PythonVersion: "3.11", PythonBits: 64}
	oldDriver   = Facts{Framework: "torch", OS: "windows", DriverVersion: "472.12", CUDAMax: "11.4", ComputeCaps: []string{"8.6"}, PythonVersion: "3.10", PythonBits: 64}
	h200        = Facts{Framework: "torch", OS: "linux", DriverVersion: "580.159.04", CUDAMax: "13.0", ComputeCaps: []string{"9.0"}, PythonVersion: "3.11", PythonBits: 64}
	rtx4090Win  = Facts{Framework: "torch", OS: "windows", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"8.9"}, PythonVersion: "3.12", PythonBits: 64}
	paddleWin60 = Facts{Framework: "paddle", OS: "windows", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"6.0"}, PythonVersion: "3.10", PythonBits: 64}
)

func TestRTX50NeverGetsCUDA126OrOlder(t *testing.T) {
	m := loadEmbedded(t)
	for _, f := range []Facts{rtx5090Win, {Framework: "torch", OS: "linux", DriverVersion: "580.65.06", CUDAMax: "13.0", ComputeCaps: []string{"12.0"}, PythonVersion: "3.12", PythonBits: 64}, {Framework: "paddle", OS: "windows", DriverVersion: "576.80", CUDAMax: "12.9", ComputeCaps: []string{"12.0"}, PythonVersion: "3.12", PythonBits: 64}} {
		s := m.Select(f)
		if s.Recommended == nil || s.Recommended.Channel == "cpu" {
			t.Fatalf("%s %s: no GPU build recommended: %v", f.Framework, f.OS, s.Notes)
		}
		for _, c := range s.Candidates {
			if c.Compatible && c.Channel != "cpu" && cudaOf(t, c).LessThan(version.Must(version.NewVersion("12.8"))) {
				t.Errorf("%s %s %s offered to compute capability 12.0", f.Framework, c.FrameworkVersion, c.Channel)
			}
		}
	}
}

func TestGTX1080NeverGetsCUDA128OnTorch28(t *testing.T) {
	m := loadEmbedded(t)
	for _, f := range []Facts{gtx1080Win, gtx1080Lin} {
		s := m.Select(f)
		for _, c := range s.Candidates {
			if c.Compatible && c.Channel != "cpu" && atLeast(t, c.FrameworkVersion, "2.8") && atLeast(t, c.CUDA, "12.8") {
				t.Errorf("%s: torch %s %s offered to compute capability 6.1", f.OS, c.FrameworkVersion, c.Channel)
			}
		}
		if r := s.Recommended; r == nil || r.Channel != "cu126" || r.FrameworkVersion != "2.14.1" {
			t.Errorf("%s: recommended %+v, want torch 2.14.1 cu126 (the last release with Pascal kernels)", f.OS, r)
		}
		c := find(t, s, "2.11.0", "cu128")
		if !slices.Contains(c.Reasons, "cu128 wheels of torch 2.11.0 have no kernels for compute capability 6.1") {
			t.Errorf("reasons: %q", c.Reasons)
		}
	}
}

func TestCUDA11DriverGetsOnlyCUDA118Builds(t *testing.T) {
	s := loadEmbedded(t).Select(oldDriver)
	for _, c := range s.Candidates {
		if c.Compatible && c.Channel != "cpu" && c.Channel != "cu118" {
			t.Errorf("torch %s %s offered to a CUDA 11.4 driver", c.FrameworkVersion, c.Channel)
		}
	}
	r := s.Recommended
	if r == nil || r.Channel != "cu118" || r.FrameworkVersion != "2.7.1" || !r.MinorCompat {
		t.Fatalf("recommended %+v, want torch 2.7.1 cu118 through minor-version compatibility", r)
	}
	c := find(t, s, "2.6.0", "cu126")
	if want := "driver 472.12 supports CUDA 11.4; cu126 needs driver ≥ 528.33 on Windows"; !slices.Contains(c.Reasons, want) {
		t.Errorf("reasons %q, want %q", c.Reasons, want)
	}
	// The hint names the newest verified build the update unlocks, never the unverified 2.15.0.
	if !hasNote(s, "updating the NVIDIA driver to 528.33 or newer (Windows) would unlock torch 2.14.1 on cu126") || hasNote(s, "2.15.0") {
		t.Errorf("notes: %q", s.Notes)
	}
}

func TestDriver580GetsCUDA13(t *testing.T) {
	s := loadEmbedded(t).Select(h200)
	r := s.Recommended
	// 2.15.0 fits too, but its release is unverified: the newest verified release is the default.
	if r == nil || r.CUDA != "13.0" || r.FrameworkVersion != "2.14.1" || r.MinorCompat {
		t.Fatalf("recommended %+v, want torch 2.14.1 on cu130, fully supported", r)
	}
	if !hasNote(s, "torch 2.15.0 (cu130) also fits, but that build is unverified (its note says why), so it is not the default: to install it anyway, pass --framework-version 2.15.0 --channel cu130") {
		t.Errorf("notes %q: want one offering the unverified 2.15.0", s.Notes)
	}
	if a := s.AlsoFits; a == nil || a.FrameworkVersion != "2.15.0" || a.Channel != "cu130" || a.Verified || !a.Compatible {
		t.Errorf("AlsoFits %+v: want the unverified 2.15.0 on cu130", a)
	} else if n := slices.IndexFunc(s.Notes, s.IsAlsoFitsNote); n < 0 || !strings.Contains(s.Notes[n], "2.15.0 (cu130) also fits") {
		t.Errorf("the note that offers AlsoFits is not recognised among %q", s.Notes)
	}
	// cu132 runs on a CUDA 13.0 driver only through minor-version compatibility, so cu130 wins.
	if c := find(t, s, "2.15.0", "cu132"); !c.Compatible || !c.MinorCompat {
		t.Errorf("cu132 on driver 580: %+v", c)
	}
	p := loadEmbedded(t).Select(Facts{Framework: "paddle", OS: "linux", DriverVersion: "580.159.04", CUDAMax: "13.0", ComputeCaps: []string{"9.0"}, PythonVersion: "3.11", PythonBits: 64})
	if p.Recommended == nil || p.Recommended.Channel != "cu130" {
		t.Errorf("paddle recommended %+v, want cu130", p.Recommended)
	}
}

func TestPaddleOnWindowsRefusesComputeCap60(t *testing.T) {
	m := loadEmbedded(t)
	for _, cc := range []string{"6.0", "5.2", "3.7"} {
		f := paddleWin60
		f.ComputeCaps = []string{cc}
		s := m.Select(f)
		for _, c := range s.Candidates {
			if c.Compatible && c.Channel != "cpu" {
				t.Errorf("paddle %s %s offered to compute capability %s on Windows", c.FrameworkVersion, c.Channel, cc)
			}
		}
		if s.Recommended == nil || s.Recommended.Channel != "cpu" || !hasNote(s, "no GPU build of paddle fits") {
			t.Errorf("cc %s: recommended %+v notes %q", cc, s.Recommended, s.Notes)
		}
	}
	f := paddleWin60
	f.ComputeCaps = []string{"6.1"}
	if s := m.Select(f); s.Recommended == nil || s.Recommended.Channel == "cpu" {
		t.Errorf("compute capability 6.1 on Windows should get a Paddle GPU build: %+v", s.Recommended)
	}
}

// Builds with no recorded arch list are judged by their CUDA version: CUDA 13 builds no kernels
// below compute capability 7.5 (Maxwell, Pascal and Volta were dropped), CUDA 12 none below 5.0.
func TestCUDA13BuildsAreNeverOfferedToPascalOrVolta(t *testing.T) {
	m := loadEmbedded(t)
	for _, cc := range []string{"6.1", "7.0"} {
		s := m.Select(Facts{Framework: "paddle", OS: "linux", DriverVersion: "580.95.05", CUDAMax: "13.0", ComputeCaps: []string{cc}, PythonVersion: "3.11", PythonBits: 64})
		seen := false
		for _, c := range s.Candidates {
			if !strings.HasPrefix(c.Channel, "cu13") {
				continue
			}
			seen = true
			if c.Compatible || !slices.Contains(c.Reasons, "CUDA "+c.CUDA+" builds kernels only for compute capability 7.5 and newer: "+c.Channel+" wheels of paddle "+c.FrameworkVersion+" cannot have kernels for "+cc) {
				t.Errorf("cc %s: paddle %s %s compatible=%v reasons %q", cc, c.FrameworkVersion, c.Channel, c.Compatible, c.Reasons)
			}
		}
		if !seen {
			t.Fatal("the matrix has no cu13x Paddle build to judge")
		}
		if s.Recommended == nil || strings.HasPrefix(s.Recommended.Channel, "cu13") || s.Recommended.Channel == "cpu" {
			t.Errorf("cc %s: recommended %+v, want a CUDA 12 GPU build", cc, s.Recommended)
		}
	}
	s := m.Select(Facts{Framework: "paddle", OS: "linux", DriverVersion: "580.95.05", CUDAMax: "13.0", ComputeCaps: []string{"7.5"}, PythonVersion: "3.11", PythonBits: 64})
	if s.Recommended == nil || s.Recommended.Channel != "cu130" {
		t.Errorf("a Turing card (7.5) should get Paddle's cu130: %+v", s.Recommended)
	}
}

func TestPython314NeverGetsPaddle(t *testing.T) {
	s := loadEmbedded(t).Select(Facts{Framework: "paddle", OS: "linux", DriverVersion: "580.65.06", CUDAMax: "13.0", ComputeCaps: []string{"8.6"}, PythonVersion: "3.14", PythonBits: 64})
	if s.Recommended != nil {
		t.Errorf("recommended %+v for Python 3.14", s.Recommended)
	}
	for _, c := range s.Candidates {
		if c.Compatible {
			t.Errorf("paddle %s %s offered to Python 3.14", c.FrameworkVersion, c.Channel)
		}
	}
	if c := find(t, s, "3.2.0", "cu126"); !slices.Contains(c.Reasons, "paddle 3.2.0 supports Python 3.9–3.13, not 3.14") {
		t.Errorf("reasons %q", c.Reasons)
	}
	if !hasNote(s, "not even the CPU build: paddle") {
		t.Errorf("notes %q", s.Notes)
	}
}

func TestPython32BitGetsNothing(t *testing.T) {
	m := loadEmbedded(t)
	for _, fw := range Frameworks() {
		f := rtx4090Win
		f.Framework, f.PythonVersion, f.PythonBits = fw, "3.11", 32
		s := m.Select(f)
		if s.Recommended != nil {
			t.Errorf("%s: recommended %+v for a 32-bit Python", fw, s.Recommended)
		}
		for _, c := range s.Candidates {
			if c.Compatible {
				t.Errorf("%s %s %s offered to a 32-bit Python", fw, c.FrameworkVersion, c.Channel)
			}
		}
		if !hasNote(s, "32-bit Python") {
			t.Errorf("%s notes %q: must say why", fw, s.Notes)
		}
	}
}

func TestRTX4090RunsSm86Kernels(t *testing.T) {
	s := loadEmbedded(t).Select(rtx4090Win)
	r := s.Recommended
	if r == nil || r.Channel == "cpu" {
		t.Fatalf("no GPU build for an RTX 4090: %v", s.Notes)
	}
	// cu126 wheels list 8.6, not 8.9: the 8.6 kernels run on 8.9.
	if c := find(t, s, "2.6.0", "cu126"); !c.Compatible {
		t.Errorf("torch 2.6.0 cu126 refused for 8.9: %q", c.Reasons)
	}
}

func TestPTXCoversNewerGPUOnLinux(t *testing.T) {
	f := h200
	f.ComputeCaps = []string{"12.1"}
	s := loadEmbedded(t).Select(f)
	c := find(t, s, "2.11.0", "cu130")
	if !c.Compatible {
		t.Fatalf("12.1 on cu130 (12.0 cubins): %q", c.Reasons)
	}
	// A GPU newer than every cubin runs the 12.0 PTX through JIT; an older one (11.0) cannot use newer PTX.
	f.ComputeCaps = []string{"13.0"}
	s = loadEmbedded(t).Select(f)
	if c := find(t, s, "2.11.0", "cu130"); !c.Compatible || !strings.Contains(c.Note, "PTX JIT") {
		t.Errorf("13.0 through 12.0 PTX: %+v", c)
	}
	if c := find(t, s, "2.11.0", "cu128"); c.Compatible {
		t.Errorf("cu128 of 2.11 has no PTX on Linux: %+v", c)
	}
	f.ComputeCaps = []string{"11.0"}
	s = loadEmbedded(t).Select(f)
	if c := find(t, s, "2.11.0", "cu130"); c.Compatible || !slices.Contains(c.Reasons, "cu130 wheels of torch 2.11.0 have no kernels for compute capability 11.0") {
		t.Errorf("11.0 on cu130: %+v", c)
	}
}

func TestEveryGPUMustBeCovered(t *testing.T) {
	f := rtx5090Win
	f.OS = "linux"
	f.ComputeCaps = []string{"12.0", "6.1"}
	s := loadEmbedded(t).Select(f)
	for _, c := range s.Candidates {
		if c.Compatible && c.Channel != "cpu" {
			t.Errorf("torch %s %s cannot serve both 12.0 and 6.1", c.FrameworkVersion, c.Channel)
		}
	}
	if s.Recommended == nil || s.Recommended.Channel != "cpu" {
		t.Errorf("recommended %+v", s.Recommended)
	}
}

func TestNoDriverRecommendsCPU(t *testing.T) {
	for _, f := range []Facts{{Framework: "torch", OS: "windows", PythonVersion: "3.12", PythonBits: 64}, {Framework: "paddle", OS: "linux", NoGPU: true, DriverVersion: "580.65.06", CUDAMax: "13.0"}} {
		s := loadEmbedded(t).Select(f)
		if s.Recommended == nil || s.Recommended.Channel != "cpu" {
			t.Fatalf("recommended %+v", s.Recommended)
		}
		for _, c := range s.Candidates {
			if c.Compatible != (c.Channel == "cpu") {
				t.Errorf("%s %s compatible=%v", c.FrameworkVersion, c.Channel, c.Compatible)
			}
		}
	}
	s := loadEmbedded(t).Select(Facts{Framework: "torch", OS: "windows"})
	if c := find(t, s, "2.11.0", "cu128"); !slices.Contains(c.Reasons, "no NVIDIA driver found") {
		t.Errorf("reasons %q", c.Reasons)
	}
	if want := "https://download.pytorch.org/whl/cpu"; s.Recommended.IndexURL != want || s.Recommended.Packages[0].LocalLabel != "+cpu" {
		t.Errorf("cpu build %+v", s.Recommended)
	}
}

func TestFrameworkVersionRestricts(t *testing.T) {
	f := rtx4090Win
	f.FrameworkVersion = "2.6"
	s := loadEmbedded(t).Select(f)
	for _, c := range s.Candidates {
		if !strings.HasPrefix(c.FrameworkVersion, "2.6.") {
			t.Errorf("candidate %s outside 2.6", c.FrameworkVersion)
		}
	}
	if r := s.Recommended; r == nil || r.FrameworkVersion != "2.6.0" || r.Channel != "cu126" {
		t.Errorf("recommended %+v", r)
	}
	f.FrameworkVersion = "2.99"
	if s := loadEmbedded(t).Select(f); s.Recommended != nil || !hasNote(s, "no torch release 2.99") {
		t.Errorf("%+v", s.Notes)
	}
}

func TestOrderAndDeterminism(t *testing.T) {
	m := loadEmbedded(t)
	a, _ := json.Marshal(m.Select(gtx1080Win))
	b, _ := json.Marshal(m.Select(gtx1080Win))
	if string(a) != string(b) {
		t.Fatal("two selections differ")
	}
	s := m.Select(gtx1080Win)
	if c0 := s.Candidates[0]; c0.FrameworkVersion != s.Recommended.FrameworkVersion || c0.Channel != s.Recommended.Channel {
		t.Fatal("recommended is not first")
	}
	seenIncompatible := false
	for _, c := range s.Candidates[1:] {
		if !c.Compatible {
			seenIncompatible = true
		} else if seenIncompatible {
			t.Fatalf("compatible %s %s after an incompatible one", c.FrameworkVersion, c.Channel)
		}
		if !c.Compatible && len(c.Reasons) == 0 {
			t.Errorf("%s %s rejected without a reason", c.FrameworkVersion, c.Channel)
		}
	}
}

func TestPackages(t *testing.T) {
	m := loadEmbedded(t)
	c, _ := m.Lookup("torch", "2.6", "cu126")
	want := []Package{{"torch", "2.6.0", "+cu126", false}, {"torchvision", "0.21.0", "+cu126", false}, {"torchaudio", "2.6.0", "+cu126", false}}
	if !slices.Equal(c.Packages, want) || c.IndexURL != "https://download.pytorch.org/whl/cu126" {
		t.Errorf("%+v", c)
	}
	c, _ = m.Lookup("torch", "2.12", "cu132")
	if ta := c.Packages[2]; ta.Name != "torchaudio" || ta.Version != "2.11.0" || !ta.Optional {
		t.Errorf("torchaudio on cu132: %+v", ta)
	}
	c, _ = m.Lookup("paddle", "3.2.0", "cu126")
	if !slices.Equal(c.Packages, []Package{{Name: "paddlepaddle-gpu", Version: "3.2.0"}}) || c.IndexURL != "https://www.paddlepaddle.org.cn/packages/stable/cu126/" {
		t.Errorf("%+v", c)
	}
	c, _ = m.Lookup("paddle", "3.2", "cpu") // "3.2" is the newest 3.2.x
	if !slices.Equal(c.Packages, []Package{{Name: "paddlepaddle", Version: "3.2.2"}}) || c.IndexURL != "https://www.paddlepaddle.org.cn/packages/stable/cpu/" {
		t.Errorf("%+v", c)
	}
	// test-infra release/2.6 built torch and torchvision for Python 3.9 to 3.13 (pytorch/vision #8730).
	if c, _ := m.Lookup("torch", "2.6", "cu126"); !c.Verified || c.PythonMax != "3.13" {
		t.Errorf("torch 2.6 cu126 is confirmed up to Python 3.13: %+v", c)
	}
	if got := len(m.Candidates("paddle")); got != 30 {
		t.Errorf("paddle builds: %d", got)
	}
}

func find(t testing.TB, s Selection, v, ch string) Candidate {
	t.Helper()
	for _, c := range s.Candidates {
		if c.FrameworkVersion == v && c.Channel == ch {
			return c
		}
	}
	t.Fatalf("no candidate %s %s", v, ch)
	return Candidate{}
}

func hasNote(s Selection, sub string) bool {
	for _, n := range s.Notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

// Paddle 3.1's cu129 wheels were seen without sm_120 kernels: an RTX 50 card is refused them, with the
// reason, and still gets a Paddle GPU build that can run.
func TestPaddle31HasNoKernelsForRTX50(t *testing.T) {
	for _, goos := range []string{"windows", "linux"} {
		s := loadEmbedded(t).Select(Facts{Framework: "paddle", OS: goos, DriverVersion: "576.02", CUDAMax: "12.9", ComputeCaps: []string{"12.0"}, PythonVersion: "3.12", PythonBits: 64})
		c := find(t, s, "3.1.1", "cu129")
		if c.Compatible || !strings.Contains(strings.Join(c.Reasons, " "), "cu129 wheels of paddle 3.1.1 have no kernels for compute capability 12.0 (they stop at 9.0)") {
			t.Errorf("%s: 3.1.1 cu129 for an RTX 50: %+v", goos, c)
		}
		if r := s.Recommended; r == nil || r.Channel == "cpu" {
			t.Errorf("%s: want a Paddle GPU build for an RTX 50, got %+v", goos, r)
		}
		if s := loadEmbedded(t).Select(Facts{Framework: "paddle", OS: goos, DriverVersion: "576.02", CUDAMax: "12.9", ComputeCaps: []string{"8.9"}, PythonVersion: "3.12", PythonBits: 64}); !find(t, s, "3.1.1", "cu129").Compatible {
			t.Errorf("%s: an RTX 40 lost 3.1.1 cu129", goos)
		}
	}
}

// With no GPU build to offer, the CPU build follows the same rule as GPU builds: a verified release
// first, the unverified newer one named in a note.
func TestCPUFallbackPrefersAVerifiedRelease(t *testing.T) {
	s := loadEmbedded(t).Select(Facts{Framework: "torch", OS: "linux", NoGPU: true, PythonVersion: "3.12", PythonBits: 64})
	r := s.Recommended
	if r == nil || r.Channel != "cpu" || !r.Verified {
		t.Fatalf("want a verified CPU build, got %+v", r)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "2.15.0 (cpu) also fits, but that build is unverified") {
		t.Errorf("no note names the newer unverified release: %q", s.Notes)
	}
	if a := s.AlsoFits; a == nil || a.FrameworkVersion != "2.15.0" || a.Channel != "cpu" {
		t.Errorf("AlsoFits %+v: want the unverified 2.15.0 CPU build", a)
	}
}

// A card known from its PCI id with no driver yet: the CPU build is what works now, every GPU build
// says the driver it needs, and the selection names the build a driver would unlock and that driver.
func TestCardWithoutDriverSaysWhatADriverWouldUnlock(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	sel := m.Select(Facts{Framework: "torch", OS: "windows", PythonVersion: "3.12", ComputeCaps: []string{"8.6"}, DriverMissing: true})
	if sel.Recommended == nil || sel.Recommended.Channel != "cpu" {
		t.Fatalf("recommended %+v", sel.Recommended)
	}
	if sel.WithDriver == nil || sel.WithDriver.Channel == "cpu" || sel.DriverNeeded == "" {
		t.Fatalf("with a driver: %+v, needs %q", sel.WithDriver, sel.DriverNeeded)
	}
	row, _ := m.CUDARow(sel.WithDriver.CUDA)
	want := row.FullWindows
	if want == "" {
		want = row.MinorCompatWindows
	}
	if sel.DriverNeeded != want {
		t.Errorf("driver %q, want %q (CUDA %s)", sel.DriverNeeded, want, sel.WithDriver.CUDA)
	}
	notes := strings.Join(sel.Notes, "\n")
	for _, w := range []string{"No NVIDIA driver is installed yet", sel.DriverNeeded, "https://www.nvidia.com/Download/index.aspx", sel.WithDriver.FrameworkVersion + " " + sel.WithDriver.Channel} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Contains(notes, "a compute capability was given but no driver") {
		t.Errorf("the flag-only note appears:\n%s", notes)
	}
	for _, c := range sel.Candidates {
		if c.Channel != "cpu" && c.Compatible {
			t.Errorf("%s %s compatible without a driver", c.FrameworkVersion, c.Channel)
		}
	}
	// A Pascal card (6.1) is never offered a build without its kernels, driver or not.
	sel = m.Select(Facts{Framework: "torch", OS: "windows", PythonVersion: "3.12", ComputeCaps: []string{"6.1"}, DriverMissing: true})
	if sel.WithDriver == nil {
		t.Fatal("no build for a GTX 1080 with a driver")
	}
	if r, ok := m.Lookup("torch", sel.WithDriver.FrameworkVersion, sel.WithDriver.Channel); ok && !strings.Contains(strings.Join(r.OS, ","), "windows") {
		t.Errorf("%+v", r)
	}
}
