// Package pyget gets a Python for this user: on Windows through winget, or the python.org installer
// (from python.org or a mirror of its files) checked against its published SHA-256 and run per-user
// and quietly; on Linux it names the distribution's command, which the user runs (gpuwiz never runs a
// package manager as root).
package pyget

import "gpuwiz/steps/pep"

// Release is one python.org Windows installer whose checksum gpuwiz carries.
type Release struct {
	Version string // "3.12.10"
	Size    int64
	SHA256  string
}

// Known are the last Windows installers (python-X.Y.Z-amd64.exe) of each minor, with the SHA-256
// that python.org publishes as the digest of its Sigstore bundle (FILE.sigstore, beside each file
// under https://www.python.org/ftp/python/), cross-checked against the hashes computed in
// https://github.com/woodruffw/cpython-release-tracker (versions/X.Y.Z.json). Later 3.10, 3.11
// and 3.12 releases are source-only, so these stay the newest installers of those minors.
var Known = []Release{
	{"3.10.11", 29037240, "d8dede5005564b408ba50317108b765ed9c3c510342a598f9fd42681cbe0648b"},
	{"3.11.9", 26216840, "5ee42c4eee1e6b4464bb23722f90b45303f79442df63083f05322f1785f5fdde"},
	{"3.12.10", 26964224, "67b5635e80ea51072b87941312d00ec8927c4db9ba18938f7ad2d27b328b95fb"},
	{"3.13.13", 29143512, "3c9c81d80f91c002ced86d645422d81432c68c7d9b6b0e974768ca2e449a4d00"},
	{"3.14.4", 30310128, "b571567bd11ea98fd7a2cf85791d2c8557a63b1e04e9d1dae665a275cac87f1b"},
}

// known finds a version ("3.12.10") or the newest of a minor ("3.12").
func known(v string) (Release, bool) {
	for _, r := range Known {
		if r.Version == v || pep.Minor(r.Version) == v {
			return r, true
		}
	}
	return Release{}, false
}
