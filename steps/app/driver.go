package app

import (
	"context"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/driver"
	"gpuwiz/steps/fetch"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// LookupEnv names a loopback stand-in for NVIDIA's lookup service (its base URL, serving
// /Download/API/lookupValueSearch.aspx and /services_toolkit/…/AjaxDriverService.php): the tests'
// way to ask a known service, or none (a closed port).
const LookupEnv = "GPUWIZ_NVIDIA_LOOKUP"

// DriverRequest is what `gpuwiz driver` and the wizard's driver step ask.
type DriverRequest struct {
	OS             string // "windows", "linux"; "": the simulated report's OS, else this machine's
	WindowsVersion int    // 10 or 11; 0: 10
	Studio         bool
	Channel        string // "cu128": the channel the user wants; "" none
	Offline        bool   // the embedded table only
	// Lookup replaces NVIDIA's service (tests); nil: NVIDIA's, over the network.
	Lookup driver.Lookup
	// OSRelease is the Linux /etc/os-release to read ("" the machine's).
	OSRelease string
}

// DriverCheck is the answer: the cards' choices, what every CUDA version needs, and on Linux the
// distribution's way to install the driver.
type DriverCheck struct {
	OS        string          `json:"os"`
	Windows   int             `json:"windows_version,omitempty"`
	Simulated bool            `json:"simulated,omitempty"`
	Current   string          `json:"current_driver,omitempty"` // "" no driver
	Channel   string          `json:"channel,omitempty"`
	Need      string          `json:"channel_needs,omitempty"`
	Choices   []driver.Choice `json:"choices"`
	Needs     []ChannelNeed   `json:"cuda"`
	Linux     *driver.Advice  `json:"linux,omitempty"`
}

// ChannelNeed is one CUDA version's driver need next to the installed and the chosen driver.
type ChannelNeed struct {
	matrix.DriverNeed
	CurrentOK bool `json:"current_ok"` // the installed driver runs it
	ChosenOK  bool `json:"chosen_ok"`  // the chosen driver (of the first card) runs it
	CardOK    bool `json:"card_ok"`    // its builds have kernels for every card
}

// UpdateWanted says whether a card of the check has no driver or one older than the channel needs.
func (c DriverCheck) UpdateWanted() bool {
	for _, ch := range c.Choices {
		if ch.Status == driver.StatusMissing || ch.Status == driver.StatusOld {
			return true
		}
	}
	return false
}

// CheckDriver chooses the driver for every NVIDIA card of the machine (or of the --simulate report).
func (e *Env) CheckDriver(ctx context.Context, req DriverRequest) (DriverCheck, error) {
	rep, err := e.GPUReport(gpu.WithoutReadings(ctx))
	if err != nil {
		return DriverCheck{}, err
	}
	goos := req.OS
	if goos == "" {
		goos = runtime.GOOS
		if e.Simulated() && rep.OS != "" {
			goos = rep.OS
		}
	}
	if goos != "windows" && goos != "linux" {
		return DriverCheck{}, Usagef("%s", i18n.T("driver.bad_os", i18n.D{"OS": goos}))
	}
	if req.WindowsVersion != 0 && req.WindowsVersion != 10 && req.WindowsVersion != 11 {
		return DriverCheck{}, Usagef("%s", i18n.T("driver.bad_windows", i18n.D{"Value": req.WindowsVersion}))
	}
	m, err := e.Matrix()
	if err != nil {
		return DriverCheck{}, err
	}
	needs := m.DriverNeeds(goos)
	out := DriverCheck{OS: goos, Simulated: rep.Simulated, Channel: req.Channel}
	if goos == "windows" {
		out.Windows = max(req.WindowsVersion, 10)
	}
	if req.Channel != "" {
		cuda, ok := matrix.ChannelCUDA(req.Channel)
		found := false
		for _, n := range needs {
			if ok && n.CUDA == cuda {
				out.Need, found = n.Minimum, true
			}
		}
		if !found {
			return DriverCheck{}, Usagef("%s", i18n.T("driver.bad_channel", i18n.D{"Value": req.Channel}))
		}
	}
	if rep.Available {
		out.Current = rep.DriverVersion
	}
	cards := cardsOf(rep)
	if len(cards) == 0 {
		return DriverCheck{}, Exitf(ExitIncompatible, "%s", i18n.T("driver.no_card"))
	}
	t, err := driver.EmbeddedTable()
	if err != nil {
		return DriverCheck{}, Exitf(ExitFailure, "%v", err)
	}
	dreq := driver.Request{Cards: cards, OS: goos, WindowsVersion: out.Windows, Studio: req.Studio, Current: out.Current, Need: out.Need, Channel: req.Channel}
	out.Choices = driver.Choose(dreq, t)
	if !req.Offline && goos == "windows" {
		l := req.Lookup
		if l == nil {
			l, err = nvidiaLookup()
			if err != nil {
				return DriverCheck{}, err
			}
		}
		out.Choices = driver.Resolve(ctx, l, out.Choices, dreq)
	}
	for _, n := range needs {
		cn := ChannelNeed{DriverNeed: n}
		cn.CurrentOK = driverRuns(out.Current, n)
		if d := out.Choices[0].Driver; d != nil {
			cn.ChosenOK = driverRuns(d.Version, n)
		}
		cn.CardOK = !slices.ContainsFunc(cards, func(c driver.Card) bool { return buildsNoKernelFor(n, c.ComputeCapability) })
		out.Needs = append(out.Needs, cn)
	}
	if goos == "linux" {
		osr := req.OSRelease
		if osr == "" && !e.Simulated() {
			osr = "/etc/os-release"
		}
		a := driver.LinuxAdvice(readOSRelease(osr), out.Choices)
		out.Linux = &a
	}
	return out, nil
}

func readOSRelease(path string) string {
	if path == "" {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// driverRuns is whether driver d runs the builds of n's CUDA version: from its minor-version
// compatibility minimum on, the rule the matrix judges every build by.
func driverRuns(d string, n matrix.DriverNeed) bool {
	return d != "" && n.Minimum != "" && !matrix.DriverLess(d, n.Minimum)
}

// buildsNoKernelFor is whether n's CUDA version cannot build kernels for a card of compute
// capability cc (false when either is unknown).
func buildsNoKernelFor(n matrix.DriverNeed, cc string) bool {
	return cc != "" && n.MinCap != "" && matrix.CapLess(cc, n.MinCap)
}

// DriverReach is what an installed driver runs on one OS, by the matrix's CUDA versions that can
// build kernels for the cards.
type DriverReach struct {
	Runs  []string     // the CUDA versions whose builds it runs, oldest first
	Steps []DriverStep // what newer drivers add, the least driver first
}

// DriverStep is the CUDA versions a driver of at least Driver adds.
type DriverStep struct {
	Driver string
	CUDA   []string
}

// DriverReachOf is what driver d runs on goos ("linux", "windows") by the matrix m, for cards of the
// compute capabilities caps (a CUDA version that builds no kernel for one of them is left out);
// nothing for another OS or no driver.
func DriverReachOf(m *matrix.Matrix, goos, d string, caps []string) DriverReach {
	var r DriverReach
	if d == "" || (goos != "linux" && goos != "windows") {
		return r
	}
	for _, n := range m.DriverNeeds(goos) {
		if n.Minimum == "" || slices.ContainsFunc(caps, func(cc string) bool { return buildsNoKernelFor(n, cc) }) {
			continue
		}
		if driverRuns(d, n) {
			r.Runs = append(r.Runs, n.CUDA)
			continue
		}
		i := slices.IndexFunc(r.Steps, func(s DriverStep) bool { return s.Driver == n.Minimum })
		if i < 0 {
			r.Steps = append(r.Steps, DriverStep{Driver: n.Minimum})
			i = len(r.Steps) - 1
		}
		r.Steps[i].CUDA = append(r.Steps[i].CUDA, n.CUDA)
	}
	slices.SortStableFunc(r.Steps, func(a, b DriverStep) int {
		switch {
		case matrix.DriverLess(a.Driver, b.Driver):
			return -1
		case matrix.DriverLess(b.Driver, a.Driver):
			return 1
		}
		return 0
	})
	return r
}

// cardsOf are the cards of a report: the driver's when one answers, else the PCI bus's.
func cardsOf(rep gpu.Report) []driver.Card {
	var out []driver.Card
	for _, g := range rep.GPUs {
		out = append(out, driver.Card{Name: g.Name, ComputeCapability: g.ComputeCapability})
	}
	if len(out) > 0 {
		return out
	}
	for _, a := range rep.Adapters {
		name := a.Name
		if name == "" {
			name = a.Description
		}
		out = append(out, driver.Card{Name: name, DeviceID: a.DeviceID, Architecture: a.Architecture, ComputeCapability: a.ComputeCapability})
	}
	return out
}

// nvidiaLookup is NVIDIA's service over pip's network rules (proxy variables, the Windows system
// proxy), or the stand-in LookupEnv names.
func nvidiaLookup() (driver.Lookup, error) {
	c, err := fetch.Network{}.Client()
	if err != nil {
		return nil, err
	}
	svc := driver.Service{Client: c}
	if base := strings.TrimRight(os.Getenv(LookupEnv), "/"); base != "" {
		if _, err := urls.Check(base); err != nil {
			return nil, Usagef("%s=%s: %v", LookupEnv, base, err)
		}
		svc.Client = &http.Client{Timeout: c.Timeout}
		svc.Products = base + "/Download/API/lookupValueSearch.aspx?TypeID=3"
		svc.Drivers = base + "/services_toolkit/services/com/nvidia/services/AjaxDriverService.php"
	}
	return svc, nil
}
