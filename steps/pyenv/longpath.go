package pyenv

import (
	"archive/zip"
	"strings"

	"gpuwiz/steps/i18n"
)

// maxPath is the longest path Windows opens without long-path support: MAX_PATH (260) less the
// terminating NUL.
const maxPath = 259

// LongPaths is HKLM\SYSTEM\CurrentControlSet\Control\FileSystem LongPathsEnabled.
type LongPaths struct {
	Known   bool // the value could be read (false off Windows, or when it is not set)
	Enabled bool // LongPathsEnabled = 1
}

// LongPathsCommand is the PowerShell command, run as administrator, that turns long paths on.
const LongPathsCommand = `New-ItemProperty -Path "HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem" -Name LongPathsEnabled -Value 1 -PropertyType DWORD -Force` //i18n:raw a PowerShell command

// DeepestFile is the longest path a set of wheels installs below the environment's root, in the
// Windows layout (Lib\site-packages\..., Scripts\..., Include\...), with its length in characters.
type DeepestFile struct {
	Path   string `json:"path"`
	Length int    `json:"length"`
}

// DeepestWheelFile reads the file lists of wheels (each zip's central directory, which is what the
// wheel's RECORD lists) and returns the longest path any of them installs below the root.
func DeepestWheelFile(wheels []string) (DeepestFile, error) {
	var best DeepestFile
	for _, w := range wheels {
		z, err := zip.OpenReader(w)
		if err != nil {
			return DeepestFile{}, err
		}
		for _, f := range z.File {
			if strings.HasSuffix(f.Name, "/") {
				continue
			}
			p := installedPath(f.Name)
			if n := len([]rune(p)); n > best.Length {
				best = DeepestFile{Path: p, Length: n}
			}
		}
		z.Close()
	}
	return best, nil
}

// installedPath is where a wheel member lands below a Windows environment's root (the wheel spec's
// .data scheme keys: purelib and platlib to site-packages, scripts to Scripts, headers to Include,
// data to the root).
func installedPath(member string) string {
	const sp = `Lib\site-packages\`
	first, rest, ok := strings.Cut(member, "/")
	if ok && strings.HasSuffix(first, ".data") {
		key, file, _ := strings.Cut(rest, "/")
		switch key {
		case "purelib", "platlib":
			return sp + strings.ReplaceAll(file, "/", `\`)
		case "scripts":
			return `Scripts\` + strings.ReplaceAll(file, "/", `\`)
		case "headers":
			return `Include\` + strings.ReplaceAll(file, "/", `\`)
		case "data":
			return strings.ReplaceAll(file, "/", `\`)
		}
	}
	return sp + strings.ReplaceAll(member, "/", `\`)
}

// BuildFits says whether a build whose deepest file is deepest fits below root on goos: it does
// not exactly when goos is windows, long paths are off (or unknown) and root\deepest is longer than
// Windows opens without them. The warning names the file, the lengths and both fixes: the registry
// switch (administrator) or a root short enough.
func BuildFits(root string, deepest DeepestFile, goos string, lp LongPaths) (warning string) {
	if goos != "windows" || lp.Known && lp.Enabled || deepest.Length == 0 {
		return ""
	}
	root = strings.TrimRight(root, `\/`)
	total := len([]rune(root)) + 1 + deepest.Length
	if total <= maxPath {
		return ""
	}
	file := deepest.Path
	if file == "" {
		file = "…"
	}
	return i18n.T("pyenv.longpath.too_long", i18n.D{
		"Total": total, "Max": maxPath, "Root": root, "File": file, "Deep": deepest.Length,
		"RootMax": maxPath - 1 - deepest.Length, "Command": LongPathsCommand,
	})
}
