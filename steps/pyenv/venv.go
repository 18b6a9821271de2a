package pyenv

import (
	"context"
	"errors"
	"gpuwiz/steps/shellquote"
	"os"
	"path/filepath"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

// Venv is a Python environment's root, laid out for GOOS: a virtual environment (pyvenv.cfg), or a
// conda env (conda-meta/ and its own python, no pyvenv.cfg), which gpuwiz installs into with that
// env's pip in the same way.
type Venv struct {
	Root string
	GOOS string // "" means the running OS
}

func (v Venv) goos() string {
	if v.GOOS == "" {
		return goosRuntime
	}
	return v.GOOS
}

// join uses the target OS's separator, so a Windows layout is testable on Linux.
func (v Venv) join(parts ...string) string {
	if v.goos() == "windows" {
		root := strings.TrimRight(v.Root, `\/`)
		return root + `\` + strings.Join(parts, `\`)
	}
	return filepath.Join(append([]string{v.Root}, parts...)...)
}

// BinDir is Scripts on Windows, bin elsewhere.
func (v Venv) BinDir() string {
	if v.goos() == "windows" {
		return v.join("Scripts")
	}
	return v.join("bin")
}

// Python is the environment's interpreter: Scripts\python.exe in a Windows venv, python.exe at the
// root of a Windows conda env, bin/python in a venv elsewhere, and for an embedded Python or a plain
// prefix the interpreter its files hold (Layout). A folder holding none gets the venv's path.
func (v Venv) Python() string {
	if st, err := os.Stat(v.Config()); err == nil && st.Mode().IsRegular() {
		return v.venvPython() // the fast path: one stat, as before
	}
	if v.IsConda() {
		return v.CondaPython()
	}
	if l := v.Layout(); l.Python != "" {
		return l.Python
	}
	return v.venvPython()
}

func (v Venv) venvPython() string {
	if v.goos() == "windows" {
		return v.join("Scripts", "python.exe")
	}
	return v.join("bin", "python")
}

// CondaPython is where a conda env keeps its interpreter, by layout alone.
func (v Venv) CondaPython() string {
	if v.goos() == "windows" {
		return v.join("python.exe")
	}
	return v.join("bin", "python")
}

// Config is pyvenv.cfg, whose presence makes a directory a venv.
func (v Venv) Config() string { return v.join("pyvenv.cfg") }

// CondaMeta is conda-meta, whose presence makes a directory a conda env.
func (v Venv) CondaMeta() string { return v.join("conda-meta") }

// Exists reports whether Root holds a Python environment: a venv (pyvenv.cfg), a conda env, an
// embedded Python or a plain prefix (Layout).
func (v Venv) Exists() bool {
	st, err := os.Stat(v.Config())
	return err == nil && st.Mode().IsRegular() || v.IsConda() || v.Layout().Kind != ""
}

// IsConda reports a conda env: conda-meta/ and no pyvenv.cfg (a venv made from a conda Python is
// a venv, whatever its base holds).
func (v Venv) IsConda() bool {
	if st, err := os.Stat(v.Config()); err == nil && st.Mode().IsRegular() {
		return false
	}
	st, err := os.Stat(v.CondaMeta())
	return err == nil && st.IsDir()
}

// Kind is the environment's kind in words ("conda env", "venv", "embedded Python", "Python
// prefix"), for messages.
func (v Venv) Kind() string { return KindWords(v.Layout()) }

// KindWords is a layout's kind in words; a venv made by uv says so.
func KindWords(l Layout) string {
	if l.Kind == EnvVenv && l.UV != "" {
		return i18n.T("pyenv.kind.uv_venv")
	}
	return kindWords.Say(l.Kind, i18n.T("pyenv.kind.venv"))
}

var kindWords = i18n.Words[string]{
	EnvConda:    func() string { return i18n.T("pyenv.kind.conda") },
	EnvEmbedded: func() string { return i18n.T("pyenv.kind.embedded") },
	EnvPrefix:   func() string { return i18n.T("pyenv.kind.prefix") },
}

// Shells an activation command is typed in.
const (
	ShellPowerShell = "powershell"
	ShellCmd        = "cmd"
	ShellPosix      = "posix" // bash, zsh and other POSIX shells
	ShellConda      = "conda" // conda's own shell integration, any shell
)

// Activation is the command that enters the environment from one shell: a value the front ends put
// into words (a label per shell, PowerShell's execution-policy hint).
type Activation struct {
	Shell   string `json:"shell"`
	Command string `json:"command"`
}

// Activations are the commands a user types to enter the environment, one per shell, each quoted
// for its shell (steps/shellquote) so that it pastes and runs as is: conda activate for a conda env,
// else Activate.ps1 and activate.bat on Windows, source bin/activate elsewhere.
func (v Venv) Activations() []Activation {
	if k := v.Layout().Kind; k == EnvEmbedded || k == EnvPrefix {
		return nil // no activation: its interpreter is run by its path
	}
	if v.IsConda() {
		return []Activation{{ShellConda, shellquote.Command(v.goos(), "conda", "activate", v.Root)}} //i18n:raw a command to type
	}
	if v.goos() == "windows" {
		return []Activation{
			{ShellPowerShell, shellquote.PowerShellCall(v.join("Scripts", "Activate.ps1"))},
			{ShellCmd, shellquote.Cmd(v.join("Scripts", "activate.bat"))},
		}
	}
	return []Activation{{ShellPosix, shellquote.Posix("source", v.join("bin", "activate"))}} //i18n:raw a command to type
}

// ActivateHints are Activations as lines, one per shell ("PowerShell: & ..."), PowerShell's with
// the execution-policy hint after it: the CLI's text and --json activate_hints.
func (v Venv) ActivateHints() []string {
	var out []string
	for _, a := range v.Activations() {
		switch a.Shell {
		case ShellConda:
			out = append(out, "conda: "+a.Command) //i18n:raw the shell's name before its command
		case ShellPowerShell:
			out = append(out, "PowerShell: "+a.Command, "  "+i18n.T("pyenv.activate.execution_policy")) //i18n:raw the shell's name
		case ShellCmd:
			out = append(out, "cmd: "+a.Command) //i18n:raw the shell's name
		case ShellPosix:
			out = append(out, "bash/zsh: "+a.Command) //i18n:raw the shell's names
		}
	}
	return out
}

// Create makes a venv at root with python -m venv, or reuses one that already has pyvenv.cfg.
// A failed creation removes what it made when root did not exist before.
func Create(ctx context.Context, r runner.Runner, python, root string) error {
	return create(ctx, r, python, root)
}

// CreateWithoutPip is Create with python -m venv --without-pip: the venv in well under a second,
// with no pip in it (the caller links one in, or leaves it without).
func CreateWithoutPip(ctx context.Context, r runner.Runner, python, root string) error {
	return create(ctx, r, python, root, "--without-pip")
}

func create(ctx context.Context, r runner.Runner, python, root string, flags ...string) error {
	v := Venv{Root: root}
	if v.Exists() {
		return nil
	}
	if pc := CheckVenvPath(root, goosRuntime); len(pc.Errors) > 0 {
		return errors.New(i18n.JoinClauses(pc.Errors))
	}
	_, statErr := os.Stat(root)
	existed := statErr == nil
	res := r.Run(ctx, runner.Cmd{Name: i18n.T("pyenv.label.create_venv"), Argv: append(append([]string{python, "-m", "venv"}, flags...), root)}, nil)
	if res.Err == nil && !v.Exists() {
		res.Err = errors.New(i18n.T("pyenv.venv.no_cfg", i18n.D{"Venv": root}))
	}
	if res.Err != nil {
		if !existed {
			_ = os.RemoveAll(root)
		}
		return i18n.Wrap(res.Err, i18n.T("pyenv.venv.create_failed", i18n.D{"Venv": root, "Err": res.Err, "Tail": tailNote(res)}))
	}
	return nil
}
