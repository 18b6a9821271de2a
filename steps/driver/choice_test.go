package driver

import (
	"strings"
	"testing"
)

func table(t *testing.T) Table {
	t.Helper()
	tb, err := EmbeddedTable()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func codes(rs []Reason) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Code)
	}
	return strings.Join(s, ",")
}

func one(t *testing.T, req Request) Choice {
	t.Helper()
	got := Choose(req, table(t))
	if len(got) != 1 {
		t.Fatalf("%d choices for one card", len(got))
	}
	return got[0]
}

// Maxwell, Pascal and Volta cards get an R580 driver and never a newer one, however the card is
// known (compute capability, architecture, or only its name); Turing and newer take the newest.
func TestBranchLimits(t *testing.T) {
	cases := []struct {
		card   Card
		branch string
	}{
		{Card{Name: "NVIDIA GeForce GTX 1060 6GB", ComputeCapability: "6.1"}, "580"},
		{Card{Name: "NVIDIA GeForce GTX 980", Architecture: "Maxwell"}, "580"},
		{Card{Name: "NVIDIA TITAN V", ComputeCapability: "7.0"}, "580"},
		{Card{Name: "NVIDIA GeForce GTX 750 Ti"}, "580"},
		{Card{Name: "NVIDIA GeForce GTX 1650", ComputeCapability: "7.5"}, ""},
		{Card{Name: "NVIDIA GeForce RTX 3060", ComputeCapability: "8.6"}, ""},
		{Card{Name: "NVIDIA GeForce RTX 5090", Architecture: "Blackwell"}, ""},
		{Card{Name: "NVIDIA GeForce GTX 780", ComputeCapability: "3.5"}, "470"},
	}
	for _, c := range cases {
		ch := one(t, Request{Cards: []Card{c.card}, OS: "windows", Current: "456.71"})
		if ch.Branch != c.branch {
			t.Errorf("%s: branch limit %q, want %q", c.card.Name, ch.Branch, c.branch)
		}
		if c.branch == "580" {
			if ch.Driver == nil || BranchOf(ch.Driver.Version) != "580" {
				t.Errorf("%s: driver %+v, want one of the 580 branch", c.card.Name, ch.Driver)
			}
			if !strings.Contains(codes(ch.Why), "branch_580") {
				t.Errorf("%s: why %s does not name the branch limit", c.card.Name, codes(ch.Why))
			}
		}
		if c.branch == "" && (ch.Driver == nil || ch.Driver.Branch == "580") {
			t.Errorf("%s: driver %+v, want the newest branch", c.card.Name, ch.Driver)
		}
		if c.branch == "470" && ch.Driver != nil {
			t.Errorf("%s: a Kepler card got %s, which does not run it", c.card.Name, ch.Driver.Version)
		}
	}
}

// A notebook part (NVIDIA names it "… Laptop GPU") gets the notebook installer; the same chip in a
// desktop the desktop one. A card whose name says nothing takes Windows' chassis.
func TestNotebookVsDesktop(t *testing.T) {
	nb := one(t, Request{Cards: []Card{{Name: "NVIDIA GeForce RTX 4060 Laptop GPU", ComputeCapability: "8.9"}}, OS: "windows", Current: "546.33"})
	if nb.Form != Notebook || nb.Driver == nil || nb.Driver.Form != Notebook || !strings.Contains(nb.Driver.File, "-notebook-") {
		t.Errorf("RTX 4060 Laptop GPU: form %s, driver %+v", nb.Form, nb.Driver)
	}
	dt := one(t, Request{Cards: []Card{{Name: "NVIDIA GeForce RTX 4060", ComputeCapability: "8.9"}}, OS: "windows", Current: "546.33"})
	if dt.Form != Desktop || dt.Driver == nil || !strings.Contains(dt.Driver.File, "-desktop-") {
		t.Errorf("RTX 4060: form %s, driver %+v", dt.Form, dt.Driver)
	}
	ch := one(t, Request{Cards: []Card{{Name: "NVIDIA GeForce GTX 1060", ComputeCapability: "6.1"}}, OS: "windows", Chassis: "notebook", Current: "456.71"})
	if ch.Form != Notebook || ch.Driver == nil || !strings.Contains(ch.Driver.File, "-notebook-") || BranchOf(ch.Driver.Version) != "580" {
		t.Errorf("GTX 1060 in a notebook chassis: form %s, driver %+v", ch.Form, ch.Driver)
	}
	if !strings.Contains(codes(ch.Why), "notebook_chassis") {
		t.Errorf("why %s does not say the chassis decided", codes(ch.Why))
	}
	for _, n := range []string{"NVIDIA GeForce RTX 3060 Laptop GPU", "GeForce RTX 4070 Max-Q / Mobile", "NVIDIA GeForce RTX 3050 Ti Mobile"} {
		if FormOf(n, "") != Notebook {
			t.Errorf("%s: not a notebook part", n)
		}
	}
	if FormOf("NVIDIA GeForce RTX 4090", "") != Desktop {
		t.Error("RTX 4090: not a desktop part")
	}
}

// Windows 10 64-bit and Windows 11 are separate OS ids in NVIDIA's lookup (57, 135); one installer
// serves both. Linux 64-bit is 12.
func TestWindows10And11IDs(t *testing.T) {
	card := []Card{{Name: "NVIDIA GeForce RTX 3060", ComputeCapability: "8.6"}}
	w10 := one(t, Request{Cards: card, OS: "windows", WindowsVersion: 10})
	w11 := one(t, Request{Cards: card, OS: "windows", WindowsVersion: 11})
	def := one(t, Request{Cards: card, OS: "windows"})
	lin := one(t, Request{Cards: card, OS: "linux"})
	if w10.OSID != 57 || w11.OSID != 135 || def.OSID != 57 || lin.OSID != 12 {
		t.Errorf("os ids: win10 %d, win11 %d, unknown windows %d, linux %d", w10.OSID, w11.OSID, def.OSID, lin.OSID)
	}
	if w10.Driver == nil || w11.Driver == nil || w10.Driver.File != w11.Driver.File || !strings.Contains(w10.Driver.File, "win10-win11") {
		t.Errorf("one installer for both: %+v / %+v", w10.Driver, w11.Driver)
	}
	if lin.Family != LinuxRun || lin.Driver == nil || lin.Driver.OS != "linux" {
		t.Errorf("linux: family %s driver %+v", lin.Family, lin.Driver)
	}
}

// Data-centre cards are told to use their own driver channel: no GeForce installer is named.
func TestDataCentreCardsUseTheirOwnChannel(t *testing.T) {
	for _, n := range []string{"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB", "Tesla V100-PCIE-16GB", "NVIDIA L40S", "NVIDIA H200", "Tesla P40"} {
		ch := one(t, Request{Cards: []Card{{Name: n}}, OS: "windows", Current: "550.54"})
		if ch.Family != DataCenter || ch.Driver != nil || ch.Status != StatusOwnPath || codes(ch.Why) != "datacenter" {
			t.Errorf("%s: family %s driver %+v status %s why %s", n, ch.Family, ch.Driver, ch.Status, codes(ch.Why))
		}
	}
	for _, n := range []string{"NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3060 Laptop GPU", "NVIDIA GeForce GTX 1060 6GB"} {
		if FamilyOf(n, "windows", false) != GeForce {
			t.Errorf("%s: not GeForce", n)
		}
	}
	if FamilyOf("NVIDIA RTX A6000", "windows", false) != RTX || FamilyOf("Quadro P4000", "windows", false) != RTX {
		t.Error("workstation cards take the RTX / Quadro driver")
	}
}

// The installed driver against the choice and the channel wanted: missing, below the channel's
// minimum, older than the newest, current.
func TestStatus(t *testing.T) {
	card := []Card{{Name: "NVIDIA GeForce GTX 1060 6GB", ComputeCapability: "6.1"}}
	for _, c := range []struct {
		current, need string
		want          Status
	}{
		{"", "", StatusMissing},
		{"456.71", "528.33", StatusOld},
		{"456.71", "", StatusUpdate},
		{"581.57", "580", StatusCurrent},
		{"581.80", "", StatusCurrent},
	} {
		ch := one(t, Request{Cards: card, OS: "windows", Current: c.current, Need: c.need, Channel: "cu128"})
		if ch.Status != c.want {
			t.Errorf("current %q need %q: %s (%s), want %s", c.current, c.need, ch.Status, codes(ch.Why), c.want)
		}
	}
	// A Studio driver asked for with no Studio row known offline says so, and names none.
	st := one(t, Request{Cards: card, OS: "windows", Studio: true, Current: "456.71"})
	if st.Driver != nil || !strings.Contains(codes(st.Why), "no_studio_offline") {
		t.Errorf("studio offline: %+v %s", st.Driver, codes(st.Why))
	}
}

func TestBranchOf(t *testing.T) {
	for v, b := range map[string]string{"581.57": "580", "580.95.05": "580", "591.44": "590", "576.80": "575", "610.47": "610", "x": ""} {
		if got := BranchOf(v); got != b {
			t.Errorf("BranchOf(%q) = %q, want %q", v, got, b)
		}
	}
	if WithinBranch("591.44", "580") || !WithinBranch("581.80", "580") || !WithinBranch("566.36", "580") {
		t.Error("WithinBranch")
	}
}

// Every row of the embedded table reads, names its source, and its file is the one its URL serves.
func TestEmbeddedTable(t *testing.T) {
	tb := table(t)
	if len(tb.Drivers) < 6 {
		t.Fatalf("%d rows", len(tb.Drivers))
	}
	for _, r := range tb.Drivers {
		if !strings.HasSuffix(r.URL, "/"+r.File) || !strings.HasPrefix(r.URL, "https://") {
			t.Errorf("%s: url %s does not serve file %s", r.Version, r.URL, r.File)
		}
		if r.OS == "windows" && !strings.Contains(r.URL, "/"+r.Version+"/") {
			t.Errorf("%s: url %s is not of this version", r.Version, r.URL)
		}
	}
	if _, err := ParseTable([]byte("[[driver]]\nbranch = \"590\"\nfamily = \"geforce\"\nform = \"desktop\"\nos = \"windows\"\nversion = \"581.57\"\nfile = \"a.exe\"\nurl = \"https://x/a.exe\"\nsource = \"s\"\n")); err == nil {
		t.Error("a row whose version is not of its branch was accepted")
	}
}
