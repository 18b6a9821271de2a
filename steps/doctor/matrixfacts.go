package doctor

import (
	"strconv"

	"gpuwiz/matrix"
)

// releaseOf finds the matrix release of framework at an exact public version ("2.8.0").
func releaseOf(m *matrix.Matrix, framework, version string) *matrix.Release {
	if m == nil {
		return nil
	}
	rels := m.Torch
	if framework == "paddle" {
		rels = m.Paddle
	}
	for i := range rels {
		if rels[i].Version == version {
			return &rels[i]
		}
	}
	return nil
}

func buildOf(r *matrix.Release, channel string) *matrix.Build {
	if r == nil {
		return nil
	}
	for i := range r.Builds {
		if r.Builds[i].Channel == channel {
			return &r.Builds[i]
		}
	}
	return nil
}

func archOf(b *matrix.Build, goos string) []string {
	if goos == "windows" {
		return b.ArchWindows
	}
	return b.ArchLinux
}

func minCapOf(b *matrix.Build, goos string) string {
	if goos == "windows" {
		return b.MinComputeCapWindows
	}
	return b.MinComputeCapLinux
}

// minorCompatDriver is the lowest driver that runs every CUDA build of cuda's major version.
func minorCompatDriver(m *matrix.Matrix, cuda, goos string) string {
	if m == nil {
		return ""
	}
	major := func(v string) string {
		n, ok := numbers(v)
		if !ok {
			return ""
		}
		return strconv.Itoa(n[0])
	}
	for _, row := range m.CUDA {
		if row.Version == cuda || major(row.Version) == major(cuda) {
			if goos == "windows" && row.MinorCompatWindows != "" {
				return row.MinorCompatWindows
			}
			if goos != "windows" && row.MinorCompatLinux != "" {
				return row.MinorCompatLinux
			}
		}
	}
	return ""
}
