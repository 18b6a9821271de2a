package driver

import (
	"bufio"
	"slices"
	"strings"

	"gpuwiz/matrix"
)

// Advice is how a Linux distribution installs NVIDIA's driver. gpuwiz never installs a driver on
// Linux: the distribution's packages build the kernel module for its kernels and keep it updated.
type Advice struct {
	Distro   string   `json:"distro"`             // /etc/os-release ID ("ubuntu"; "" unknown)
	Name     string   `json:"name,omitempty"`     // PRETTY_NAME
	Way      string   `json:"way"`                // "ubuntu-drivers", "apt", "rpmfusion", "nvidia-repo", "pacman", "unknown"
	Commands []string `json:"commands,omitempty"` // to type, in order
	Branch   string   `json:"branch_limit,omitempty"`
	Version  string   `json:"version,omitempty"` // the newest driver gpuwiz knows within the limit
	Source   string   `json:"source"`            // public reference for the commands
}

// ParseOSRelease reads the KEY=value lines of /etc/os-release.
func ParseOSRelease(text string) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		out[k] = strings.Trim(v, `"'`)
	}
	return out
}

// LinuxAdvice names the distribution's way for the cards' choices: the strictest branch limit of
// them all decides the package.
//
//i18n:raw commands to type
func LinuxAdvice(osRelease string, choices []Choice) Advice {
	kv := ParseOSRelease(osRelease)
	id := strings.ToLower(kv["ID"])
	like := strings.Fields(strings.ToLower(kv["ID_LIKE"]))
	is := func(names ...string) bool {
		for _, n := range names {
			if id == n || slices.Contains(like, n) {
				return true
			}
		}
		return false
	}
	a := Advice{Distro: id, Name: kv["PRETTY_NAME"]}
	for _, c := range choices {
		if c.Branch != "" && (a.Branch == "" || c.Branch < a.Branch) {
			a.Branch = c.Branch
		}
		if c.Driver != nil && (a.Version == "" || matrix.DriverLess(c.Driver.Version, a.Version)) {
			a.Version = c.Driver.Version
		}
	}
	switch {
	case is("ubuntu"):
		a.Way = "ubuntu-drivers"
		a.Commands = []string{"sudo ubuntu-drivers install"}
		if a.Branch != "" {
			a.Commands = []string{"sudo ubuntu-drivers install nvidia:" + a.Branch}
		}
		a.Source = "Ubuntu Server documentation, NVIDIA drivers installation (ubuntu-drivers install, ubuntu-drivers install nvidia:<branch>)"
	case is("debian"):
		a.Way = "apt"
		a.Commands = []string{"sudo apt update", "sudo apt install nvidia-driver firmware-misc-nonfree"}
		a.Source = "Debian wiki, NvidiaGraphicsDrivers (the non-free and non-free-firmware components must be enabled)"
	case is("fedora"):
		a.Way = "rpmfusion"
		pkg := "akmod-nvidia"
		if a.Branch != "" {
			pkg = "akmod-nvidia-" + a.Branch + "xx"
		}
		a.Commands = []string{"sudo dnf install " + pkg}
		a.Source = "RPM Fusion, Howto/NVIDIA (akmod-nvidia; legacy branches as akmod-nvidia-<branch>xx, e.g. akmod-nvidia-470xx)"
	case is("rhel", "centos", "rocky", "almalinux"):
		a.Way = "nvidia-repo"
		stream := "latest-dkms"
		if a.Branch != "" {
			stream = a.Branch + "-dkms"
		}
		a.Commands = []string{"sudo dnf module install nvidia-driver:" + stream}
		a.Source = "NVIDIA Driver Installation Guide, Red Hat Enterprise Linux (the CUDA repository's nvidia-driver module streams)"
	case is("arch"):
		a.Way = "pacman"
		a.Commands = []string{"sudo pacman -S nvidia-open"}
		if a.Branch != "" {
			a.Way = "aur"
			a.Commands = []string{"yay -S nvidia-" + a.Branch + "xx-dkms"}
		}
		a.Source = "Arch Linux news on the NVIDIA 590 driver (nvidia-open; Pascal and older cards move to the legacy packages in the AUR)"
	default:
		a.Way = "unknown"
		a.Source = "NVIDIA's Linux drivers, https://www.nvidia.com/Download/index.aspx"
	}
	return a
}
