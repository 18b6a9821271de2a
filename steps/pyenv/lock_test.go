package pyenv

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as the other gpuwiz holding a lock.
func TestMain(m *testing.M) {
	if root := os.Getenv("GPUWIZ_LOCK_HOLDER"); root != "" {
		unlock, err := Lock(root)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		bufio.NewReader(os.Stdin).ReadString('\n') // hold until the test closes stdin
		unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockHeldByAnotherProcess(t *testing.T) {
	root := filepath.Join(t.TempDir(), "venv")
	holder := exec.Command(os.Args[0])
	holder.Env = append(os.Environ(), "GPUWIZ_LOCK_HOLDER="+root)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("holder said %q", line)
	}
	_, err := Lock(root)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", holder.Process.Pid)) {
		t.Fatalf("second lock: %v", err)
	}
	stdin.Close()
	if err := holder.Wait(); err != nil {
		t.Fatal(err)
	}
	unlock, err := Lock(root)
	if err != nil {
		t.Fatalf("after the holder quit: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}
