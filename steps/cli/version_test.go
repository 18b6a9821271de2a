package cli

import (
	"bytes"
	"runtime/debug"
	"testing"
)

func TestVersionStringStampedRelease(t *testing.T) {
	noInfo := func() (*debug.BuildInfo, bool) { return nil, false }
	got := versionString(Build{Version: "0.3.0", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-12-03T19:00:00Z"}, noInfo)
	if want := "0.3.0 (commit 0123456789abcdef0123456789abcdef01234567, built 2026-12-03T19:00:00Z)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestVersionStringDevBuildUsesRecordedCommit(t *testing.T) {
	info := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "edfaac5d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a69"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	if got, want := versionString(Build{Version: "dev"}, info), "dev (commit edfaac5d1c2b-dirty, built unknown)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Without VCS information (-buildvcs=false, or a build outside a checkout) nothing is made up.
	none := func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{}, true }
	if got, want := versionString(Build{}, none), "dev (commit unknown, built unknown)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestVersionFlagPrintsVersionCommitDate(t *testing.T) {
	root, _ := NewRoot(Build{Version: "1.2.3", Commit: "abc123", Date: "2026-12-03T19:00:00Z"})
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"--version"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "gpuwiz 1.2.3 (commit abc123, built 2026-12-03T19:00:00Z)\n"; got != want {
		t.Fatalf("--version printed %q, want %q", got, want)
	}
}
