package pyenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// os-release files as the distributions ship them (the lines that matter).
var osReleases = map[string]string{
	"ubuntu":     "PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\nID_LIKE=debian\n",
	"mint":       "NAME=\"Linux Mint\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\n",
	"fedora":     "NAME=\"Fedora Linux\"\nVERSION_ID=41\nID=fedora\n",
	"rocky":      "NAME=\"Rocky Linux\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.4\"\n",
	"arch":       "NAME=\"Arch Linux\"\nID=arch\n# a comment\n",
	"manjaro":    "NAME=\"Manjaro Linux\"\nID=manjaro\nID_LIKE=arch\n",
	"tumbleweed": "NAME=\"openSUSE Tumbleweed\"\nID=\"opensuse-tumbleweed\"\nID_LIKE=\"opensuse suse\"\n",
	"alpine":     "NAME=\"Alpine Linux\"\nID=alpine\n",
}

func TestDistroManager(t *testing.T) {
	want := map[string]string{"ubuntu": "apt", "mint": "apt", "fedora": "dnf", "rocky": "dnf", "arch": "pacman", "manjaro": "pacman", "tumbleweed": "zypper", "alpine": ""}
	for name, text := range osReleases {
		if got := ParseOSRelease(text).Manager(); got != want[name] {
			t.Errorf("%s: manager %q, want %q", name, got, want[name])
		}
	}
	if d := ParseOSRelease(osReleases["ubuntu"]); d.ID != "ubuntu" || d.VersionID != "24.04" || d.Name != "Ubuntu 24.04.1 LTS" {
		t.Errorf("parsed %+v", d)
	}
}

func TestReadDistroTakesTheFirstFileThatExists(t *testing.T) {
	dir := t.TempDir()
	usr := filepath.Join(dir, "usr-os-release")
	if err := os.WriteFile(usr, []byte(osReleases["fedora"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := ReadDistro(filepath.Join(dir, "missing"), usr); d.ID != "fedora" {
		t.Fatalf("got %+v", d)
	}
	if d := ReadDistro(filepath.Join(dir, "missing")); d.Manager() != "" {
		t.Fatalf("no file: %+v", d)
	}
}

func TestPythonInstallFixPerDistribution(t *testing.T) {
	sudo := "sudo "
	if isRoot() {
		sudo = ""
	}
	want := map[string]string{
		"ubuntu": "apt install python3.12 python3.12-venv", "fedora": "dnf install python3.12", "rocky": "dnf install python3.12",
		"arch": "pacman -S --needed python", "tumbleweed": "zypper install python312",
	}
	for name, cmd := range want {
		f, ok := PythonInstallFix(ParseOSRelease(osReleases[name]), "3.12")
		if !ok || f.Command != sudo+cmd {
			t.Errorf("%s: %+v, want %q", name, f, sudo+cmd)
		}
	}
	if _, ok := PythonInstallFix(ParseOSRelease(osReleases["alpine"]), "3.12"); ok {
		t.Error("alpine has no known command")
	}
	adv := NoPythonAdviceFor("linux", "3.12", ParseOSRelease(osReleases["ubuntu"]))
	if !strings.Contains(adv, "`"+sudo+"apt install python3.12 python3.12-venv`") {
		t.Errorf("advice: %s", adv)
	}
	if adv := NoPythonAdviceFor("linux", "3.12", Distro{}); !strings.Contains(adv, "python3-venv") {
		t.Errorf("unknown distribution: %s", adv)
	}
}

func TestVenvFixOnlyForTheDistributionsOwnPython(t *testing.T) {
	ubuntu, fedora := ParseOSRelease(osReleases["ubuntu"]), ParseOSRelease(osReleases["fedora"])
	deb := Interpreter{Version: "3.12.3", Kind: "system", VenvMissing: []string{"ensurepip"}, debianLayout: true}
	if f, ok := VenvFix(deb, ubuntu); !ok || strings.Join(f.Packages, " ") != "python3.12-venv" {
		t.Errorf("Ubuntu's python3.12: %+v", f)
	}
	pyenvPy := Interpreter{Version: "3.12.3", Kind: "pyenv", VenvMissing: []string{"ensurepip"}}
	if f, ok := VenvFix(pyenvPy, ubuntu); ok {
		t.Errorf("a pyenv build on Ubuntu gets no apt package: %+v", f)
	}
	sys := Interpreter{Version: "3.13.0", Kind: "system", VenvMissing: []string{"venv", "ensurepip"}}
	if f, ok := VenvFix(sys, fedora); !ok || f.Packages[0] != "python3.13" {
		t.Errorf("Fedora's python3.13: %+v", f)
	}
	if w := NoVenvWarning(sys, Distro{}); !strings.Contains(w, "venv and ensurepip modules are missing") {
		t.Errorf("two missing: %s", w)
	}
}
