package pyenv

import (
	"strconv"

	"gpuwiz/steps/i18n"
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
		return i18n.T("pyenv.no_python.windows", i18n.D{"Minor": minor})
	}
	if f, ok := PythonInstallFix(d, minor); ok {
		return i18n.T("pyenv.no_python.distro", i18n.D{"Minor": minor, "Command": f.Command, "Note": f.Note})
	}
	return i18n.T("pyenv.no_python.other", i18n.D{"Minor": minor})
}
