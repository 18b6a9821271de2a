package install

import (
	"strconv"

	"gpuwiz/steps/pipcmd"
)

// PipArgs is one pip command of a plan, typed: what a stage, install or uninstall step (and the
// freeze of the snapshot and lock steps) asks pip for, and from where. The engine starts pip from
// it through pipArgv, the one function that makes pip's arguments; a step's Argv and Offline are
// that function's rendering, kept for the plan's shown commands and --json, and nothing reads
// them back.
type PipArgs struct {
	Sub string // "download", "install", "uninstall", "freeze"

	// Where the wheels come from.
	IndexURL       string   // --index-url: the channel's index, the mirror (the dependencies' index) or a test index
	ExtraIndexURLs []string // --extra-index-url
	FindLinks      []string // --find-links: a flat page of the framework's wheels, or the stage folder
	NoIndex        bool     // --no-index: the find-links pages alone

	// What pip takes.
	Pins         []string // exact requirements, local label included: "torch==2.6.0+cu126"
	Optional     []string // pins of optional packages, after Pins: dropped when they were not staged
	Requirements []string // requirement strings as the user gave them (gpuwiz add)
	Wheels       []string // wheel files, URLs or project folders, taken from where they are
	ReqFiles     []string // -r FILE
	Constraints  []string // -c FILE
	Dists        []string // the dist names an uninstall removes

	// How.
	Dest            string // -d: download into this folder
	NoDeps          bool
	NoCompile       bool
	Progress        string // --progress-bar's value; "" for none
	All             bool   // freeze --all
	Upgrade         string // --upgrade NAME: pip's own upgrade
	Retries         int    // --retries, when > 0
	Timeout         int    // --timeout in seconds, when > 0
	DryRun          bool   // install --dry-run
	IgnoreInstalled bool
	NoCacheDir      bool
	Report          string // --report FILE
	Quiet           bool
}

// clone is a copy whose lists the copy's changes do not reach.
func (a *PipArgs) clone() *PipArgs {
	if a == nil {
		return nil
	}
	c := *a
	for _, l := range []*[]string{&c.ExtraIndexURLs, &c.FindLinks, &c.Pins, &c.Optional, &c.Requirements, &c.Wheels, &c.ReqFiles, &c.Constraints, &c.Dists} {
		if *l != nil {
			*l = append([]string(nil), (*l)...)
		}
	}
	return &c
}

// pipArgv renders a as pip's argv, run by pip (the venv's own, or gpuwiz's against the venv):
// the one place a typed pip command becomes arguments.
func pipArgv(pip pipcmd.Pip, a PipArgs) []string {
	out := []string{a.Sub}
	flag := func(on bool, f string) {
		if on {
			out = append(out, f)
		}
	}
	value := func(f, v string) {
		if v != "" {
			out = append(out, f, v)
		}
	}
	flag(a.DryRun, "--dry-run")
	flag(a.IgnoreInstalled, "--ignore-installed")
	flag(a.NoCacheDir, "--no-cache-dir")
	value("--report", a.Report)
	flag(a.Quiet, "--quiet")
	out = append(out, "--no-input", "--disable-pip-version-check")
	flag(a.All, "--all")
	flag(a.Sub == "uninstall", "-y")
	value("--upgrade", a.Upgrade)
	if a.Retries > 0 {
		out = append(out, "--retries", strconv.Itoa(a.Retries))
	}
	if a.Timeout > 0 {
		out = append(out, "--timeout", strconv.Itoa(a.Timeout))
	}
	value("--progress-bar", a.Progress)
	flag(a.NoCompile, "--no-compile")
	flag(a.NoDeps, "--no-deps")
	flag(a.NoIndex, "--no-index")
	for _, l := range a.FindLinks {
		out = append(out, "--find-links", l)
	}
	value("--index-url", a.IndexURL)
	for _, u := range a.ExtraIndexURLs {
		out = append(out, "--extra-index-url", u)
	}
	value("-d", a.Dest)
	for _, c := range a.Constraints {
		out = append(out, "-c", c)
	}
	for _, r := range a.ReqFiles {
		out = append(out, "-r", r)
	}
	out = append(out, a.Pins...)
	out = append(out, a.Optional...)
	out = append(out, a.Requirements...)
	out = append(out, a.Wheels...)
	out = append(out, a.Dists...)
	return pip.Argv(out...)
}

// indexes are the package indexes a names, in the order pip reads them.
func (a PipArgs) indexes() []string {
	var out []string
	if a.IndexURL != "" {
		out = append(out, a.IndexURL)
	}
	return append(out, a.ExtraIndexURLs...)
}
