//go:build !windows

package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive treats a zombie (exited, not yet reaped, e.g. under a container's pid 1) as dead.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func TestCancelKillsChildAndGrandchild(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan Line, 10)
	done := make(chan Result, 1)
	go func() { done <- New(nil).Run(ctx, helper("spawn", pids), ch) }()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatal("child never said spawned")
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	child, _ := strconv.Atoi(f[0])
	grandchild, _ := strconv.Atoi(f[1])
	if !alive(child) || !alive(grandchild) {
		t.Fatal("processes not running before cancel")
	}
	start := time.Now()
	cancel()
	res := <-done
	if !errors.Is(res.Err, context.Canceled) || res.ExitCode != -1 {
		t.Fatalf("result = %+v", res)
	}
	if time.Since(start) > killWait+2*time.Second {
		t.Fatalf("Run took %s to return after cancel", time.Since(start))
	}
	for i := 0; i < 100 && alive(grandchild); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(child) || alive(grandchild) {
		t.Fatalf("alive after cancel: child %v grandchild %v", alive(child), alive(grandchild))
	}
}
