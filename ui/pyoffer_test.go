package ui

import (
	"context"
	"errors"
	"testing"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// pyGetter is the fake backend with no Python until InstallPython "installs" one.
type pyGetter struct {
	*fakeBackend
	offer    app.PythonOffer
	installs []string
	has      bool
}

var installedPy = app.Interpreter{Path: `C:\Users\me\AppData\Local\Programs\Python\Python312\python.exe`, Version: "3.12.10", Bits: 64, Kind: "python.org", Source: "registry"}

func (g *pyGetter) Pythons(ctx context.Context) ([]app.Interpreter, error) {
	if g.has {
		return []app.Interpreter{installedPy}, nil
	}
	return nil, nil
}
func (g *pyGetter) PythonOffer() app.PythonOffer { return g.offer }
func (g *pyGetter) InstallPython(ctx context.Context, minor string) (app.Interpreter, error) {
	g.installs = append(g.installs, minor)
	g.has = true
	return installedPy, nil
}

// With no Python the screen says how to get one; on Windows enter again installs it for this user,
// the list is read again and the new Python makes the venv.
func TestVenvScreenOffersToInstallPython(t *testing.T) {
	g := &pyGetter{fakeBackend: newFakeBackend(), offer: app.PythonOffer{Minor: "3.12", Method: "winget", CanInstall: true}}
	m := newTestRoot(g)
	press(t, m, "enter", "enter", "enter", "enter")
	topIs[*venvScreen](t, m)
	press(t, m, "enter")
	mustContain(t, m.View(), "No Python was found", "Press enter to install Python 3.12", "with winget")
	if len(g.installs) != 0 {
		t.Fatal("installed before the user agreed")
	}
	press(t, m, "enter")
	if len(g.installs) != 1 || g.installs[0] != "3.12" {
		t.Fatalf("installs %v", g.installs)
	}
	s := topIs[*venvScreen](t, m)
	mustContain(t, m.View(), "Python 3.12.10 is installed for you", `Python312\python.exe`)
	if len(s.pythons) != 1 {
		t.Fatalf("pythons after the install: %+v", s.pythons)
	}
	press(t, m, "enter")
	topIs[*sourcesScreen](t, m)
	press(t, m, "enter")
	topIs[*planScreen](t, m)
	if n := len(g.plans); n == 0 || g.plans[n-1].Python != installedPy.Path {
		t.Fatalf("plan requests %+v, want the new Python", g.plans)
	}
}

// On Linux the screen shows the distribution's command and installs nothing itself.
func TestVenvScreenShowsTheDistributionCommand(t *testing.T) {
	g := &pyGetter{fakeBackend: newFakeBackend(), offer: app.PythonOffer{Minor: "3.12", Method: app.PythonByDistro, NeedsRoot: true, Command: "sudo apt install python3.12 python3.12-venv"}}
	m := newTestRoot(g)
	press(t, m, "enter", "enter", "enter", "enter", "enter")
	mustContain(t, m.View(), "sudo apt install python3.12 python3.12-venv", "then run gpuwiz again")
	press(t, m, "enter")
	if len(g.installs) != 0 {
		t.Fatalf("installed on Linux: %v", g.installs)
	}
	topIs[*venvScreen](t, m)
}

// condaBackend finds one conda env, which holds torch.
type condaBackend struct{ *fakeBackend }

const condaEnv = `C:\Users\me\miniconda3\envs\torch`

func (c condaBackend) Pythons(ctx context.Context) ([]app.Interpreter, error) {
	l, err := c.fakeBackend.Pythons(ctx)
	return append(l, app.Interpreter{Path: condaEnv + `\python.exe`, Version: "3.11.9", Bits: 64, Kind: "conda", Source: "conda", Prefix: condaEnv}), err
}

func (c condaBackend) CheckVenv(path string) app.PathCheck {
	if path == condaEnv {
		return app.PathCheck{Exists: true, Conda: true}
	}
	return c.fakeBackend.CheckVenv(path)
}

// Changing an existing environment lists the conda envs found beside the typed path, and a conda
// env is taken as the target.
func TestExistingEnvScreenListsCondaEnvs(t *testing.T) {
	fb := newFakeBackend()
	fb.venvs[condaEnv] = app.VenvInfo{Path: condaEnv, PythonVersion: "3.11.9", Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu118"}
	m := newTestRoot(condaBackend{fb})
	m.c.Paths.GOOS, m.c.Paths.Cwd = "windows", `C:\work` // the env's path is a Windows one
	press(t, m, "down", "enter")
	topIs[*venvScreen](t, m)
	mustContain(t, m.View(), "conda env: "+condaEnv, "conda-meta")
	typeText(t, m, condaEnv)
	mustContain(t, m.View(), "a conda env is here: gpuwiz installs into it with its own pip", "holds: Python 3.11.9")
	press(t, m, "enter")
	topIs[*gpuScreen](t, m) // the env is taken; the journey goes on
}

// How the offered Python would be got, in the wizard's words, for each way app names.
func TestOfferSaysHowThePythonIsGot(t *testing.T) {
	i18n.Set(i18n.English)
	for _, c := range []struct {
		o    app.PythonOffer
		want string
	}{
		{app.PythonOffer{Method: "winget", CanInstall: true}, "with winget (for you alone, no administrator rights)"},
		{app.PythonOffer{Method: app.PythonByInstaller, CanInstall: true}, "with python.org installer (for you alone, no administrator rights)"},
		{app.PythonOffer{Method: app.PythonByDistro, NeedsRoot: true, Command: "sudo apt install python3.12"}, "from your distribution (gpuwiz does not run a package manager as root)"},
		{app.PythonOffer{Method: app.PythonByDistro}, "from your distribution's packages"},
		{app.PythonOffer{Err: errors.New("no python.org build for this system")}, "no python.org build for this system"},
	} {
		if got := offerHow(c.o); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
}
