package main

import (
	"encoding/json"
	"net"
	"os/exec"
	"strings"
	"testing"
)

// With no network (NVIDIA's lookup pointed at a closed loopback port), `gpuwiz driver --check --os
// windows --json` under a --simulate rig answers from the built-in table: a desktop GTX 1060 on
// 456.71 gets a 580-branch desktop driver, a notebook RTX 4060 a notebook driver. The real binary.
func TestDriverCheckOfflineFromTheTable(t *testing.T) {
	bin := goBuild(t, "gpuwiz", nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	type choice struct {
		Card   struct{ Name string }
		Form   string
		Family string
		Branch string `json:"branch_limit"`
		From   string
		Status string
		Driver *struct{ Version, Branch, File, URL, Form string }
		Why    []struct{ Code string }
	}
	run := func(rig string) (choice, string) {
		t.Helper()
		cmd := exec.Command(bin, "--simulate", "testdata/driver/"+rig, "driver", "--check", "--os", "windows", "--json")
		cmd.Env = append(cmd.Environ(), "GPUWIZ_NVIDIA_LOOKUP="+dead, "GPUWIZ_LANG=en")
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 0 {
				t.Fatalf("%s: %v\n%s", rig, err, out)
			}
		}
		var res struct {
			OS        string
			Current   string `json:"current_driver"`
			Simulated bool
			Choices   []choice
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v\n%s", rig, err, out)
		}
		if len(res.Choices) != 1 || res.OS != "windows" || !res.Simulated {
			t.Fatalf("%s: %s", rig, out)
		}
		return res.Choices[0], res.Current
	}
	whys := func(c choice) string {
		var s []string
		for _, w := range c.Why {
			s = append(s, w.Code)
		}
		return strings.Join(s, ",")
	}

	c, cur := run("rig-gtx1060-456.json")
	if cur != "456.71" || c.From != "table" || c.Branch != "580" || c.Form != "desktop" || c.Driver == nil ||
		c.Driver.Branch != "580" || !strings.HasPrefix(c.Driver.Version, "58") || !strings.Contains(c.Driver.File, "-desktop-") ||
		c.Status != "update" || !strings.Contains(whys(c), "lookup_unreachable") || !strings.Contains(whys(c), "branch_580") {
		t.Errorf("GTX 1060 on 456.71: %+v driver %+v why %s", c, c.Driver, whys(c))
	}
	c, _ = run("rig-rtx4060-laptop.json")
	if c.From != "table" || c.Form != "notebook" || c.Branch != "" || c.Driver == nil || c.Driver.Form != "notebook" ||
		!strings.Contains(c.Driver.File, "-notebook-") || !strings.Contains(whys(c), "notebook_name") {
		t.Errorf("RTX 4060 Laptop GPU: %+v driver %+v why %s", c, c.Driver, whys(c))
	}
}
