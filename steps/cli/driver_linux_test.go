package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"gpuwiz/steps/driver"
)

// The Linux advice per distribution, for a Pascal card (the 580 branch and no newer) and a Turing
// and newer card, read from each distribution's /etc/os-release: gpuwiz names the distribution's
// way and never installs. Golden: steps/cli/testdata/TestDriverLinuxAdviceGolden.golden
// (go test -update rewrites it).
func TestDriverLinuxAdviceGolden(t *testing.T) {
	distros := []struct{ name, osRelease string }{
		{"ubuntu", "NAME=\"Ubuntu\"\nID=ubuntu\nID_LIKE=debian\nPRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nVERSION_ID=\"24.04\"\n"},
		{"linuxmint", "NAME=\"Linux Mint\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\nPRETTY_NAME=\"Linux Mint 22.1\"\n"},
		{"debian", "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nNAME=\"Debian GNU/Linux\"\nID=debian\n"},
		{"fedora", "NAME=\"Fedora Linux\"\nID=fedora\nPRETTY_NAME=\"Fedora Linux 42 (Workstation Edition)\"\n"},
		{"rocky", "NAME=\"Rocky Linux\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nPRETTY_NAME=\"Rocky Linux 9.5 (Blue Onyx)\"\n"},
		{"arch", "NAME=\"Arch Linux\"\nPRETTY_NAME=\"Arch Linux\"\nID=arch\n"},
		{"alpine", "NAME=\"Alpine Linux\"\nID=alpine\nPRETTY_NAME=\"Alpine Linux v3.21\"\n"},
		{"none", ""},
	}
	tb, err := driver.EmbeddedTable()
	if err != nil {
		t.Fatal(err)
	}
	cards := map[string]driver.Card{
		"GTX 1070 (Pascal)": {Name: "NVIDIA GeForce GTX 1070", ComputeCapability: "6.1"},
		"RTX 4090 (Ada)":    {Name: "NVIDIA GeForce RTX 4090", ComputeCapability: "8.9"},
	}
	var b strings.Builder
	for _, d := range distros {
		for _, label := range []string{"GTX 1070 (Pascal)", "RTX 4090 (Ada)"} {
			ch := driver.Choose(driver.Request{Cards: []driver.Card{cards[label]}, OS: "linux"}, tb)
			b.WriteString("== " + d.name + ", " + label + "\n")
			b.WriteString(LinuxAdviceText(driver.LinuxAdvice(d.osRelease, ch)) + "\n\n")
		}
	}
	out := b.String()
	for _, must := range []string{"sudo ubuntu-drivers install nvidia:580", "sudo dnf install akmod-nvidia\n", "sudo dnf install akmod-nvidia-580xx"} {
		if !strings.Contains(out, must) {
			t.Errorf("advice lacks %q", must)
		}
	}
	golden.RequireEqual(t, []byte(out))
}
