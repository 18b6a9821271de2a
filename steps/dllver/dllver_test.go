package dllver_test

import (
	"os"
	"testing"

	"gpuwiz/steps/dllver"
	"gpuwiz/steps/dllver/dllvertest"
)

// A DLL built with mingw-w64 and a version resource reads back exactly.
func TestReadsTheVersionResource(t *testing.T) {
	for _, want := range []string{"14.36.32532.0", "14.44.35211.0", "14.29.30139.0"} {
		data, err := os.ReadFile(dllvertest.Build(t, t.TempDir(), "msvcp140.dll", want))
		if err != nil {
			t.Fatal(err)
		}
		v, err := dllver.Read(data)
		if err != nil || v.String() != want {
			t.Errorf("read %v, %v; want %s", v, err, want)
		}
	}
	if _, err := dllver.Read([]byte("MZ not a PE")); err == nil {
		t.Error("a file that is not a PE image read as a version")
	}
}

func TestParseAndCompare(t *testing.T) {
	a, ok1 := dllver.Parse("v14.36.32532.00")
	b, ok2 := dllver.Parse("14.40")
	if !ok1 || !ok2 || !a.Less(b) || b.Less(a) || a.MajorMinor() != "14.36" {
		t.Errorf("parse: %v %v %v %v", a, ok1, b, ok2)
	}
	for _, bad := range []string{"", "14", "14..1", "x14.1", "14.70000", "1.2.3.4.5"} {
		if _, ok := dllver.Parse(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}
