package pyenv

import (
	"strings"
	"testing"
)

func TestRecommendedMinorIsTheNewestMostSupported(t *testing.T) {
	cases := []struct {
		ranges []PythonRange
		want   string
	}{
		{[]PythonRange{{"3.8", "3.12"}, {"3.9", "3.13"}, {"3.10", "3.14"}}, "3.12"},
		{[]PythonRange{{"3.10", "3.14"}, {"3.10", "3.14"}, {"3.8", "3.11"}}, "3.11"},
		{[]PythonRange{{"3.10", "3.14"}}, "3.14"},
		{[]PythonRange{{"x", "3.14"}, {"3.9", ""}}, fallbackMinor},
		{nil, fallbackMinor},
	}
	for _, c := range cases {
		if got := RecommendedMinor(c.ranges); got != c.want {
			t.Errorf("RecommendedMinor(%v) = %s, want %s", c.ranges, got, c.want)
		}
	}
}

func TestNoPythonAdviceNamesVersionAndSource(t *testing.T) {
	w := NoPythonAdvice("windows", "3.12")
	for _, want := range []string{"Python 3.12", "python.org", "not the Microsoft Store", "--python PATH", "64-bit"} {
		if !strings.Contains(w, want) {
			t.Errorf("windows advice lacks %q: %s", want, w)
		}
	}
	l := NoPythonAdvice("linux", "3.11")
	if !strings.Contains(l, "Python 3.11") || strings.Contains(l, "Microsoft Store") {
		t.Errorf("linux advice: %s", l)
	}
}
