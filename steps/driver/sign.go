package driver

import (
	"debug/pe"
	"errors"
	"os"
	"strconv"
)

// Signer is the publisher NVIDIA's installers are Authenticode-signed by.
const Signer = "NVIDIA Corporation" //i18n:raw the certificate subject name, compared, not shown as a sentence

// Refusal says why an installer is not run: a value the front end words.
type Refusal struct {
	Code   string // "not_found", "empty", "size", "not_program", "unsigned", "bad_signature", "signer", "no_check"
	Detail string // the signer found, the size expected, the system's error
}

func (r *Refusal) Error() string { return "installer refused: " + r.Code + " " + r.Detail } //i18n:raw for logs; front ends word the code

// Verifier checks an Authenticode signature and names its signer. On Windows it is WinVerifyTrust
// (verify_windows.go); elsewhere there is none, and nothing is run there anyway.
type Verifier interface {
	Verify(path string) (signer string, err error)
}

// CheckInstaller is everything gpuwiz asks of a file before it runs it: it is there, has the size
// the lookup gave (size 0: not known), is a Windows program, carries an Authenticode signature
// (its PE security directory: checked here on every system), the signature verifies, and the
// signer is NVIDIA Corporation. A refusal is returned as *Refusal.
func CheckInstaller(path string, size int64, v Verifier) error {
	info, err := os.Stat(path)
	if err != nil {
		return &Refusal{Code: "not_found", Detail: path}
	}
	if info.Size() == 0 {
		return &Refusal{Code: "empty"}
	}
	if size > 0 && info.Size() != size {
		return &Refusal{Code: "size", Detail: strconv.FormatInt(size, 10)}
	}
	f, err := pe.Open(path)
	if err != nil {
		return &Refusal{Code: "not_program"}
	}
	signed := false
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		signed = len(oh.DataDirectory) > pe.IMAGE_DIRECTORY_ENTRY_SECURITY && oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_SECURITY].Size > 0
	case *pe.OptionalHeader32:
		signed = len(oh.DataDirectory) > pe.IMAGE_DIRECTORY_ENTRY_SECURITY && oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_SECURITY].Size > 0
	}
	_ = f.Close()
	if !signed {
		return &Refusal{Code: "unsigned"}
	}
	if v == nil {
		return &Refusal{Code: "no_check"}
	}
	signer, err := v.Verify(path)
	if err != nil {
		return &Refusal{Code: "bad_signature", Detail: err.Error()}
	}
	if signer != Signer {
		return &Refusal{Code: "signer", Detail: signer}
	}
	return nil
}

// ErrNoVerifier: this system cannot check an Authenticode signature.
var ErrNoVerifier = errors.New("no Authenticode check on this system") //i18n:raw for logs; the refusal code is worded
