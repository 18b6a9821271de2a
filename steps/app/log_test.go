package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A session's log keeps what its commands print while it is planned and makes the file only when
// the session runs, with that first: a plan never run leaves no log file behind.
func TestSessionLogIsMadeWhenTheSessionRuns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "logs", "install-1.log")
	l := &runLog{}
	fmt.Fprintln(l, "$ python -m pip freeze")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the log file exists before the run: %v", err)
	}
	if got := l.open(path); got != path {
		t.Fatalf("open %q, want %q", got, path)
	}
	fmt.Fprintln(l, "$ python -m pip install torch")
	if again := l.open(filepath.Join(dir, "other.log")); again != path {
		t.Errorf("a second open made %q", again)
	}
	l.close()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "$ python -m pip freeze\n$ python -m pip install torch\n" {
		t.Fatalf("log %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.log")); !os.IsNotExist(err) {
		t.Errorf("a second log file was made: %v", err)
	}
}
