package cli

import (
	"runtime/debug"
	"strings"
)

// versionString is what `gpuwiz --version` prints after "gpuwiz ": the version, the commit and the
// build date a release stamps (go build -ldflags "-X main.version=0.1.0 -X main.commit=… -X main.date=…").
// A build without a stamp ("dev") names the commit Go recorded in the binary, if any, and says the date
// is unknown rather than inventing one.
func versionString(b Build, info func() (*debug.BuildInfo, bool)) string {
	version, commit, date := b.Version, b.Commit, b.Date
	if version == "" {
		version = "dev"
	}
	if commit == "" || date == "" {
		rev, modified := vcsRevision(info)
		if commit == "" && rev != "" {
			commit = rev + modified
		}
	}
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return version + " (commit " + commit + ", built " + date + ")"
}

// vcsRevision is the commit `go build` records from the checkout (absent with -buildvcs=false or
// outside a git checkout), shortened to 12 characters, and "-dirty" when the tree had changes.
func vcsRevision(info func() (*debug.BuildInfo, bool)) (rev, modified string) {
	bi, ok := info()
	if !ok || bi == nil {
		return "", ""
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return strings.TrimSpace(rev), modified
}

func readBuildInfo() (*debug.BuildInfo, bool) { return debug.ReadBuildInfo() }
