package pep

import "testing"

func TestParseRequirement(t *testing.T) {
	for _, c := range []struct {
		in, name, spec, marker, pin string
		extras                      int
	}{
		{`nvidia-cublas==13.1.0.3; platform_system == "Linux"`, "nvidia-cublas", "==13.1.0.3", `platform_system == "Linux"`, "13.1.0.3", 0},
		{`cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"`, "cuda-toolkit", "==13.0.2", `platform_system == "Linux"`, "13.0.2", 2},
		{`sympy>=1.13.3`, "sympy", ">=1.13.3", "", "", 0},
		{`filelock`, "filelock", "", "", "", 0},
		{`typing_extensions (==4.16.0)`, "typing_extensions", "==4.16.0", "", "4.16.0", 0},
		{`numpy==2.*`, "numpy", "==2.*", "", "", 0},
		{`a==1.0,<2`, "a", "==1.0,<2", "", "", 0},
	} {
		r, ok := ParseRequirement(c.in)
		pin, _ := r.Pin()
		if !ok || r.Name != c.name || r.Spec != c.spec || r.Marker != c.marker || pin != c.pin || len(r.Extras) != c.extras {
			t.Errorf("%q: %+v pin %q ok %v", c.in, r, pin, ok)
		}
	}
	if _, ok := ParseRequirement(`pkg @ https://example.org/pkg.whl`); ok {
		t.Error("a direct reference parsed as a plain requirement")
	}
}

func TestMarkerHolds(t *testing.T) {
	linux := MarkerEnv("3.12.4", "linux", "amd64")
	win := MarkerEnv("3.10.11", "windows", "amd64")
	for _, c := range []struct {
		marker    string
		env       map[string]string
		holds, ok bool
	}{
		{``, linux, true, true},
		{`platform_system == "Linux"`, linux, true, true},
		{`platform_system == "Linux"`, win, false, true},
		{`sys_platform == 'win32'`, win, true, true},
		{`platform_system == "Linux" and platform_machine == "x86_64"`, linux, true, true},
		{`platform_system == "Linux" and platform_machine == "x86_64"`, win, false, true},
		{`platform_machine == "AMD64"`, win, true, true},
		{`python_version < "3.13"`, linux, true, true},
		{`python_version >= "3.11"`, win, false, true},
		{`python_version >= "3.9" and (sys_platform == "darwin" or sys_platform == "linux")`, linux, true, true},
		{`python_full_version >= "3.12.4"`, linux, true, true},
		{`python_version < "3.10"`, MarkerEnv("3.9.1", "linux", "amd64"), true, true},
		{`"linux" in sys_platform`, linux, true, true},
		{`platform_system not in "Windows Darwin"`, linux, true, true},
		{`extra == "cuda"`, linux, false, false},
		{`python_version ~= "3.12"`, linux, false, false},
		{`platform_system == "Linux" and`, linux, false, false},
		{`(platform_system == "Linux"`, linux, false, false},
		{`platform_release >= "5"`, linux, false, false},
	} {
		holds, ok := MarkerHolds(c.marker, c.env)
		if holds != c.holds || ok != c.ok {
			t.Errorf("%q: holds %v ok %v, want %v %v", c.marker, holds, ok, c.holds, c.ok)
		}
	}
}
