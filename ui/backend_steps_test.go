package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/app"
)

func TestActivationPerShell(t *testing.T) {
	w := activationFor(`C:\venvs\my 环境`, "windows")
	if !strings.Contains(w.PowerShell, `C:\venvs\my 环境\Scripts\Activate.ps1`) || !strings.Contains(w.Cmd, `Scripts\activate.bat`) || w.Posix != "" {
		t.Fatalf("windows activation %+v", w)
	}
	l := activationFor("/home/me/venvs/torch gpu", "linux")
	if l.Posix != "source '/home/me/venvs/torch gpu/bin/activate'" || l.PowerShell != "" {
		t.Fatalf("linux activation %+v", l)
	}
}

// A conda env is entered with conda activate: the wizard's done screen and its summary show that
// command (it used to be lost between pyenv's hint lines and the screen's fields).
func TestCondaEnvShowsItsActivationCommand(t *testing.T) {
	env := filepath.Join(t.TempDir(), "my conda env")
	if err := os.MkdirAll(filepath.Join(env, "conda-meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	act := activationFor(env, "linux")
	if want := "conda activate '" + env + "'"; act.Conda != want || act.Posix != "" || act.PowerShell != "" || act.Cmd != "" {
		t.Fatalf("conda activation %+v, want Conda %q only", act, want)
	}
	c := testCommon(newFakeBackend(), false)
	cd := cand("torch", "2.7.1", "cu126", "12.6", true)
	s := newDoneScreen(c, choices{venv: env, candidate: &cd, outcome: &app.Outcome{OK: true, Result: "installed"}})
	s.SetSize(120, 30)
	s.Update(activationMsg{value: act.list})
	mustContain(t, s.View(), "Activate it", "conda", "conda activate '"+env+"'")
}

// Issue: changing a Paddle venv's channel showed "Now: PaddlePaddle 3.0.0 on ." although the lock
// file named cu126: Paddle's version has no +cu126, so the channel comes from gpuwiz's lock file.
func TestPaddleChannelComesFromTheLock(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	venv := filepath.Join(t.TempDir(), "paddle env")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	sp, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if len(sp) != 1 {
		t.Fatalf("site-packages: %v", sp)
	}
	info := filepath.Join(sp[0], "paddlepaddle_gpu-3.0.0.dist-info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(info, "METADATA"), []byte("Metadata-Version: 2.1\nName: paddlepaddle-gpu\nVersion: 3.0.0\n"), 0o644))
	b := app.NewWizard(&app.Env{G: &app.Globals{}})
	got, err := b.InspectVenv(context.Background(), venv)
	if err != nil || got.Framework != "paddle" || got.Channel != "" {
		t.Fatalf("without a lock: %+v %v (the channel is unknown, not made up)", got, err)
	}
	must(os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("# written by gpuwiz: pip freeze of "+venv+" after installing paddle 3.0.0 (cu126)\npaddlepaddle-gpu==3.0.0\n"), 0o644))
	got, err = b.InspectVenv(context.Background(), venv)
	if err != nil || got.Channel != "cu126" {
		t.Fatalf("with gpuwiz's lock: %+v %v", got, err)
	}
}

func TestChannelScreenSaysAnUnknownCurrentChannel(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	cur := &app.VenvInfo{Framework: "paddle", FrameworkVersion: "3.0.0"}
	s := newChannelScreen(c, newFakeBackend().report, "paddle", "3.0.0", cur)
	s.SetSize(78, 20)
	settle(t, s, runCmd(s.Init())...)
	v := s.View()
	if strings.Contains(v, " on .") || !strings.Contains(v, "cannot tell") {
		t.Fatalf("a blank current channel:\n%s", v)
	}
}

// shells are an environment's activation commands by shell, as the done screen shows them.
type shells struct {
	PowerShell, Cmd, Posix, Conda string
	list                          []app.Activation
}

func activationFor(venv, goos string) shells {
	l := app.Venv{Root: venv, GOOS: goos}.Activations()
	return shells{PowerShell: activationIn(l, app.ShellPowerShell), Cmd: activationIn(l, app.ShellCmd),
		Posix: activationIn(l, app.ShellPosix), Conda: activationIn(l, app.ShellConda), list: l}
}
