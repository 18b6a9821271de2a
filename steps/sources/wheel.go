package sources

import (
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// Build is the exact build a source must carry: the framework's wheel for this version and local
// label, for this Python and this OS.
type Build struct {
	Project string // the framework's distribution: "torch", "paddlepaddle-gpu"
	Version string // with the local label: "2.6.0+cu126"
	Python  string // "3.12"
	GOOS    string // "linux", "windows", "darwin"
	GOARCH  string // "amd64", "arm64"
}

// platform is the system as people write it: the OS's own capitals, then the architecture
// (Linux/amd64, Windows/amd64).
func (b Build) platform() string {
	os := map[string]string{"linux": "Linux", "windows": "Windows", "darwin": "macOS"}[b.GOOS]
	if os == "" {
		os = b.GOOS
	}
	return os + "/" + b.GOARCH
}

// String is the build in words: "torch 2.6.0+cu126 for Python 3.12 on Linux/amd64".
func (b Build) String() string {
	return i18n.T("sources.build", i18n.D{"Project": b.Project, "Version": b.Version, "Python": b.Python, "Platform": b.platform()})
}

// verdict is what a list of file names says about the build.
type verdict struct {
	file string // the wheel that fits
	why  string // when none fits: what is there instead
}

func judge(files []string, b Build) verdict {
	project := pep.Normalize(b.Project)
	var versions, tags []string
	for _, f := range files {
		w, err := pep.ParseWheel(f)
		if err != nil || w.Name != project {
			continue
		}
		if !pep.SameVersion(w.Version, b.Version) {
			versions = appendUnique(versions, strings.ToLower(w.Version))
			continue
		}
		if w.ForPlatform(b.GOOS, b.GOARCH) && w.ForPython(b.Python) {
			return verdict{file: f}
		}
		tags = appendUnique(tags, strings.Join(w.Python, ".")+"-"+strings.Join(w.Platforms, "."))
	}
	switch {
	case len(tags) > 0:
		return verdict{why: i18n.T("sources.wheel.no_wheel_for", i18n.D{"Project": b.Project, "Version": b.Version, "Python": b.Python, "Platform": b.platform(), "Tags": shortList(tags)})}
	case len(versions) > 0:
		return verdict{why: i18n.T("sources.wheel.other_versions", i18n.D{"Project": b.Project, "Version": b.Version, "Versions": shortList(versions)})}
	}
	return verdict{why: i18n.T("sources.wheel.not_carried", i18n.D{"Project": b.Project})}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func shortList(list []string) string {
	const most = 4
	if len(list) <= most {
		return i18n.Join(list)
	}
	return i18n.N("sources.list.more", len(list)-most, i18n.D{"List": i18n.Join(list[len(list)-most:])})
}
