package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
)

// A portable bundle's embedded Python is an environment, not a venv: the path's check says which
// kind is there, and the done screen says the environment keeps its build (or does not), labelled
// environment; a venv's screens still say venv.
func TestBundleScreensSayEnvironment(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	s := newVenvScreen(c, JourneyNew, "torch")
	s.SetSize(78, 30)
	s.input.SetValue("/b/python_embeded")
	s.Update(venvCheckMsg{addr: addr{s.id}, about: "/b/python_embeded", value: app.PathCheck{Exists: true, Env: "embedded Python"}})
	v := ansi.Strip(s.View())
	mustContain(t, v, "an environment is here (embedded Python)")
	if strings.Contains(v, "a venv is already here") {
		t.Errorf("the path's check calls the bundle a venv:\n%s", v)
	}

	for _, ok := range []bool{true, false} {
		for _, notVenv := range []bool{true, false} {
			o := &app.Outcome{OK: true, Result: "installed", LogPath: "/l.log", LockFile: "/b/python_embeded/requirements.lock",
				ConstraintsFile: "/b/python_embeded/constraints.txt", NotVenv: notVenv}
			if ok {
				o.Protected = "/b/python_embeded/pip.conf"
			}
			d := newDoneScreen(c, choices{venv: "/b/python_embeded", outcome: o, verify: &app.Checklist{OK: ok, Checks: []app.Check{{Title: "matmul on the GPU", OK: ok}}}})
			d.SetSize(78, 40)
			v := ansi.Strip(d.View())
			says := strings.Contains(v, "This venv") || strings.Contains(v, "the venv does not keep") || strings.Contains(v, "\nvenv ")
			env := strings.Contains(v, "This environment keeps its build by itself") || strings.Contains(v, "the environment does not keep it")
			if says == notVenv || env != notVenv || strings.Contains(v, "\nenvironment ") != notVenv {
				t.Errorf("verified %v, no venv %v: the done screen's words for it:\n%s", ok, notVenv, v)
			}
		}
	}
}

// A folder with files but no Python environment, typed where an existing environment is asked for,
// is said to be no environment, with the kinds that are: not "choose a new or empty directory",
// which is a new venv's advice.
func TestExistingJourneyCallsAFolderNoEnvironment(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	for _, j := range []Journey{JourneyChange, JourneyRepair} {
		s := newVenvScreen(c, j, "torch")
		s.SetSize(78, 30)
		s.input.SetValue("/etc")
		s.Update(venvCheckMsg{addr: addr{s.id}, about: "/etc", value: app.PathCheck{Path: "/etc", NotEnv: true, Errors: []string{"/etc is not empty and not a venv: choose a new or empty directory (e.g. /etc/venv)"}}})
		v := ansi.Strip(s.View())
		mustContain(t, v, "no Python environment gpuwiz knows")
		if strings.Contains(v, "new or empty directory") {
			t.Errorf("journey %v: the existing environment's screen gives a new venv's advice:\n%s", j, v)
		}
	}
	s := newVenvScreen(c, JourneyNew, "torch")
	s.SetSize(78, 30)
	s.input.SetValue("/etc")
	s.Update(venvCheckMsg{addr: addr{s.id}, about: "/etc", value: app.PathCheck{Path: "/etc", NotEnv: true, Errors: []string{"/etc is not empty and not a venv: choose a new or empty directory (e.g. /etc/venv)"}}})
	mustContain(t, ansi.Strip(s.View()), "new or empty directory")
}

// Enter with no path typed: the existing environment's screen asks for a Python environment's
// folder (or one of those listed), the new venv's screen for the venv's path.
func TestEmptyPathAsksForTheJourneysKindOfFolder(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	for _, j := range []Journey{JourneyChange, JourneyRepair} {
		s := newVenvScreen(c, j, "torch")
		s.SetSize(78, 30)
		s.input.SetValue("")
		s.submit()
		v := ansi.Strip(s.View())
		mustContain(t, v, "Type the folder of the Python environment")
		if strings.Contains(v, "path of the venv") {
			t.Errorf("journey %v: asks for a venv's path:\n%s", j, v)
		}
	}
	s := newVenvScreen(c, JourneyNew, "torch")
	s.SetSize(78, 30)
	s.input.SetValue("")
	s.submit()
	mustContain(t, ansi.Strip(s.View()), "Type the path of the venv.")
}

// With no environment listed above the input, Enter on an empty path does not ask to pick one of
// them; with one listed, it does.
func TestEmptyPathOffersAPickOnlyWhenSomethingIsListed(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	for _, listed := range []bool{false, true} {
		s := newVenvScreen(c, JourneyChange, "torch")
		s.SetSize(78, 30)
		var msg knownVenvsMsg
		if listed {
			msg.list = []app.KnownVenv{{Path: "/srv/envs/torch", Framework: "torch"}}
		}
		s.known.set(msg, JourneyChange)
		s.input.SetValue("")
		s.submit()
		v := ansi.Strip(s.View())
		mustContain(t, v, "Type the folder of the Python environment")
		if got := strings.Contains(v, "listed above"); got != listed {
			t.Errorf("listed %v: the notice asks to pick one listed above: %v\n%s", listed, got, v)
		}
	}
}

// A file typed where an existing environment is asked for: the screen does not pass on a new venv's
// advice (choose another venv path, move the file away); it says what to type, the interpreter
// included. A new venv's journey keeps that advice.
func TestAFileIsNoEnvironmentsInterpreter(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	newVenvAdvice := "choose another venv path or move the file away"
	for _, j := range []Journey{JourneyChange, JourneyNew} {
		s := newVenvScreen(c, j, "torch")
		s.SetSize(100, 30)
		s.input.SetValue("/srv/notes.txt")
		s.check = &app.PathCheck{Path: "/srv/notes.txt", File: true, Errors: []string{"/srv/notes.txt is a file, not a directory: " + newVenvAdvice}}
		v := ansi.Strip(s.View())
		if j == JourneyNew {
			mustContain(t, v, newVenvAdvice)
			continue
		}
		mustContain(t, v, "is a file, not the Python of an environment", "python executable")
		if strings.Contains(v, "move the file away") {
			t.Errorf("the existing environment's journey passes on a new venv's advice:\n%s", v)
		}
	}
}
