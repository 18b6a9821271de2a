package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

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
		if fl.json {
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
	if !fl.json {
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
			if fl.json {
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
	if fl.json {
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	if exit != 0 {
		return Silent(exit)
	}
	return nil
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
