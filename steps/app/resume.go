package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/gpu"
)

// ResumePoint is where gpuwiz goes on after the restart a driver install asked for: written by the
// driver session when the installer wants Windows restarted, read by the next start of the wizard.
type ResumePoint struct {
	Step    string    `json:"step"`                    // "channel": the wizard continues at the channel step
	Before  string    `json:"driver_before,omitempty"` // the driver installed before ("" none)
	Version string    `json:"driver_installed"`        // the driver the installer put in
	Channel string    `json:"channel,omitempty"`       // the channel the user wanted ("" none)
	Written time.Time `json:"written"`
}

// ResumeStep is the only step a resume point names: the channel step, where the new driver counts.
const ResumeStep = "channel"

// ResumePath is resume.json in gpuwiz's user config dir (%AppData%\gpuwiz on Windows, ~/.config/gpuwiz
// on Linux), beside venvs.json.
func ResumePath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "gpuwiz", "resume.json")
}

// writeResume replaces the resume point at path, flushed to the disk: it is read back after the
// restart a driver install asks for.
func writeResume(path string, p ResumePoint) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Durable(path, append(b, '\n'), 0o644)
}

// ReadResume reads the resume point at path; nil when there is none (or it is not one: a resume
// point that cannot be read is not worth stopping for, and is left for a person to look at).
func ReadResume(path string) *ResumePoint {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var p ResumePoint
	if json.Unmarshal(b, &p) != nil || p.Step != ResumeStep || p.Version == "" {
		return nil
	}
	return &p
}

// Resumed is what the start of the wizard finds after a driver install asked for a restart.
type Resumed struct {
	Point ResumePoint
	Now   string // the driver installed now ("" none)
	// Found: the new driver (or a newer one) is installed now; the resume point is then removed and
	// the wizard continues at the channel step. Not found: the restart has not happened yet (or the
	// install did not take); the point stays.
	Found bool
}

// TakeResume reads the resume point at path (ResumePath when "") against the GPU report: nil when
// there is none.
func (e *Env) TakeResume(ctx context.Context, path string) (*Resumed, error) {
	if path == "" {
		path = ResumePath()
	}
	p := ReadResume(path)
	if p == nil {
		return nil, nil
	}
	rep, err := e.GPUReport(gpu.WithoutReadings(ctx))
	if err != nil {
		return nil, err
	}
	r := &Resumed{Point: *p}
	if rep.Available {
		r.Now = rep.DriverVersion
	}
	r.Found = r.Now != "" && !matrix.DriverLess(r.Now, p.Version)
	if r.Found {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return r, err
		}
	}
	return r, nil
}

// restartPending says whether the restart an earlier driver install asked for has not happened
// yet: its resume point was written after Windows last started.
func restartPending(path string, boot time.Time) bool {
	p := ReadResume(path)
	return p != nil && !boot.IsZero() && p.Written.After(boot)
}
