package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// TestChannelSwitchLeavesFilesOutsideTheVenv is the journey with the real binary: torch 2.6.0+cu126
// installed into a venv, two lines added to torch's RECORD naming files in a folder under the
// system's temporary folder (an absolute path and a relative ../../.. one), then a switch to cu118.
// The switch succeeds, both files and their folder are left as they were, and the output says so.
func TestChannelSwitchLeavesFilesOutsideTheVenv(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and installs into a real venv")
	}
	python := pyindex.Python(t)
	exe := goBuild(t, "gpuwiz", nil)
	dir := t.TempDir()
	files := map[string][]string{}
	for _, ch := range []string{"cu126", "cu118"} {
		spec := pyindex.StubSpec{Version: "2.6.0+" + ch, CUDA: map[string]string{"cu126": "12.6", "cu118": "11.8"}[ch], CudaAvailable: true, CuDNN: 90100,
			ArchList: []string{"sm_80", "sm_86", "sm_90"}}
		files[ch] = pyindex.TorchFamily(t, filepath.Join(dir, ch), spec, 0)
	}
	ix := pyindex.Serve(t, files)
	root := t.TempDir()
	env := append(pyindex.PipEnv(t), "HOME="+root, "XDG_CONFIG_HOME="+filepath.Join(root, "config"), "XDG_CACHE_HOME="+filepath.Join(root, "cache"),
		"XDG_STATE_HOME="+filepath.Join(root, "state"), "GPUWIZ_LANG=en", "NO_COLOR=1", "GPUWIZ_VERIFY_MATRIX_N=8")
	rig, _ := filepath.Abs(filepath.Join("ui", "testdata", "e2e", "rig-rtx3060.json"))
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, root, strings.NewReader("")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String(), 0
	}
	venv := filepath.Join(root, "venv")
	install := func(ch string, more ...string) (string, int) {
		return run(append([]string{"--simulate", rig, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", ch,
			"--python", python, "--venv", venv, "--index-url", ix.ChannelURL(ch), "--no-pip-upgrade", "--yes"}, more...)...)
	}
	if out, code := install("cu126"); code != 0 {
		t.Fatalf("install cu126: exit %d\n%s", code, out)
	}
	victim, err := os.MkdirTemp("", "victim-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(victim) })
	for _, n := range []string{"abs.txt", "rel.txt"} {
		if err := os.WriteFile(filepath.Join(victim, n), []byte("the user's "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	infos, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages", "torch-2.6.0+cu126.dist-info"))
	if len(infos) != 1 {
		t.Fatalf("torch's dist-info: %v", infos)
	}
	f, err := os.OpenFile(filepath.Join(infos[0], "RECORD"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(filepath.Join(victim, "abs.txt") + ",,\n" + strings.Repeat("../", 12) + strings.TrimPrefix(filepath.Join(victim, "rel.txt"), "/") + ",,\n")
	f.Close()

	out, code := install("cu118")
	if code != 0 {
		t.Fatalf("switch to cu118: exit %d\n%s", code, out)
	}
	for _, n := range []string{"abs.txt", "rel.txt"} {
		if b, err := os.ReadFile(filepath.Join(victim, n)); err != nil || string(b) != "the user's "+n {
			t.Errorf("%s outside the venv: %v %q", n, err, b)
		}
	}
	if !strings.Contains(out, "torch's RECORD names 2 files outside this environment; they were left alone") {
		t.Errorf("the switch's output does not say what it left alone:\n%s", out)
	}
}
