//go:build linux

package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// mountTmpfs mounts a tmpfs of size bytes at a new folder (root only) and returns it.
func mountTmpfs(t *testing.T, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// resizeTmpfs leaves room bytes free on the tmpfs at dir.
func resizeTmpfs(t *testing.T, dir string, room uint64) {
	t.Helper()
	var st unix.Statfs_t
	must(t, unix.Statfs(dir, &st))
	used := (st.Blocks - st.Bfree) * uint64(st.Bsize)
	if out, err := exec.Command("mount", "-o", fmt.Sprintf("remount,size=%d", used+room), dir).CombinedOutput(); err != nil {
		t.Skipf("remount: %v %s", err, out)
	}
}

// The venv on a real small drive (a tmpfs): the check reads its true free space and refuses; then,
// with the check fooled, pip fills the drive in the middle of the install, the old set comes back
// file by file, and the error names the drive the same way, with what is free after the restore.
func TestSmallDriveRefusedThenFilledMidRun(t *testing.T) {
	mnt := mountTmpfs(t, 256<<20)
	ix := serve(t)
	v := pyindex.NewVenv(t, filepath.Join(mnt, "venv"))
	pipInstall(t, v, "--no-index", "--find-links", filepath.Dir(buildWheels(t)["cu118"][0]), "torch==2.6.0+cu118", "torchvision==0.21.0+cu118")
	resizeTmpfs(t, mnt, 12<<20) // room for the snapshot, not for another torch
	before, beforeTree := freeze(t, v), tree(t, v)
	cache := t.TempDir()

	_, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), cache), nil)
	var se *SpaceError
	if out.Result != ResultUnchanged || !errors.As(out.Err, &se) || se.During || se.Dir != v.Root || se.Free > 12<<20 {
		t.Fatalf("want a refusal naming the venv with the tmpfs's free space: %+v", out)
	}
	if !strings.Contains(out.Error, v.Root) || !strings.Contains(out.Error, "--venv") {
		t.Fatalf("the refusal should name the folder and what to do: %s", out.Error)
	}

	withSpace(t, &lyingSpace{})
	_, out, _ = install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if out.Result != ResultRestored || out.FailedStep != StepInstall || !errors.As(out.Err, &se) || !se.During || se.Dir != v.Root {
		t.Fatalf("want a full disk named after the restore: %+v", out)
	}
	if !strings.Contains(out.Error, "filled up") || !strings.Contains(strings.ToLower(out.Error), "no space left on device") {
		t.Fatalf("the error should say the drive filled up, with the installer's words: %s", out.Error)
	}
	if d := filetree.Diff(beforeTree, tree(t, v)); len(d) > 0 {
		t.Fatalf("site-packages differs from before the run:\n%s", strings.Join(d, "\n"))
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze differs:\nbefore\n%s\nafter\n%s", before, after)
	}
}
