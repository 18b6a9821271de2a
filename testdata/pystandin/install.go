package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// installer stands in for winget (`winget install --id Python.Python.3.X -e --scope user --silent
// --accept-package-agreements --accept-source-agreements`, and `winget uninstall`) and for the
// python.org installer (`python-3.X.Y-amd64.exe /quiet InstallAllUsers=0 ...`, and `/uninstall`).
// Installing copies this program as %LOCALAPPDATA%\Programs\Python\Python3X\python.exe with its
// pystandin.json, and registers it under HKCU\Software\Python\PythonCore\3.X (PEP 514), as the
// per-user python.org installer does. Every call is appended to calls.log beside the program.
func installer(self, name string, args []string) int {
	logCall(self, args)
	var minor, version string
	uninstall := false
	if name == "winget" {
		i := slices.Index(args, "--id")
		if len(args) < 1 || i < 0 || i+1 >= len(args) || !strings.HasPrefix(args[i+1], "Python.Python.3.") {
			fmt.Fprintln(os.Stderr, "winget stand-in: only install/uninstall --id Python.Python.3.X is answered")
			return 1
		}
		minor = strings.TrimPrefix(args[i+1], "Python.Python.")
		switch args[0] {
		case "install":
			for _, want := range []string{"-e", "--silent", "--accept-package-agreements", "--accept-source-agreements"} {
				if !slices.Contains(args, want) {
					fmt.Fprintf(os.Stderr, "winget stand-in: %s missing\n", want)
					return 1
				}
			}
			if j := slices.Index(args, "--scope"); j < 0 || j+1 >= len(args) || args[j+1] != "user" {
				fmt.Fprintln(os.Stderr, "winget stand-in: only --scope user is answered (no administrator here)")
				return 1
			}
		case "uninstall":
			uninstall = true
		default:
			fmt.Fprintf(os.Stderr, "winget stand-in: %q is not answered\n", args[0])
			return 1
		}
		version = minor + ".10"
		if cfg, err := readConfig(filepath.Join(filepath.Dir(self), "pystandin.json")); err == nil && cfg.Version != "" {
			version = cfg.Version
		}
		fmt.Printf("Found Python %s [Python.Python.%s] Version %s\r\nSuccessfully installed\r\n", minor, minor, version)
	} else {
		version = strings.TrimSuffix(strings.TrimPrefix(name, "python-"), "-amd64")
		p := strings.Split(version, ".")
		if len(p) != 3 {
			fmt.Fprintln(os.Stderr, "installer stand-in: name it python-3.X.Y-amd64.exe")
			return 1
		}
		minor = p[0] + "." + p[1]
		uninstall = slices.Contains(args, "/uninstall")
		if !uninstall {
			for _, want := range []string{"/quiet", "InstallAllUsers=0", "PrependPath=0"} {
				if !slices.Contains(args, want) {
					fmt.Fprintf(os.Stderr, "installer stand-in: %s missing (a per-user quiet install was expected)\n", want)
					return 1
				}
			}
		}
	}
	local := os.Getenv("LOCALAPPDATA")
	if local == "" {
		fmt.Fprintln(os.Stderr, "stand-in: LOCALAPPDATA is not set")
		return 1
	}
	dir := filepath.Join(local, "Programs", "Python", "Python"+strings.ReplaceAll(minor, ".", ""))
	if uninstall {
		_ = os.RemoveAll(dir)
		unregister(minor)
		return 0
	}
	data, err := os.ReadFile(self)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "python.exe"), data, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "pystandin.json"), []byte(fmt.Sprintf(`{"version": %q, "bits": 64}`, version)), 0o644)
	}
	if err == nil {
		err = register(minor, dir)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "stand-in install: %v\n", err)
		return 1
	}
	return 0
}

func logCall(self string, args []string) {
	f, err := os.OpenFile(filepath.Join(filepath.Dir(self), "calls.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", filepath.Base(self), strings.Join(args, " "))
}
