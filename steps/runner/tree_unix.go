//go:build !windows

package runner

import (
	"os/exec"
	"syscall"
)

// processTree puts the child in its own process group so a kill reaches pip's children too.
type processTree struct{ cmd *exec.Cmd }

func newProcessTree(cmd *exec.Cmd) *processTree {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &processTree{cmd: cmd}
}

func (t *processTree) started() {}

func (t *processTree) kill() error {
	if t.cmd.Process == nil {
		return nil
	}
	// the group id is the leader's pid (Setpgid with Pgid 0).
	err := syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

func (t *processTree) release() {}
