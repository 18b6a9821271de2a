package driver

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/windows"
)

// winTrust checks Authenticode with WinVerifyTrust (WINTRUST_ACTION_GENERIC_VERIFY_V2) and names the
// signer from the certificates embedded in the signature (CryptQueryObject).
type winTrust struct{}

// SystemVerifier is WinVerifyTrust.
func SystemVerifier() Verifier { return winTrust{} }

func (winTrust) Verify(path string) (string, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return "", err
	}
	data := &windows.WinTrustData{
		Size:             uint32(unsafe.Sizeof(windows.WinTrustData{})),
		UIChoice:         windows.WTD_UI_NONE,
		RevocationChecks: windows.WTD_REVOKE_NONE,
		UnionChoice:      windows.WTD_CHOICE_FILE,
		StateAction:      windows.WTD_STATEACTION_VERIFY,
		FileOrCatalogOrBlobOrSgnrOrCert: unsafe.Pointer(&windows.WinTrustFileInfo{
			Size:     uint32(unsafe.Sizeof(windows.WinTrustFileInfo{})),
			FilePath: p,
		}),
	}
	verr := windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	data.StateAction = windows.WTD_STATEACTION_CLOSE
	_ = windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	if verr != nil {
		return "", verr
	}
	var enc, ctype, ftype uint32
	var store, msg windows.Handle
	if err := windows.CryptQueryObject(windows.CERT_QUERY_OBJECT_FILE, unsafe.Pointer(p),
		windows.CERT_QUERY_CONTENT_FLAG_PKCS7_SIGNED_EMBED, windows.CERT_QUERY_FORMAT_FLAG_BINARY, 0,
		&enc, &ctype, &ftype, &store, &msg, nil); err != nil {
		return "", err
	}
	defer windows.CertCloseStore(store, 0)
	// The signature's store holds the signer's certificate and its chain (the CAs); the signer is
	// the one whose simple name is the publisher's. A chain certificate never carries NVIDIA's name
	// unless NVIDIA issued it.
	var names []string
	var cert *windows.CertContext
	for {
		cert, err = windows.CertEnumCertificatesInStore(store, cert)
		if cert == nil || err != nil {
			break
		}
		buf := make([]uint16, 256)
		n := windows.CertGetNameString(cert, windows.CERT_NAME_SIMPLE_DISPLAY_TYPE, 0, nil, &buf[0], uint32(len(buf)))
		if n > 1 {
			name := windows.UTF16ToString(buf[:n])
			if name == Signer {
				windows.CertFreeCertificateContext(cert)
				return name, nil
			}
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", errors.New("no certificate in the signature") //i18n:raw for logs; the refusal code is worded
	}
	return names[0], nil
}
