// Package vcredist fetches Microsoft's Visual C++ 2015-2022 x64 redistributable from its permanent
// link, checks its Authenticode signature (Windows' own WinVerifyTrust, signed by Microsoft
// Corporation) before anything runs it, and starts it without elevating: gpuwiz never runs anything
// as administrator. The installer asks for administrator rights itself; when Windows refuses to
// start it unelevated, the caller hands the checked file to the user.
package vcredist

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
)

// URL is Microsoft's permanent link to the latest x64 redistributable.
const URL = "https://aka.ms/vs/17/release/vc_redist.x64.exe"

// Args install without a restart and without questions beyond Windows' own (/passive shows progress).
var Args = []string{"/install", "/passive", "/norestart"} //i18n:raw the installer's own switches

// ErrNeedsAdmin means Windows would start the installer only elevated (ERROR_ELEVATION_REQUIRED);
// gpuwiz does not elevate.
var ErrNeedsAdmin = errors.New("the installer needs administrator rights") //i18n:raw a sentinel for errors.Is; the caller says it in words

// Deps are the side effects; nil fields take the real ones.
type Deps struct {
	Client *http.Client                                                 // nil: through pip's proxy rules
	Verify func(path string) error                                      // nil: VerifySignature
	Start  func(ctx context.Context, path string, args ...string) error // nil: start the file, not elevated
}

// Result is what Install did.
type Result struct {
	Path       string `json:"path"`        // the downloaded installer
	Verified   bool   `json:"verified"`    // its signature checked out
	Ran        bool   `json:"ran"`         // it was started and finished with exit code 0
	NeedsAdmin bool   `json:"needs_admin"` // Windows would start it only elevated: the user runs Path
}

// Install downloads the redistributable into dir, checks its signature and starts it. A file whose
// signature does not check out is deleted and never started.
func Install(ctx context.Context, d Deps, dir string) (Result, error) {
	if d.Client == nil {
		d.Client = netproxy.ForPip("", nil).Client()
	}
	if d.Verify == nil {
		d.Verify = VerifySignature
	}
	if d.Start == nil {
		d.Start = start
	}
	var res Result
	path, err := fetch(ctx, d.Client, dir)
	if err != nil {
		return res, err
	}
	res.Path = path
	if err := d.Verify(path); err != nil {
		os.Remove(path)
		return res, i18n.Wrap(err, i18n.T("vcredist.err.signature", i18n.D{"URL": URL, "Err": err}))
	}
	res.Verified = true
	err = d.Start(ctx, path, Args...)
	switch {
	case errors.Is(err, ErrNeedsAdmin):
		res.NeedsAdmin = true
		return res, i18n.Wrap(err, i18n.T("vcredist.err.needs_admin", i18n.D{"Path": path}))
	case err != nil:
		return res, i18n.Wrap(err, i18n.T("vcredist.err.run", i18n.D{"Path": path, "Err": err}))
	}
	res.Ran = true
	return res, nil
}

func fetch(ctx context.Context, c *http.Client, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, URL, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", i18n.Wrap(err, i18n.T("vcredist.err.download", i18n.D{"URL": URL, "Err": err}))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(i18n.T("vcredist.err.download", i18n.D{"URL": URL, "Err": resp.Status}))
	}
	path := filepath.Join(dir, "vc_redist.x64.exe")
	tmp := path + ".part"
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", i18n.Wrap(err, i18n.T("vcredist.err.download", i18n.D{"URL": URL, "Err": err}))
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// notWindows is what the checks say off Windows, where there is nothing to install.
func notWindows() error { return fmt.Errorf("%s", i18n.T("vcredist.err.not_windows")) }
