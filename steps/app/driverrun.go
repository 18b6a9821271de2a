package app

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/driver"
	"gpuwiz/steps/fetch"
)

// DriverActRequest asks the driver session to fetch the chosen installer, and with Install to check
// and start it.
type DriverActRequest struct {
	Check   DriverRequest
	Install bool   // download if needed, check, run; false: download only
	File    string // an installer the user fetched: checked the same way, then run; nothing downloaded
	Silent  bool   // -s -noreboot: no NVIDIA screens (fleets)
	// CacheDir holds the downloads ("" driver.CacheDir()).
	CacheDir string
	System   DriverSystem
}

// DriverSystem is what the session asks of Windows; nil fields are the machine's own
// (WinVerifyTrust, the elevated start, the registry's pending restart, resume.json in the config
// dir). Tests give stand-ins for what only Windows has.
type DriverSystem struct {
	Verifier      driver.Verifier
	Runner        driver.Runner
	RebootPending func() bool
	ResumePath    string
	Network       fetch.Network
	Retries       int // of the download, fetch's meaning (0: pip's 5; -1 none)
}

// Failure codes of a driver session (DriverFailure.Code): driver.Fail*, which the front ends word
// ("driver.fail.<code>") with the next step.
const (
	DriverFailLinux         = driver.FailLinux
	DriverFailNotWindows    = driver.FailNotWindows
	DriverFailNoDriver      = driver.FailNoDriver
	DriverFailOwnPath       = driver.FailOwnPath
	DriverFailRebootPending = driver.FailRebootPending
	DriverFailNoNetwork     = driver.FailNoNetwork
	DriverFailDownload      = driver.FailDownload
	DriverFailRefused       = driver.FailRefused
	DriverFailUAC           = driver.FailUAC
	DriverFailExitCode      = driver.FailExitCode
	DriverFailStart         = driver.FailStart
	DriverFailCancelled     = driver.FailCancelled
)

// DriverFailure is why a driver session stopped, as values the front end words.
type DriverFailure struct {
	Code     string          `json:"code"`
	Refusal  *driver.Refusal `json:"refusal,omitempty"`
	ExitCode int             `json:"installer_exit_code,omitempty"`
	Detail   string          `json:"detail,omitempty"` // the system's error, for the log
	Exit     int             `json:"-"`
}

func (f *DriverFailure) Error() string { return "driver: " + f.Code + " " + f.Detail } //i18n:raw for logs; front ends word the code

// DriverSession is the chosen installer, ready to fetch and run.
type DriverSession struct {
	Check   DriverCheck
	Choice  driver.Choice  // the card acted for
	Release driver.Release // the installer: the choice's, or the user's file
	Path    string         // where the installer is (or will be, once downloaded)
	Args    []string       // the installer's arguments
	Have    int64          // bytes already in the cache from an earlier, interrupted download

	req DriverActRequest
}

// DriverEvent is one report of a running driver session: a step's state or the download's numbers.
type DriverEvent struct {
	Step  string // "download", "check", "install"
	State string // StepRunning, StepDone, StepSkipped, StepFailed; "" for progress
	Done  int64
	Total int64
	Rate  float64 // bytes per second, 0 unknown
	ETA   time.Duration
}

// Step states of DriverEvent.State.
const (
	StepRunning = "running"
	StepDone    = "done"
	StepSkipped = "skipped"
	StepFailed  = "failed"
)

// DriverResult is how a driver session ended.
type DriverResult struct {
	Version    string         `json:"version"`
	Path       string         `json:"path"`
	Fetched    int64          `json:"fetched_bytes"`
	Reused     int64          `json:"reused_bytes"`
	Downloaded bool           `json:"downloaded"`
	Checked    bool           `json:"checked"`
	Ran        bool           `json:"ran"`
	Args       []string       `json:"args,omitempty"`
	ExitCode   int            `json:"installer_exit_code"`
	Restart    bool           `json:"restart_required"`
	ResumeFile string         `json:"resume_file,omitempty"`
	Failure    *DriverFailure `json:"failure,omitempty"`
	Exit       int            `json:"-"`
}

func (s *DriverSession) fail(code string, exit int) *DriverFailure {
	return &DriverFailure{Code: code, Exit: exit}
}

// PlanDriver checks the machine (CheckDriver) and picks the installer to fetch or the user's file
// to run. A session that cannot go on is a *DriverFailure (with the check, for the front end to
// show the choice and the Linux advice).
func (e *Env) PlanDriver(ctx context.Context, req DriverActRequest) (*DriverSession, error) {
	chk, err := e.CheckDriver(ctx, req.Check)
	if err != nil {
		return nil, err
	}
	s := &DriverSession{Check: chk, req: req, Args: driver.InstallArgs(req.Silent)}
	if req.CacheDir == "" {
		s.req.CacheDir = driver.CacheDir()
	}
	if req.System.ResumePath == "" {
		s.req.System.ResumePath = ResumePath()
	}
	if chk.OS == "linux" {
		// Neither fetched nor installed: the distribution's packages are the way. The choice stays
		// in the session, for the front end to say what that driver would add.
		for _, ch := range chk.Choices {
			if ch.Driver != nil {
				s.Choice, s.Release = ch, *ch.Driver
				break
			}
		}
		return s, s.fail(DriverFailLinux, ExitIncompatible)
	}
	if req.Install && runtime.GOOS != "windows" && req.System.Runner == nil {
		return s, s.fail(DriverFailNotWindows, ExitUsage)
	}
	if req.File != "" {
		abs, err := filepath.Abs(req.File)
		if err != nil {
			return s, Usagef("--file %s: %v", req.File, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return s, &DriverFailure{Code: DriverFailRefused, Refusal: &driver.Refusal{Code: "not_found", Detail: abs}, Exit: ExitUsage}
		}
		s.Path = abs
		s.Release = driver.Release{File: filepath.Base(abs), Version: versionOfFile(filepath.Base(abs)), OS: "windows"}
		if len(chk.Choices) > 0 {
			s.Choice = chk.Choices[0]
		}
	} else {
		found := false
		for _, ch := range chk.Choices {
			if ch.Driver != nil && ch.Status != driver.StatusOwnPath {
				s.Choice, s.Release, found = ch, *ch.Driver, true
				break
			}
		}
		if !found {
			code := DriverFailNoDriver
			if len(chk.Choices) > 0 && chk.Choices[0].Status == driver.StatusOwnPath {
				code = DriverFailOwnPath
			}
			return s, s.fail(code, ExitIncompatible)
		}
		s.Path = filepath.Join(s.req.CacheDir, s.Release.File)
		if fi, err := os.Stat(s.Path + fetch.PartSuffix); err == nil {
			s.Have = fi.Size()
		}
	}
	if req.Install && s.rebootPending() {
		return s, s.fail(DriverFailRebootPending, ExitFailure)
	}
	return s, nil
}

func (s *DriverSession) rebootPending() bool {
	if f := s.req.System.RebootPending; f != nil {
		return f()
	}
	return driver.RebootPending() || restartPending(s.req.System.ResumePath, driver.BootTime())
}

// versionOfFile reads NVIDIA's version from an installer's name ("581.57-desktop-…exe" → "581.57");
// "" when the name does not start with one.
func versionOfFile(name string) string {
	v, _, _ := strings.Cut(name, "-")
	if matrix.ValidateDriverVersion(v) != nil {
		return ""
	}
	return v
}

// Run downloads the installer (resuming a partial download), and for an install checks it and
// starts it, waiting for its exit code. Events report each step and the download's numbers; the
// channel is not closed.
func (s *DriverSession) Run(ctx context.Context, events chan<- DriverEvent) DriverResult {
	send := func(ev DriverEvent) {
		if events != nil {
			select {
			case events <- ev:
			case <-ctx.Done():
			}
		}
	}
	res := DriverResult{Version: s.Release.Version, Path: s.Path, Args: s.Args}
	end := func(f *DriverFailure, step string) DriverResult {
		if ctx.Err() != nil && f.Code != DriverFailRefused {
			f = &DriverFailure{Code: DriverFailCancelled, Exit: ExitInterrupted, Detail: f.Detail}
		}
		send(DriverEvent{Step: step, State: StepFailed})
		res.Failure, res.Exit = f, f.Exit
		return res
	}
	if s.req.File == "" {
		send(DriverEvent{Step: "download", State: StepRunning, Done: s.Have, Total: s.Release.Size})
		counters := &fetch.Counters{}
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(200 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					st := counters.Stats()
					send(DriverEvent{Step: "download", Done: st.Done, Total: st.Total, Rate: st.BytesPerSec, ETA: st.ETA})
				}
			}
		}()
		path, fr, err := driver.Download(ctx, s.Release, s.req.CacheDir, fetch.Options{Network: s.req.System.Network, Progress: counters, Retries: s.req.System.Retries})
		close(stop)
		<-done
		res.Fetched, res.Reused = fr.Fetched, fr.Reused
		if err != nil {
			code := DriverFailDownload
			var ne net.Error
			var oe *net.OpError
			if errors.As(err, &oe) || errors.As(err, &ne) || strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "no such host") {
				code = DriverFailNoNetwork
			}
			return end(&DriverFailure{Code: code, Detail: err.Error(), Exit: ExitFailure}, "download")
		}
		st := counters.Stats()
		send(DriverEvent{Step: "download", Done: st.Done, Total: st.Total})
		send(DriverEvent{Step: "download", State: StepDone})
		res.Path, res.Downloaded = path, true
	} else {
		send(DriverEvent{Step: "download", State: StepSkipped})
	}
	if !s.req.Install {
		res.Exit = ExitOK
		return res
	}
	send(DriverEvent{Step: "check", State: StepRunning})
	v := s.req.System.Verifier
	if v == nil {
		v = driver.SystemVerifier()
	}
	if err := driver.CheckInstaller(res.Path, s.Release.Size, v); err != nil {
		var r *driver.Refusal
		if !errors.As(err, &r) {
			r = &driver.Refusal{Code: "not_found", Detail: err.Error()}
		}
		if s.req.File == "" {
			// A file gpuwiz downloaded that fails the check is not kept: the next run fetches it again.
			_ = os.Remove(res.Path)
		}
		return end(&DriverFailure{Code: DriverFailRefused, Refusal: r, Exit: ExitFailure}, "check")
	}
	res.Checked = true
	send(DriverEvent{Step: "check", State: StepDone})
	send(DriverEvent{Step: "install", State: StepRunning})
	run := s.req.System.Runner
	if run == nil {
		run = driver.SystemRunner()
	}
	code, err := run.Run(ctx, res.Path, s.Args)
	res.ExitCode = code
	switch {
	case errors.Is(err, driver.ErrElevationRefused):
		return end(&DriverFailure{Code: DriverFailUAC, Exit: ExitFailure}, "install")
	case err != nil:
		return end(&DriverFailure{Code: DriverFailStart, Detail: err.Error(), Exit: ExitFailure}, "install")
	}
	res.Ran = true
	if code != 0 && !driver.AsksRestart(code) {
		return end(&DriverFailure{Code: DriverFailExitCode, ExitCode: code, Exit: ExitFailure}, "install")
	}
	send(DriverEvent{Step: "install", State: StepDone})
	if driver.AsksRestart(code) || s.rebootPending() {
		res.Restart = true
		p := ResumePoint{Step: ResumeStep, Before: s.Check.Current, Version: s.Release.Version, Channel: s.Check.Channel, Written: time.Now().UTC()}
		if err := writeResume(s.req.System.ResumePath, p); err == nil {
			res.ResumeFile = s.req.System.ResumePath
		}
	}
	if s.req.File == "" {
		// The installer has done its work: the cache keeps it no longer.
		_ = os.Remove(res.Path)
	}
	res.Exit = ExitOK
	return res
}
