package install

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"gpuwiz/steps/runner"
)

//go:embed backup.py
var backupScript string

// manifest is what backup.py wrote: every file of every dist that the install may change, with
// the name of its hard link (or copy) in the backup's files/ dir.
type manifest struct {
	Purelib string `json:"purelib"`
	Platlib string `json:"platlib"`
	Dists   []struct {
		Name    string      `json:"name"`
		Version string      `json:"version"`
		Files   [][2]string `json:"files"` // original absolute path, name under files/
	} `json:"dists"`
	Moved [][2]string `json:"moved,omitempty"` // leftovers moved aside: original, backup path
}

// backupNames is every installed dist the install may replace: the framework family and any dist
// with a wheel in the stage dir (a dependency the install could upgrade).
func backupNames(families []string, staged []wheelInfo) []string {
	names := append([]string{}, families...)
	for _, w := range staged {
		names = append(names, w.name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func (e *engine) backup(ctx context.Context) error {
	staged, err := stagedWheels(e.plan.StageDir)
	if err != nil {
		return err
	}
	names, _ := json.Marshal(backupNames(e.plan.families, staged))
	if err := os.MkdirAll(e.backupDir, 0o755); err != nil {
		return err
	}
	res := e.run(ctx, StepBackup, runner.Cmd{Name: "backup", Argv: []string{e.py, "-c", backupScript, e.manifestPath(), e.backupDir, string(names)}, Env: e.plan.env})
	if res.Err != nil {
		return fmt.Errorf("backing up the dists about to change failed: %w", res.Err)
	}
	m, err := e.readManifest()
	if err != nil {
		return err
	}
	e.manifest = m
	return nil
}

func (e *engine) manifestPath() string { return filepath.Join(e.backupDir, "manifest.json") }

func (e *engine) readManifest() (*manifest, error) {
	b, err := os.ReadFile(e.manifestPath())
	if err != nil {
		return nil, fmt.Errorf("backup manifest: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("backup manifest: %w", err)
	}
	return &m, nil
}

func (e *engine) writeManifest() error {
	b, err := json.Marshal(e.manifest)
	if err != nil {
		return err
	}
	return os.WriteFile(e.manifestPath(), b, 0o644)
}

// linkOrCopy puts src at dst (replacing dst), as a hard link when the filesystem allows.
func linkOrCopy(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	_ = os.Remove(dst)
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
