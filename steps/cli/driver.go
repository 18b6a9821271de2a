package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

func init() { register(15, newDriverCmd) }

// driverOptions is what `gpuwiz driver` was asked (its flags) and the streams it talks on.
type driverOptions struct {
	streams
	check, offline, studio    bool
	download, install, silent bool
	os, channel, file         string
	windows                   int
}

func newDriverCmd(env *Env) *cobra.Command {
	return newCommand(env, command[driverOptions]{
		use:     "driver",
		short:   i18n.T("cli.driver.short"),
		long:    i18n.T("cli.driver.long"),
		example: "  gpuwiz driver\n  gpuwiz driver --check --os windows --windows 11 --json\n  gpuwiz driver --channel cu128 --studio\n  gpuwiz driver --os linux\n  gpuwiz driver --download\n  gpuwiz driver --install --silent\n  gpuwiz driver --install --file 581.57-desktop-win10-win11-64bit-international-dch-whql.exe", //i18n:raw commands
		json:    i18n.T("cli.driver.flag.json"),
		flags: func(cmd *cobra.Command, fl *driverOptions) {
			f := cmd.Flags()
			f.BoolVar(&fl.check, "check", false, i18n.T("cli.driver.flag.check"))
			f.StringVar(&fl.os, "os", "", i18n.T("cli.driver.flag.os"))
			f.IntVar(&fl.windows, "windows", 0, i18n.T("cli.driver.flag.windows"))
			f.BoolVar(&fl.studio, "studio", false, i18n.T("cli.driver.flag.studio"))
			f.StringVar(&fl.channel, "channel", "", i18n.T("cli.driver.flag.channel"))
			f.BoolVar(&fl.offline, "offline", false, i18n.T("cli.driver.flag.offline"))
			f.BoolVar(&fl.download, "download", false, i18n.T("cli.driver.flag.download"))
			f.BoolVar(&fl.install, "install", false, i18n.T("cli.driver.flag.install"))
			f.StringVar(&fl.file, "file", "", i18n.T("cli.driver.flag.file"))
			f.BoolVar(&fl.silent, "silent", false, i18n.T("cli.driver.flag.silent"))
		},
		run: driverRun,
	})
}

// driverRun checks the driver for each card, or with --download, --install or --file acts on it.
func driverRun(ctx context.Context, env *Env, fl driverOptions) error {
	req := app.DriverRequest{OS: fl.os, WindowsVersion: fl.windows, Studio: fl.studio, Channel: fl.channel, Offline: fl.offline}
	if fl.download || fl.install || fl.file != "" {
		return driverActRun(ctx, env, fl, req)
	}
	res, err := env.CheckDriver(ctx, req)
	if err != nil {
		return err
	}
	if err := show(fl.streams, res, printDriverCheck); err != nil {
		return err
	}
	if fl.check && res.UpdateWanted() {
		return Silent(ExitIncompatible)
	}
	return nil
}

// DriverFamily, DriverForm, DriverStatus and DriverFrom word the values of a choice.
func DriverFamily(f app.CardFamily) string {
	return driverFamilies.Say(f, i18n.T("driver.family.geforce"))
}

var driverFamilies = i18n.Words[app.CardFamily]{
	app.FamilyStudio:     func() string { return i18n.T("driver.family.studio") },
	app.FamilyRTX:        func() string { return i18n.T("driver.family.rtx") },
	app.FamilyDataCenter: func() string { return i18n.T("driver.family.datacenter") },
	app.FamilyLinuxRun:   func() string { return i18n.T("driver.family.linux") },
}

func DriverForm(f app.CardForm) string { return driverForms.Say(f, i18n.T("driver.form.desktop")) }

var driverForms = i18n.Words[app.CardForm]{
	app.FormNotebook: func() string { return i18n.T("driver.form.notebook") },
	app.FormAny:      func() string { return i18n.T("driver.form.any") },
}

func DriverStatus(s app.DriverState) string {
	return driverStates.Say(s, i18n.T("driver.status.unknown"))
}

var driverStates = i18n.Words[app.DriverState]{
	app.DriverStateMissing: func() string { return i18n.T("driver.status.missing") },
	app.DriverStateOld:     func() string { return i18n.T("driver.status.old") },
	app.DriverStateUpdate:  func() string { return i18n.T("driver.status.update") },
	app.DriverStateCurrent: func() string { return i18n.T("driver.status.current") },
	app.DriverStateOwnPath: func() string { return i18n.T("driver.status.own_path") },
}

func DriverFrom(from string) string { return driverFroms.Say(from, i18n.T("driver.from.table")) }

var driverFroms = i18n.Words[string]{
	"lookup": func() string { return i18n.T("driver.from.lookup") },
	"file":   func() string { return i18n.T("driver.from.file") },
}

func printDriverCheck(w io.Writer, c app.DriverCheck) {
	cur := c.Current
	if cur == "" {
		cur = i18n.T("driver.none_installed")
	}
	osName := "Linux"
	if c.OS == "windows" {
		osName = fmt.Sprintf("Windows %d", c.Windows)
	}
	fmt.Fprintln(w, i18n.T("driver.title", i18n.D{"OS": osName, "Current": cur}))
	for _, ch := range c.Choices {
		fmt.Fprintln(w)
		fmt.Fprintln(w, i18n.T("driver.card", i18n.D{"Name": ch.Card.Name, "Family": DriverFamily(ch.Family), "Form": DriverForm(ch.Form)}))
		if d := ch.Driver; d != nil {
			from := DriverFrom(ch.From)
			fmt.Fprintln(w, "  "+i18n.T("driver.chosen", i18n.D{"Version": d.Version, "From": from}))
			if c.OS == "windows" {
				fmt.Fprintln(w, "    "+d.File)
				fmt.Fprintln(w, "    "+d.URL)
			}
		}
		fmt.Fprintln(w, "  "+DriverStatus(ch.Status))
		for _, r := range ch.Why {
			fmt.Fprintln(w, "  - "+r.Words())
		}
	}
	if a := c.Linux; a != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, LinuxAdviceText(*a))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T("driver.cuda_title"))
	var rows []app.ChannelNeed
	rows = append(rows, c.Needs...)
	var tw table
	tw.row("CUDA", i18n.T("driver.col.minimum"), i18n.T("driver.col.now"), i18n.T("driver.col.after"))
	for _, n := range rows {
		yes := func(ok bool) string {
			if ok {
				return i18n.T("driver.yes")
			}
			return i18n.T("driver.no")
		}
		after := yes(n.ChosenOK)
		if !n.CardOK {
			after = i18n.T("driver.no_kernels")
		}
		tw.row(n.CUDA, n.Minimum, yes(n.CurrentOK && n.CardOK), after)
	}
	tw.write(w)
}

// LinuxAdviceText is the distribution's way in words, the commands indented to copy.
func LinuxAdviceText(a app.LinuxDriverAdvice) string {
	var b strings.Builder
	name := a.Name
	if name == "" {
		name = i18n.T("driver.linux.unknown_distro")
	}
	b.WriteString(i18n.T("driver.linux.never", i18n.D{"Distro": name}))
	if a.Branch != "" {
		b.WriteString("\n" + i18n.T("driver.linux.branch", i18n.D{"Branch": a.Branch, "Version": a.Version}))
	} else if a.Version != "" {
		b.WriteString("\n" + i18n.T("driver.linux.version", i18n.D{"Version": a.Version}))
	}
	if len(a.Commands) == 0 {
		b.WriteString("\n" + i18n.T("driver.linux.unknown"))
	}
	for _, c := range a.Commands {
		b.WriteString("\n    " + c)
	}
	b.WriteString("\n" + i18n.T("driver.linux.source", i18n.D{"Source": a.Source}))
	return b.String()
}

// driverActReport is the JSON of --download, --install and --file.
type driverActReport struct {
	Check   app.DriverCheck    `json:"check"`
	File    string             `json:"file,omitempty"`
	Version string             `json:"version,omitempty"`
	URL     string             `json:"url,omitempty"`
	Result  *app.DriverResult  `json:"result,omitempty"`
	Failure *app.DriverFailure `json:"failure,omitempty"`
}

// driverActRun downloads the chosen installer (and with --install, or an installer the user fetched
// with --file, checks and runs it), saying what it does as it goes.
func driverActRun(ctx context.Context, env *Env, fl driverOptions, req app.DriverRequest) error {
	out := fl.Out
	areq := app.DriverActRequest{Check: req, Install: fl.install || fl.file != "", File: fl.file, Silent: fl.silent}
	s, err := env.PlanDriver(ctx, areq)
	var f *app.DriverFailure
	if errors.As(err, &f) {
		rep := driverActReport{Failure: f}
		if s != nil {
			rep.Check = s.Check
		}
		if fl.JSON {
			return writeDriverJSON(out, rep, f.Exit)
		}
		if s != nil && f.Code != app.DriverFailRebootPending {
			printDriverCheck(out, s.Check)
			fmt.Fprintln(out)
		}
		fmt.Fprintln(fl.ErrOut, i18n.Said(DriverFailureText(f, s)))
		return Silent(f.Exit)
	}
	if err != nil {
		return err
	}
	rep := driverActReport{Check: s.Check, File: s.Release.File, Version: s.Release.Version, URL: s.Release.URL}
	if !fl.JSON {
		card := s.Choice.Card.Name
		fmt.Fprintln(out, i18n.T("driver.run.plan", i18n.D{"Version": orText(s.Release.Version, "?"), "Card": card, "File": s.Release.File}))
		if s.Have > 0 {
			fmt.Fprintln(out, "  "+i18n.T("driver.run.resume", i18n.D{"MB": mb(s.Have)}))
		}
	}
	events := make(chan app.DriverEvent, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		bar := &byteProgress{w: out}
		for ev := range events {
			if fl.JSON {
				continue
			}
			switch {
			case ev.Step == "download" && ev.State == "" && ev.Total > 0:
				bar.update(ev.Done, ev.Total)
			case ev.Step == "install" && ev.State == app.StepRunning:
				if fl.silent {
					fmt.Fprintln(out, i18n.T("driver.run.starting_silent"))
				} else {
					fmt.Fprintln(out, i18n.T("driver.run.starting"))
				}
			}
		}
	}()
	res := s.Run(ctx, events)
	close(events)
	<-done
	rep.Result = &res
	if fl.JSON {
		rep.Failure = res.Failure
		return writeDriverJSON(out, rep, res.Exit)
	}
	if res.Downloaded {
		fmt.Fprintln(out, "✓ "+i18n.T("driver.run.downloaded", i18n.D{"Path": res.Path, "Fetched": mb(res.Fetched), "Reused": mb(res.Reused)}))
	}
	if res.Checked {
		fmt.Fprintln(out, "✓ "+i18n.T("driver.run.checked"))
	}
	if res.Failure != nil {
		fmt.Fprintln(fl.ErrOut, i18n.Said(DriverFailureText(res.Failure, s)))
		return Silent(res.Exit)
	}
	switch {
	case !areq.Install:
		fmt.Fprintln(out, i18n.T("driver.run.download_only", i18n.D{"Path": res.Path}))
	case res.Restart:
		fmt.Fprintln(out, "✓ "+i18n.T("driver.run.installed", i18n.D{"Version": s.Release.Version, "Code": res.ExitCode}))
		fmt.Fprintln(out, i18n.T("driver.run.restart"))
	default:
		fmt.Fprintln(out, "✓ "+i18n.T("driver.run.installed", i18n.D{"Version": s.Release.Version, "Code": res.ExitCode}))
		fmt.Fprintln(out, i18n.T("driver.run.next"))
	}
	return nil
}

func writeDriverJSON(w io.Writer, rep driverActReport, exit int) error {
	if err := writeJSON(w, rep); err != nil {
		return err
	}
	return endWith(exit)
}

func mb(n int64) string { return fmt.Sprintf("%.1f", float64(n)/1e6) }

// DriverFailureText words why a driver session stopped, with the next step. s may be nil.
func DriverFailureText(f *app.DriverFailure, s *app.DriverSession) string {
	var file, link, path, dir string
	if s != nil {
		file, link, path = s.Release.File, s.Release.URL, s.Path
		dir = filepath.Dir(s.Path)
	}
	host := ""
	if u, err := url.Parse(link); err == nil {
		host = u.Host
	}
	if w, ok := words.DriverFailure(f.Code); ok {
		return w
	}
	switch f.Code {
	case app.DriverFailLinux:
		if s != nil && s.Check.Linux != nil {
			return i18n.T("driver.fail.linux") + "\n" + LinuxAdviceText(*s.Check.Linux)
		}
		return i18n.T("driver.fail.linux")
	case app.DriverFailRefused:
		if s != nil && s.Release.URL != "" {
			return f.Refusal.Words() + " " + i18n.T("driver.fail.refused_cache", i18n.D{"URL": link})
		}
		return f.Refusal.Words() + " " + i18n.T("driver.fail.refused_file")
	case app.DriverFailNotWindows:
		return i18n.T("driver.fail.not_windows")
	case app.DriverFailNoNetwork:
		return i18n.T("driver.fail.no_network", i18n.D{"Host": host, "URL": link, "File": file})
	case app.DriverFailDownload:
		return i18n.T("driver.fail.download", i18n.D{"Err": f.Detail, "Dir": dir})
	case app.DriverFailExitCode:
		return i18n.T("driver.fail.exit_code", i18n.D{"Code": f.ExitCode, "Path": path})
	case app.DriverFailStart:
		return i18n.T("driver.fail.start", i18n.D{"Err": f.Detail, "Path": path})
	}
	return f.Code
}
