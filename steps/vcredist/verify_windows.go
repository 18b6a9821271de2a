//go:build windows

package vcredist

import (
	"context"
	"errors"
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"

	"gpuwiz/steps/i18n"
)

// signer is the subject the redistributable's signing certificate names.
const signer = "Microsoft Corporation" //i18n:raw a certificate subject

// VerifySignature checks path's embedded Authenticode signature with WinVerifyTrust (the chain to a
// trusted root, the file unchanged since signing) and that a certificate in it is Microsoft
// Corporation's.
func VerifySignature(path string) error {
	p16, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	data := &windows.WinTrustData{
		Size:             uint32(unsafe.Sizeof(windows.WinTrustData{})),
		UIChoice:         windows.WTD_UI_NONE,
		RevocationChecks: windows.WTD_REVOKE_NONE,
		UnionChoice:      windows.WTD_CHOICE_FILE,
		StateAction:      windows.WTD_STATEACTION_VERIFY,
		FileOrCatalogOrBlobOrSgnrOrCert: unsafe.Pointer(&windows.WinTrustFileInfo{
			Size:     uint32(unsafe.Sizeof(windows.WinTrustFileInfo{})),
			FilePath: p16,
		}),
	}
	verr := windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	data.StateAction = windows.WTD_STATEACTION_CLOSE
	windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	if verr != nil {
		return verr
	}
	if !signedBy(p16, signer) {
		return errors.New(i18n.T("vcredist.err.signer", i18n.D{"Signer": signer}))
	}
	return nil
}

// signedBy reports a certificate named name among those embedded in the file's signature.
func signedBy(p16 *uint16, name string) bool {
	var store windows.Handle
	var msg windows.Handle
	err := windows.CryptQueryObject(windows.CERT_QUERY_OBJECT_FILE, unsafe.Pointer(p16),
		windows.CERT_QUERY_CONTENT_FLAG_PKCS7_SIGNED_EMBED, windows.CERT_QUERY_FORMAT_FLAG_BINARY, 0,
		nil, nil, nil, &store, &msg, nil)
	if err != nil {
		return false
	}
	defer windows.CertCloseStore(store, 0)
	var cert *windows.CertContext
	for {
		cert, err = windows.CertEnumCertificatesInStore(store, cert)
		if err != nil || cert == nil {
			return false
		}
		buf := make([]uint16, 256)
		n := windows.CertGetNameString(cert, windows.CERT_NAME_SIMPLE_DISPLAY_TYPE, 0, nil, &buf[0], uint32(len(buf)))
		if n > 1 && windows.UTF16ToString(buf[:n-1]) == name {
			windows.CertFreeCertificateContext(cert)
			return true
		}
	}
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
