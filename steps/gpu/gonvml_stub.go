//go:build !windows && !(linux && cgo)

package gpu

import "errors"

// platformNVML in a build without cgo (or on an OS without an NVML backend) always declines,
// so the chain falls back to nvidia-smi.
func platformNVML() *nvmlProber {
	return newNVMLProber("nvml", func() (nvmlLib, error) {
		return nil, errors.New("no NVML backend in this build (built without cgo)")
	})
}

const nvmlLibraryHint = "NVML"
