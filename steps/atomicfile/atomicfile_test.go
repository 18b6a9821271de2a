package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteReplacesTheFileAndLeavesNothingBeside(t *testing.T) {
	for _, f := range []func(string, []byte, os.FileMode) error{Write, Durable} {
		dir := t.TempDir()
		p := filepath.Join(dir, "sub", "state.json")
		if err := f(p, []byte("one"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := f(p, []byte("two"), 0o600); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != "two" {
			t.Errorf("contents %q", b)
		}
		if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", st.Mode())
		}
		if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
			t.Errorf("the folder holds %d entries, want the file alone", len(ents))
		}
	}
}

// A link at the file's name is replaced, never written through: what it points to stays.
func TestWriteNeverWritesThroughALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need a privilege on Windows")
	}
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "theirs")
	os.WriteFile(outside, []byte("theirs"), 0o644)
	p := filepath.Join(dir, "pip.conf")
	os.Symlink(outside, p)
	if err := Write(p, []byte("ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "theirs" {
		t.Errorf("written through the link: %q", b)
	}
	if st, _ := os.Lstat(p); st.Mode()&os.ModeSymlink != 0 {
		t.Error("the link is still there")
	}
}
