package app

import (
	"os"
	"path/filepath"
	"testing"
)

// The resume point replaces the file whole through a temporary file of its own: a stale "resume.json.tmp"
// (a folder here, as a crashed or concurrent writer may leave a name behind) neither stops it nor is
// taken for it, and no temporary file is left beside it.
func TestWriteResumeReplacesTheFileWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gpuwiz")
	path := filepath.Join(dir, "resume.json")
	if err := os.MkdirAll(path+".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"560.94", "572.16"} {
		if err := writeResume(path, ResumePoint{Step: "channel", Version: v}); err != nil {
			t.Fatalf("write %s: %v", v, err)
		}
	}
	if p := ReadResume(path); p == nil || p.Version != "572.16" {
		t.Fatalf("read back: %+v", p)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // resume.json and the stale folder
		for _, e := range entries {
			t.Log(e.Name())
		}
		t.Fatalf("%d entries beside the resume point, want only it and the stale folder", len(entries))
	}
}
