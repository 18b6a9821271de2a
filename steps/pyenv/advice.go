package pyenv

import (
	"fmt"
	"strconv"
)

// PythonRange is the Python minors one framework release supports ("3.9" to "3.13").
type PythonRange struct{ Min, Max string }

// fallbackMinor is offered when no range parses: the newest minor every current build supports.
const fallbackMinor = "3.12"

// RecommendedMinor is the Python minor that the most releases support, the newest on a tie, so a
// fresh install fits as many builds as possible.
func RecommendedMinor(ranges []PythonRange) string {
	count := map[[2]int]int{}
	for _, r := range ranges {
		lo, ok1 := parseMinor(r.Min)
		hi, ok2 := parseMinor(r.Max)
		if !ok1 || !ok2 || lo[0] != hi[0] {
			continue
		}
		for m := lo[1]; m <= hi[1]; m++ {
			count[[2]int{lo[0], m}]++
		}
	}
	best, bestN := [2]int{}, 0
	for v, n := range count {
		if n > bestN || n == bestN && (v[0] > best[0] || v[0] == best[0] && v[1] > best[1]) {
			best, bestN = v, n
		}
	}
	if bestN == 0 {
		return fallbackMinor
	}
	return strconv.Itoa(best[0]) + "." + strconv.Itoa(best[1])
}

// NoPythonAdvice is what to tell someone on goos with no usable Python: which one to install and where.
// On Linux it names the distribution's command, read from /etc/os-release.
func NoPythonAdvice(goos, minor string) string {
	d := Distro{}
	if goos == "linux" && goosRuntime == "linux" {
		d = ReadDistro()
	}
	return NoPythonAdviceFor(goos, minor, d)
}

// NoPythonAdviceFor is NoPythonAdvice for the distribution d.
func NoPythonAdviceFor(goos, minor string, d Distro) string {
	if goos == "windows" {
		return fmt.Sprintf("no Python found (looked on PATH, in the py launcher's list and the registry): run `gpuwiz python install %s` "+
			"to install it for you alone, or install 64-bit Python %s "+
			"from https://www.python.org/downloads/windows/ (the python.org installer, not the Microsoft Store app, whose "+
			"Python breaks GPU builds), tick \"Add python.exe to PATH\", open a new terminal and run gpuwiz python again; "+
			"or pass an interpreter with --python PATH", minor, minor)
	}
	if f, ok := PythonInstallFix(d, minor); ok {
		return fmt.Sprintf("no Python found on PATH or in conda: install Python %s with venv: run `%s` (%s), then run gpuwiz python again; "+
			"or pass an interpreter with --python PATH", minor, f.Command, f.Note)
	}
	return fmt.Sprintf("no Python found on PATH or in conda: install Python %s (64-bit, with venv: e.g. apt install python3 python3-venv, "+
		"or the python.org build) and run gpuwiz python again; or pass an interpreter with --python PATH", minor)
}
