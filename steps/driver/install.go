package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"gpuwiz/steps/fetch"
)

// CacheDir is where gpuwiz keeps driver installers until the driver is installed:
// <user cache>/gpuwiz/drivers.
func CacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gpuwiz", "drivers")
	}
	return filepath.Join(os.TempDir(), "gpuwiz-drivers")
}

// Download fetches the installer of r into dir with gpuwiz's downloader (resumable: a partial file
// and its progress record stay in dir and the next run goes on from them; pip's proxy rules and the
// Windows system proxy). It returns the installer's path.
func Download(ctx context.Context, r Release, dir string, o fetch.Options) (string, fetch.Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fetch.Result{}, err
	}
	o.Dir = dir
	if o.Connections == 0 {
		o.Connections = 4
	}
	res, err := fetch.Fetch(ctx, []fetch.File{{URL: r.URL, Name: r.File, Size: r.Size, NotZip: true}}, o)
	return filepath.Join(dir, r.File), res, err
}

// Runner starts an installer and waits for it: on Windows elevated (one UAC prompt,
// run_windows.go). Tests give a recording one.
type Runner interface {
	Run(ctx context.Context, path string, args []string) (exitCode int, err error)
}

// ErrElevationRefused: the user said no to the UAC prompt; nothing ran.
var ErrElevationRefused = errors.New("the administrator prompt was refused") //i18n:raw for logs; front ends word it

// InstallArgs are the installer's arguments: none (NVIDIA's own screens) by default; silent, no
// restart for the headless path (NVIDIA's installers take -s and -noreboot, as ZenitH-AT/nvidia-update
// and other public scripts run them).
func InstallArgs(silent bool) []string {
	if silent {
		return []string{"-s", "-noreboot"}
	}
	return nil
}

// Exit codes of an installer that mean success with a restart to come: Windows's
// ERROR_SUCCESS_REBOOT_REQUIRED (3010) and ERROR_SUCCESS_REBOOT_INITIATED (1641), from Microsoft's
// System Error Codes, which Windows installers return. NVIDIA publishes no list of its installer's
// own codes; any other code but 0 is a failure, named by its number.
const (
	ExitRebootRequired  = 3010
	ExitRebootInitiated = 1641
)

// AsksRestart says whether an installer's exit code means it succeeded and Windows must restart.
func AsksRestart(code int) bool { return code == ExitRebootRequired || code == ExitRebootInitiated }
