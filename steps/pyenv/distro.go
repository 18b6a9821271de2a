package pyenv

import (
	"bufio"
	"os"
	"strings"

	"gpuwiz/steps/i18n"
)

// Distro is what /etc/os-release says about a Linux distribution (freedesktop.org os-release(5)).
type Distro struct {
	ID        string   `json:"id"`                // "ubuntu", "fedora", "arch", "opensuse-tumbleweed"
	Like      []string `json:"id_like,omitempty"` // ID_LIKE: "debian", "rhel fedora", "suse opensuse"
	VersionID string   `json:"version_id,omitempty"`
	Name      string   `json:"name,omitempty"` // PRETTY_NAME
}

// OSReleasePaths are read in order; os-release(5) says /etc first, then /usr/lib.
var OSReleasePaths = []string{"/etc/os-release", "/usr/lib/os-release"}

// ReadDistro reads the first os-release file that exists; the zero Distro when none does.
func ReadDistro(paths ...string) Distro {
	if len(paths) == 0 {
		paths = OSReleasePaths
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err == nil {
			return ParseOSRelease(string(data))
		}
	}
	return Distro{}
}

// ParseOSRelease reads KEY=value lines; values may be quoted with " or '.
func ParseOSRelease(s string) Distro {
	var d Distro
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		switch k {
		case "ID":
			d.ID = strings.ToLower(v)
		case "ID_LIKE":
			d.Like = strings.Fields(strings.ToLower(v))
		case "VERSION_ID":
			d.VersionID = v
		case "PRETTY_NAME":
			d.Name = v
		}
	}
	return d
}

// Manager is the distribution's package manager: apt, dnf, pacman, zypper, or "" when not known.
func (d Distro) Manager() string {
	for _, id := range append([]string{d.ID}, d.Like...) {
		switch {
		case id == "debian" || id == "ubuntu":
			return "apt"
		case id == "fedora" || id == "rhel" || id == "centos" || id == "rocky" || id == "almalinux" || id == "ol" || id == "amzn":
			return "dnf"
		case id == "arch" || id == "archlinux" || id == "manjaro" || id == "endeavouros":
			return "pacman"
		case id == "suse" || strings.HasPrefix(id, "opensuse") || id == "sles" || id == "sled":
			return "zypper"
		}
	}
	return ""
}

// SystemFix is a command for the user to run (gpuwiz never runs a package manager as root itself).
type SystemFix struct {
	Manager  string   `json:"manager"`  // apt, dnf, pacman, zypper
	Packages []string `json:"packages"` // "python3.12-venv"
	Command  string   `json:"command"`  // "sudo apt install python3.12-venv"
	Note     string   `json:"note,omitempty"`
}

// command is "sudo MANAGER install PKGS" in each manager's own words; no sudo when already root.
func fixCommand(manager string, root bool, pkgs ...string) SystemFix {
	verb := map[string]string{"apt": "apt install", "dnf": "dnf install", "pacman": "pacman -S --needed", "zypper": "zypper install"}[manager] //i18n:raw argv
	cmd := verb + " " + strings.Join(pkgs, " ")
	if !root {
		cmd = "sudo " + cmd
	}
	return SystemFix{Manager: manager, Packages: pkgs, Command: cmd}
}

func isRoot() bool { return os.Geteuid() == 0 }

// PythonInstallFix is how to get Python minor ("3.12") with venv and ensurepip on d; ok is false
// when the distribution's manager is not known.
func PythonInstallFix(d Distro, minor string) (SystemFix, bool) {
	nodot := strings.ReplaceAll(minor, ".", "")
	switch m := d.Manager(); m {
	case "apt":
		f := fixCommand(m, isRoot(), "python"+minor, "python"+minor+"-venv")
		f.Note = i18n.T("pyenv.distro.apt", i18n.D{"Minor": minor})
		return f, true
	case "dnf":
		f := fixCommand(m, isRoot(), "python"+minor)
		f.Note = i18n.T("pyenv.distro.dnf")
		return f, true
	case "pacman":
		f := fixCommand(m, isRoot(), "python")
		f.Note = i18n.T("pyenv.distro.pacman")
		return f, true
	case "zypper":
		return fixCommand(m, isRoot(), "python"+nodot), true
	}
	return SystemFix{}, false
}

// VenvFix is how to give in (a distribution's Python that lacks venv or ensurepip) what it misses.
// ok is false when in is not the distribution's own Python or the distribution is not known: on
// Debian and Ubuntu their patched Python (site-packages named dist-packages), elsewhere a Python
// in /usr/bin.
func VenvFix(in Interpreter, d Distro) (SystemFix, bool) {
	minor := in.MinorVersion()
	switch m := d.Manager(); {
	case m == "apt" && in.debianLayout:
		f := fixCommand(m, isRoot(), "python"+minor+"-venv")
		f.Note = i18n.T("pyenv.distro.apt_venv", i18n.D{"Minor": minor})
		return f, true
	case (m == "dnf" || m == "pacman" || m == "zypper") && in.Kind == "system":
		f, _ := PythonInstallFix(d, minor)
		f.Note = i18n.T("pyenv.distro.reinstall")
		return f, true
	}
	return SystemFix{}, false
}

// NoVenvWarning says that in cannot create a venv and what to do, or "" when it can.
func NoVenvWarning(in Interpreter, d Distro) string {
	if len(in.VenvMissing) == 0 {
		return ""
	}
	modules := in.VenvMissing[len(in.VenvMissing)-1]
	for i := len(in.VenvMissing) - 2; i >= 0; i-- {
		modules = i18n.T("pyenv.and", i18n.D{"A": in.VenvMissing[i], "B": modules})
	}
	what := i18n.T("pyenv.novenv.missing_module", i18n.D{"Module": modules})
	if len(in.VenvMissing) > 1 {
		what = i18n.T("pyenv.novenv.missing_modules", i18n.D{"Modules": modules})
	}
	if f, ok := VenvFix(in, d); ok {
		return i18n.T("pyenv.novenv.fix", i18n.D{"What": what, "Note": f.Note, "Command": f.Command})
	}
	return i18n.T("pyenv.novenv.other", i18n.D{"What": what})
}

// NoteVenvSupport adds to in, when it cannot create a venv, the warning and the command that fixes it.
func NoteVenvSupport(in *Interpreter, d Distro) {
	if len(in.VenvMissing) == 0 {
		return
	}
	if f, ok := VenvFix(*in, d); ok {
		in.VenvFix = &f
	}
	in.Warnings = append(in.Warnings, NoVenvWarning(*in, d))
}
