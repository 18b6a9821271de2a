// Package driver chooses the NVIDIA driver for a machine's cards (the choice is pure: Choose), asks
// NVIDIA's lookup service for the newest one (Lookup), and fetches, checks and starts its installer.
// It returns values: the reasons of a choice are codes the front ends word from the catalog.
package driver

import (
	"regexp"
	"strconv"
	"strings"

	"gpuwiz/matrix"
)

// Card is one NVIDIA card as the GPU probe reports it.
type Card struct {
	Name              string `json:"name"`                   // "NVIDIA GeForce GTX 1060 6GB"
	DeviceID          uint16 `json:"device_id,omitempty"`    // PCI device id (0 unknown)
	Architecture      string `json:"architecture,omitempty"` // "Pascal" ("" unknown)
	ComputeCapability string `json:"compute_capability,omitempty"`
}

// Form is a desktop or a notebook part: NVIDIA publishes a separate GeForce installer for each.
type Form string

const (
	Desktop  Form = "desktop"
	Notebook Form = "notebook"
	AnyForm  Form = "any" // one installer for both (workstation, Linux)
)

// Family is the line of drivers a card takes.
type Family string

const (
	GeForce    Family = "geforce"    // GeForce Game Ready
	Studio     Family = "studio"     // GeForce Studio (on request)
	RTX        Family = "rtx"        // NVIDIA RTX / Quadro workstation
	DataCenter Family = "datacenter" // Tesla, A100, H100 …: NVIDIA's data-centre driver channel
	LinuxRun   Family = "linux"      // Linux: the distribution's packages of NVIDIA's driver
)

// Windows OS ids of NVIDIA's lookup service (lookupValueSearch.aspx?TypeID=4, as recorded in
// ZenitH-AT/nvidia-data os-data.json: "Windows 10 64-bit" 57, "Windows 11" 135, "Linux 64-bit" 12).
const (
	OSIDWindows10 = 57
	OSIDWindows11 = 135
	OSIDLinux64   = 12
)

// Request is everything the choice depends on.
type Request struct {
	Cards          []Card
	OS             string // "windows" or "linux"
	WindowsVersion int    // 10 or 11 (0: 10); windows only
	// Chassis is what Windows says the machine is ("notebook", "desktop"; "" unknown). A card's name
	// decides first: NVIDIA names notebook parts "… Laptop GPU".
	Chassis string
	Studio  bool   // the Studio driver instead of Game Ready
	Current string // the installed driver ("" none)
	// Need is the least driver the channel the user wants needs on this OS (from the matrix), and
	// Channel that channel ("cu128"); both "" when no channel was named.
	Need, Channel string
}

// Choice is the driver for one card.
type Choice struct {
	Card   Card   `json:"card"`
	Form   Form   `json:"form"`
	Family Family `json:"family"`
	// Branch is the newest branch the card can take ("580"), "" when every branch supports it.
	Branch string `json:"branch_limit,omitempty"`
	OSID   int    `json:"os_id,omitempty"` // NVIDIA's id of the OS asked about
	// Driver is the chosen driver; nil when none is known (a data-centre card, a Studio driver
	// asked offline, a card too old for any branch gpuwiz knows).
	Driver *Release `json:"driver,omitempty"`
	From   string   `json:"from,omitempty"` // "lookup", "table", "file"
	// Status compares the installed driver with the chosen one and with the channel's need.
	Status Status   `json:"status"`
	Why    []Reason `json:"why"`
}

// Status is what the installed driver is, next to the choice.
type Status string

const (
	StatusMissing  Status = "missing"  // no driver installed
	StatusOld      Status = "old"      // older than the channel wanted needs
	StatusUpdate   Status = "update"   // runs the channel (or none was named), a newer driver exists
	StatusCurrent  Status = "current"  // the chosen driver or newer is installed
	StatusOwnPath  Status = "own_path" // data-centre card: gpuwiz names no installer
	StatusNoDriver Status = "unknown"  // nothing known to compare with
)

// Reason is one why of a choice: a code the front end words ("driver.why.<code>") with its values.
type Reason struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
}

func reason(code string, kv ...string) Reason {
	r := Reason{Code: code}
	if len(kv) > 0 {
		r.Args = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			r.Args[kv[i]] = kv[i+1]
		}
	}
	return r
}

// Choose picks, from the table t, the driver for every card of req: the family and form from the
// card's name, the branch limit from its architecture, the newest entry within that limit.
func Choose(req Request, t Table) []Choice {
	out := make([]Choice, 0, len(req.Cards))
	for _, c := range req.Cards {
		out = append(out, chooseOne(req, c, t))
	}
	return out
}

func chooseOne(req Request, c Card, t Table) Choice {
	ch := Choice{Card: c, Form: FormOf(c.Name, req.Chassis), Family: FamilyOf(c.Name, req.OS, req.Studio)}
	ch.OSID = OSID(req.OS, req.WindowsVersion)
	if ch.Form == Notebook && !isNotebookName(c.Name) {
		ch.Why = append(ch.Why, reason("notebook_chassis"))
	} else if ch.Form == Notebook {
		ch.Why = append(ch.Why, reason("notebook_name"))
	}
	if ch.Family == DataCenter {
		ch.Form = AnyForm
		ch.Status = StatusOwnPath
		ch.Why = append(ch.Why, reason("datacenter"))
		return ch
	}
	if ch.Family == RTX || ch.Family == LinuxRun {
		ch.Form = AnyForm
	}
	ch.Branch = BranchLimit(c)
	switch ch.Branch {
	case "470":
		ch.Why = append(ch.Why, reason("kepler", "Arch", orDefault(c.Architecture, "Kepler")))
	case "580":
		ch.Why = append(ch.Why, reason("branch_580", "Arch", archName(c)))
	}
	want := ch.Family
	if want == Studio {
		if r, ok := t.Newest(req.OS, Studio, ch.Form, ch.Branch); ok {
			ch.Driver, ch.From = &r, "table"
		} else {
			ch.Why = append(ch.Why, reason("no_studio_offline"))
		}
		want = GeForce
	}
	if ch.Driver == nil && ch.Family != Studio {
		if r, ok := t.Newest(req.OS, want, ch.Form, ch.Branch); ok {
			ch.Driver, ch.From = &r, "table"
		}
	}
	if ch.Driver == nil && ch.Family != Studio {
		ch.Why = append(ch.Why, reason("none_known", "Branch", ch.Branch))
	}
	ch.Status, ch.Why = status(req, ch)
	return ch
}

// status compares the installed driver with the choice and the channel's need.
func status(req Request, ch Choice) (Status, []Reason) {
	why := ch.Why
	if req.Current == "" {
		why = append(why, reason("missing"))
		if ch.Driver == nil {
			return StatusMissing, why
		}
		return StatusMissing, why
	}
	if req.Need != "" && matrix.DriverLess(req.Current, req.Need) {
		why = append(why, reason("below_channel", "Current", req.Current, "Need", req.Need, "Channel", req.Channel))
		if ch.Driver != nil && matrix.DriverLess(ch.Driver.Version, req.Need) {
			why = append(why, reason("branch_below_channel", "Version", ch.Driver.Version, "Need", req.Need, "Channel", req.Channel))
		}
		return StatusOld, why
	}
	if ch.Driver == nil {
		return StatusNoDriver, why
	}
	if matrix.DriverLess(req.Current, ch.Driver.Version) {
		why = append(why, reason("newer", "Current", req.Current, "Version", ch.Driver.Version))
		return StatusUpdate, why
	}
	why = append(why, reason("up_to_date", "Current", req.Current))
	return StatusCurrent, why
}

// OSID is NVIDIA's lookup id of the OS.
func OSID(goos string, windowsVersion int) int {
	switch {
	case goos == "linux":
		return OSIDLinux64
	case windowsVersion == 11:
		return OSIDWindows11
	}
	return OSIDWindows10
}

// Architectures whose last driver branch is R580 (NVIDIA's Unix graphics feature deprecation
// schedule; on Windows the same branch is the last for them) and Kepler's R470.
var (
	legacy580 = map[string]bool{"maxwell": true, "pascal": true, "volta": true}
	// Names of cards without a known compute capability: GTX 7xx Maxwell (750/750 Ti), 9xx, 10xx,
	// TITAN X/Xp/V, Quadro M/P/GV, Tesla M/P/V.
	legacyName = regexp.MustCompile(`(?i)\b(GTX\s*(75\d|9\d\d|10\d\d)|GT\s*10\d\d|TITAN\s*(X|Xp|V)\b|Quadro\s*(M|P|GV)\d|Tesla\s*[MPV]\d)`)
)

// BranchLimit is the newest branch a card can take: "580" for Maxwell, Pascal and Volta, "470" for
// Kepler, "" for Turing and newer.
func BranchLimit(c Card) string {
	if cc := c.ComputeCapability; cc != "" {
		switch {
		case matrix.CapLess(cc, "5.0"):
			return "470"
		case matrix.CapLess(cc, "7.5"):
			return "580"
		}
		return ""
	}
	a := strings.ToLower(c.Architecture)
	switch {
	case a == "kepler":
		return "470"
	case legacy580[a]:
		return "580"
	case a != "":
		return ""
	}
	if legacyName.MatchString(c.Name) {
		return "580"
	}
	return ""
}

func archName(c Card) string {
	if c.Architecture != "" {
		return c.Architecture
	}
	switch cc := c.ComputeCapability; {
	case strings.HasPrefix(cc, "5."):
		return "Maxwell"
	case strings.HasPrefix(cc, "6."):
		return "Pascal"
	case strings.HasPrefix(cc, "7."):
		return "Volta"
	}
	return "Maxwell/Pascal/Volta"
}

var (
	notebookName = regexp.MustCompile(`(?i)\b(laptop\s+gpu|notebook|mobile|max-q)\b`)
	// Data-centre cards: Tesla, the A/H/B/L-series compute boards, GH200/GB200 (NVIDIA's data-centre
	// driver channel, "Data Center / Tesla" on its download form).
	dataCentreName = regexp.MustCompile(`(?i)(\bTesla\b|\b(A100|A800|A30|A40|A10G?|A16|A2|H100|H200|H800|H20|GH200|B100|B200|GB200|L4|L40S?|L20)\b)`)
	// NVIDIA RTX / Quadro workstation cards.
	workstationName = regexp.MustCompile(`(?i)(\bQuadro\b|\bRTX\s+(A\d{3,4}|PRO)\b|\bRTX\s+\d{4}\s+Ada\b|^(NVIDIA\s+)?T\d{3,4}\b)`)
)

func isNotebookName(name string) bool { return notebookName.MatchString(name) }

// FormOf is notebook when the card's name says so ("… Laptop GPU", "Mobile", "Max-Q") or, on a
// card whose name says nothing, when Windows says the machine is a notebook.
func FormOf(name, chassis string) Form {
	if isNotebookName(name) || chassis == "notebook" {
		return Notebook
	}
	return Desktop
}

// FamilyOf is the line of drivers a card takes.
func FamilyOf(name, goos string, studio bool) Family {
	switch {
	case dataCentreName.MatchString(name):
		return DataCenter
	case goos == "linux":
		return LinuxRun
	case workstationName.MatchString(name):
		return RTX
	case studio:
		return Studio
	}
	return GeForce
}

// BranchOf is the branch of a driver version: "581.57" → "580", "591.44" → "590" (NVIDIA's branches
// run in steps of five: R570, R575, R580, R590 …).
func BranchOf(version string) string {
	major, _, _ := strings.Cut(version, ".")
	n := 0
	for _, r := range major {
		if r < '0' || r > '9' {
			return ""
		}
		n = n*10 + int(r-'0')
	}
	if n == 0 {
		return ""
	}
	n -= n % 5
	return strconv.Itoa(n)
}

// WithinBranch says whether version belongs to branch limit or an older one ("" no limit).
func WithinBranch(version, limit string) bool {
	if limit == "" {
		return true
	}
	b := BranchOf(version)
	return b != "" && !matrix.DriverLess(limit, b)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
