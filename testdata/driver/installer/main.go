// A stand-in for NVIDIA's driver installer, for tests: it appends its arguments as one line to the
// file GPUWIZ_TEST_INSTALLER_LOG names and exits with the code GPUWIZ_TEST_INSTALLER_EXIT gives
// (0 when unset). It installs nothing.
package main

import (
	"os"
	"strconv"
	"strings"
)

func main() {
	if p := os.Getenv("GPUWIZ_TEST_INSTALLER_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, _ = f.WriteString("ran " + strings.Join(os.Args[1:], " ") + "\n")
			_ = f.Close()
		}
	}
	code, _ := strconv.Atoi(os.Getenv("GPUWIZ_TEST_INSTALLER_EXIT"))
	os.Exit(code)
}
