package driver

import (
	"errors"
	"slices"

	"gpuwiz/steps/winsign"
)

// winTrust checks Authenticode with WinVerifyTrust and names the signer from the certificates
// embedded in the signature.
type winTrust struct{}

// SystemVerifier is WinVerifyTrust.
func SystemVerifier() Verifier { return winTrust{} }

func (winTrust) Verify(path string) (string, error) {
	if err := winsign.Verify(path); err != nil {
		return "", err
	}
	names, err := winsign.Names(path)
	if err != nil {
		return "", err
	}
	// The signature's store holds the signer's certificate and its chain (the CAs); the signer is
	// the one whose simple name is the publisher's. A chain certificate never carries NVIDIA's name
	// unless NVIDIA issued it.
	switch {
	case slices.Contains(names, Signer):
		return Signer, nil
	case len(names) == 0:
		return "", errors.New("no certificate in the signature") //i18n:raw for logs; the refusal code is worded
	}
	return names[0], nil
}
