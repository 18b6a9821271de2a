package matrix

import "testing"

func TestHandWrittenVersionParsers(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
		mm majorMinor
	}{
		{"12.0", true, majorMinor{12, 0}}, {"8.6", true, majorMinor{8, 6}}, {"100.999", true, majorMinor{100, 999}},
		{"1.2.3", false, majorMinor{}}, {"a.b", false, majorMinor{}}, {"1234.0", false, majorMinor{}},
		{"12", false, majorMinor{}}, {".5", false, majorMinor{}}, {"5.", false, majorMinor{}}, {"-1.0", false, majorMinor{}},
		{" 8.6", false, majorMinor{}},
	} {
		if got, ok := parseMajorMinor(tc.in); ok != tc.ok || got != tc.mm {
			t.Errorf("parseMajorMinor(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.mm, tc.ok)
		}
	}
	for in, ok := range map[string]bool{"8.6": true, "12.0": true, "1.0": true, "99": false, "8.10": false,
		"123.0": false, "16.0": false, "0.5": false, "8.x": false, "": false} {
		if err := ValidateComputeCap(in); (err == nil) != ok {
			t.Errorf("ValidateComputeCap(%q) = %v, want ok=%v", in, err, ok)
		}
	}
	for in, want := range map[string]majorMinor{"3.12": {3, 12}, "3.12.7": {3, 12}, "3.9.0": {3, 9}} {
		if got, ok := pythonMajorMinor(in); !ok || got != want {
			t.Errorf("pythonMajorMinor(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"3", "3.x", "3.12.7.1", "3..12", ""} {
		if _, ok := pythonMajorMinor(in); ok {
			t.Errorf("pythonMajorMinor(%q) accepted", in)
		}
	}
	for _, in := range []string{"2.7", "4.0"} {
		if ValidatePythonVersion(in) == nil {
			t.Errorf("ValidatePythonVersion(%q) accepted", in)
		}
	}
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"528.33", "560.35.05", true}, {"560.35.05", "528.33", false}, {"580.65.06", "580.65.6", false},
		{"580.65", "580.65.01", true}, {"999.9", "1000.1", true}, {"1000.1", "999.9", false}, {"525.60.13", "525.60.13", false},
	} {
		if got := driverLess(tc.a, tc.b); got != tc.less {
			t.Errorf("driverLess(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.less)
		}
	}
}
