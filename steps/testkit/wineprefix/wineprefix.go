// Package wineprefix prepares a Wine prefix in which Go Windows binaries start, for the tests that
// run gpuwiz.exe under Wine (steps/winetest, steps/gpu). Everything it needs is in this repository:
// the ProcessPrng shim that Debian's Wine 8 lacks is testdata/wine/bcryptprimitives.c, built here with
// mingw-w64 (x86_64-w64-mingw32-gcc). The tools come from apt: wine64 and gcc-mingw-w64-x86-64.
package wineprefix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Tools are the programs a prefix needs on PATH.
var Tools = []string{"wine", "wineserver", "wineboot", "x86_64-w64-mingw32-gcc"}

// Missing says which tools are absent, and how to install them; "" when all are there.
func Missing() string {
	var absent []string
	for _, tool := range Tools {
		if _, err := exec.LookPath(tool); err != nil {
			absent = append(absent, tool)
		}
	}
	if len(absent) == 0 {
		return ""
	}
	return strings.Join(absent, ", ") + " not installed (apt-get install wine64 gcc-mingw-w64-x86-64)" //i18n:raw a test kit's skip reason, for developers
}

// System32 is the Unix path of C:\windows\system32 in prefix.
func System32(prefix string) string {
	return filepath.Join(prefix, "drive_c", "windows", "system32")
}

// ShimSource is the shim's C source in the repository at root.
func ShimSource(root string) string {
	return filepath.Join(root, "testdata", "wine", "bcryptprimitives.c")
}

// BuildShim compiles the ProcessPrng shim into dir/bcryptprimitives.dll and returns its path.
func BuildShim(ctx context.Context, root, dir string) (string, error) {
	src := ShimSource(root)
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("the ProcessPrng shim source: %w", err) //i18n:raw a test kit's error, for developers
	}
	dll := filepath.Join(dir, "bcryptprimitives.dll")
	cmd := exec.CommandContext(ctx, "x86_64-w64-mingw32-gcc", "-shared", "-O2", "-Wall", "-Werror", "-o", dll, src, "-Wl,--kill-at")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", src, err, out)
	}
	return dll, nil
}

// Prepare makes prefix ready for Go Windows binaries: it boots the prefix when it has no system32
// yet (wineboot -i, ~15 s, then waits for that wineserver to exit; the environment env must name
// WINEPREFIX=prefix) and installs the shim, built fresh from the repository at root, into its
// system32. env is the environment wine runs with.
func Prepare(ctx context.Context, root, prefix string, env []string) error {
	if why := Missing(); why != "" {
		return errors.New(why)
	}
	scratch, err := os.MkdirTemp("", "gpuwiz-shim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	dll, err := BuildShim(ctx, root, scratch)
	if err != nil {
		return err
	}
	if _, err := os.Stat(System32(prefix)); err != nil {
		bctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		// Output to a file, not a pipe: the wineserver wineboot starts outlives it and would hold a pipe open.
		log, err := os.Create(filepath.Join(scratch, "wineboot.log"))
		if err != nil {
			return err
		}
		defer log.Close()
		cmd := exec.CommandContext(bctx, "wineboot", "-i")
		cmd.Env, cmd.Stdout, cmd.Stderr = env, log, log
		if err := cmd.Run(); err != nil {
			out, _ := os.ReadFile(log.Name())
			return fmt.Errorf("wineboot -i (WINEPREFIX=%s): %v\n%s", prefix, err, out)
		}
		if _, err := os.Stat(System32(prefix)); err != nil {
			return fmt.Errorf("wineboot -i did not create %s", System32(prefix)) //i18n:raw a test kit's error, for developers
		}
		// Wait for the wineserver wineboot started to save the registry and exit, so that the caller
		// can start its own (wineserver -p fails while another serves the prefix).
		wait := exec.CommandContext(bctx, "wineserver", "-w")
		wait.Env = env
		if out, err := wait.CombinedOutput(); err != nil {
			return fmt.Errorf("wineserver -w after wineboot -i: %v\n%s", err, out) //i18n:raw a test kit's error, for developers
		}
	}
	data, err := os.ReadFile(dll)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(System32(prefix), "bcryptprimitives.dll"), data, 0o644)
}
