package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(15, newDriverCmd) }

// driverOptions is what `gpuwiz driver` was asked (its flags) and the streams it talks on.
type driverOptions struct {
	Out, ErrOut                  io.Writer
	json, check, offline, studio bool
	download, install, silent    bool
	os, channel, file            string
	windows                      int
}

func newDriverCmd(env *Env) *cobra.Command {
	var fl driverOptions
	cmd := &cobra.Command{
		Use:     "driver",
		Short:   i18n.T("cli.driver.short"),
		Long:    i18n.T("cli.driver.long"),
		Example: "  gpuwiz driver\n  gpuwiz driver --check --os windows --windows 11 --json\n  gpuwiz driver --channel cu128 --studio\n  gpuwiz driver --os linux\n  gpuwiz driver --download\n  gpuwiz driver --install --silent\n  gpuwiz driver --install --file 581.57-desktop-win10-win11-64bit-international-dch-whql.exe", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl.Out, fl.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return driverRun(cmd.Context(), env, fl)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&fl.json, "json", false, i18n.T("cli.driver.flag.json"))
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
	return cmd
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
	out := fl.Out
	if fl.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printDriverCheck(out, res)
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
