//go:build windows

package vcredist

import (
	"context"
	"errors"
	"os/exec"
	"slices"

	"golang.org/x/sys/windows"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/winsign"
)

// signer is the subject the redistributable's signing certificate names.
const signer = "Microsoft Corporation" //i18n:raw a certificate subject

// VerifySignature checks path's embedded Authenticode signature with WinVerifyTrust (the chain to a
// trusted root, the file unchanged since signing) and that a certificate in it is Microsoft
// Corporation's.
func VerifySignature(path string) error {
	if err := winsign.Verify(path); err != nil {
		return err
	}
	if names, _ := winsign.Names(path); !slices.Contains(names, signer) {
		return errors.New(i18n.T("vcredist.err.signer", i18n.D{"Signer": signer}))
	}
	return nil
}

// start runs the installer as the user it is (never elevated) and waits for it. A program whose
// manifest asks for administrator rights cannot be started that way: ERROR_ELEVATION_REQUIRED.
func start(ctx context.Context, path string, args ...string) error {
	err := exec.CommandContext(ctx, path, args...).Run()
	if errors.Is(err, windows.ERROR_ELEVATION_REQUIRED) {
		return ErrNeedsAdmin
	}
	return err
}
