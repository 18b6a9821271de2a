package runner

import (
	"os/exec"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processTree holds the child in a job object so a kill ends pip's children too; taskkill /T is
// the fallback when the job cannot be made (e.g. nested-job limits on old systems).
type processTree struct {
	cmd *exec.Cmd
	job windows.Handle
}

func newProcessTree(cmd *exec.Cmd) *processTree {
	t := &processTree{cmd: cmd}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return t
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return t
	}
	t.job = job
	return t
}

func (t *processTree) started() {
	if t.job == 0 || t.cmd.Process == nil {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(t.cmd.Process.Pid))
	if err != nil {
		t.closeJob()
		return
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(t.job, h); err != nil {
		t.closeJob()
	}
}

func (t *processTree) kill() error {
	if t.cmd.Process == nil {
		return nil
	}
	if t.job != 0 {
		if err := windows.TerminateJobObject(t.job, 1); err == nil {
			return nil
		}
	}
	kill := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(t.cmd.Process.Pid))
	if err := kill.Run(); err != nil {
		return t.cmd.Process.Kill()
	}
	return nil
}

// release closes the job handle only after the child ended, so KILL_ON_JOB_CLOSE never fires early.
func (t *processTree) release() { t.closeJob() }

func (t *processTree) closeJob() {
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
}
