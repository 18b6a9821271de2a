//go:build !windows && !(linux && cgo)

package gpu

import (
	"errors"

	"gpuwiz/steps/i18n"
)

// platformNVML in a build without cgo (or on an OS without an NVML backend) always declines,
// so the chain falls back to nvidia-smi.
func platformNVML() *nvmlProber {
	return newNVMLProber("nvml", func() (nvmlLib, error) {
		return nil, errors.New(i18n.T("gpu.nvml.no_backend"))
	})
}

const nvmlLibraryHint = "NVML"
