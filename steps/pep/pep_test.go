package pep

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
)

func TestNormalizeIsPEP503(t *testing.T) {
	for in, want := range map[string]string{
		"torch":              "torch",
		"PaddlePaddle-GPU":   "paddlepaddle-gpu",
		"paddlepaddle_gpu":   "paddlepaddle-gpu",
		"Paddle_Paddle.GPU":  "paddle-paddle-gpu",
		"friendly-bard":      "friendly-bard",
		"Friendly-Bard":      "friendly-bard",
		"FRIENDLY-BARD":      "friendly-bard",
		"friendly.bard":      "friendly-bard",
		"friendly_bard":      "friendly-bard",
		"friendly--bard":     "friendly-bard",
		"FrIeNdLy-._.-bArD":  "friendly-bard", // PEP 503's own example
		"nvidia__cudnn_cu12": "nvidia-cudnn-cu12",
		"a___b":              "a-b",
		"zope.interface":     "zope-interface",
		"":                   "",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if !SameName("Torch_Audio", "torch.audio") || SameName("torch", "torchaudio") {
		t.Error("SameName")
	}
}

func TestParseWheel(t *testing.T) {
	for _, c := range []struct {
		file                 string
		name, version, build string
		py, abi, plat        []string
	}{
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "torch", "2.6.0+cu126", "", []string{"cp312"}, []string{"cp312"}, []string{"win_amd64"}},
		{"paddlepaddle_gpu-3.2.0-1-cp311-cp311-manylinux1_x86_64.whl", "paddlepaddle-gpu", "3.2.0", "1", []string{"cp311"}, []string{"cp311"}, []string{"manylinux1_x86_64"}},
		{"torch-2.6.0-cp39-abi3-manylinux_2_28_x86_64.manylinux2014_x86_64.whl", "torch", "2.6.0", "", []string{"cp39"}, []string{"abi3"}, []string{"manylinux_2_28_x86_64", "manylinux2014_x86_64"}},
		{"Six-1.16.0-py2.py3-none-any.WHL", "six", "1.16.0", "", []string{"py2", "py3"}, []string{"none"}, []string{"any"}},
		{"nvidia_cudnn_cu12-9.1.0.70-2_bld-py3-none-manylinux2014_x86_64.whl", "nvidia-cudnn-cu12", "9.1.0.70", "2_bld", []string{"py3"}, []string{"none"}, []string{"manylinux2014_x86_64"}},
	} {
		w, err := ParseWheel(c.file)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if w.Name != c.name || w.Version != c.version || w.Build != c.build || !slices.Equal(w.Python, c.py) || !slices.Equal(w.ABI, c.abi) || !slices.Equal(w.Platforms, c.plat) || w.File != c.file {
			t.Errorf("%s: %+v", c.file, w)
		}
		if again, err := ParseWheel(w.Filename()); err != nil || again.Name != w.Name || again.Version != w.Version || again.Build != w.Build || again.Tags() != w.Tags() {
			t.Errorf("%s: Filename %q does not read back the same: %+v %v", c.file, w.Filename(), again, err)
		}
	}
	w := Wheel{Name: "paddlepaddle-gpu", Version: "3.0.0", Build: "1", Python: []string{"cp311"}, ABI: []string{"cp311"}, Platforms: []string{"win_amd64"}}
	if got := w.Filename(); got != "paddlepaddle_gpu-3.0.0-1-cp311-cp311-win_amd64.whl" {
		t.Errorf("Filename = %q", got)
	}
	for _, bad := range []string{"torch-2.6.0.tar.gz", "torch-2.6.0.whl", "torch-2.6.0-cp312-win_amd64.whl", "torch-2.6.0-x-cp312-cp312-win_amd64.whl",
		"torch--cp312-cp312-win_amd64.whl", "torch-2.6.0-cp312-c$p312-win_amd64.whl", "a-b-c-d-e-f-g.whl", ".whl", ""} {
		if w, err := ParseWheel(bad); err == nil {
			t.Errorf("%q parsed: %+v", bad, w)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: the error does not name the file: %v", bad, err)
		}
	}
}

func TestParseWheelSaysWhyInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, f := range []string{"torch.tar.gz", "torch-2.6.0.whl", "torch-2.6.0-x-cp312-cp312-win_amd64.whl", "torch-2.6.0-cp312-c$p312-win_amd64.whl"} {
		_, err := ParseWheel(f)
		if err == nil {
			t.Fatalf("%s parsed", f)
		}
		i18ntest.NoEnglishProse(t, f, err.Error())
	}
}

// The PEP 425 judgement the wheel cache, the index check and the source probe all use: pip's list of
// tags a CPython 3.M installs, and the platforms of glibc Linux, Windows and macOS.
func TestWheelTags(t *testing.T) {
	for _, c := range []struct {
		file, py, goos, goarch string
		want                   bool
	}{
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "3.12", "windows", "amd64", true},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "3.12.4", "windows", "amd64", true},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "3.11", "windows", "amd64", false},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "3.12", "linux", "amd64", false},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "3.12", "windows", "arm64", false},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "3.12.4", "linux", "amd64", true},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_aarch64.whl", "3.12.4", "linux", "amd64", false},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_aarch64.whl", "3.12.4", "linux", "arm64", true},
		{"torch-2.11.0+cu130-cp312-cp312-musllinux_1_2_x86_64.whl", "3.12.4", "linux", "amd64", false}, // musl, not glibc
		{"paddlepaddle_gpu-3.0.0-cp311-cp311-linux_x86_64.whl", "3.11", "linux", "amd64", true},
		{"paddlepaddle_gpu-3.0.0-cp39.cp310.cp311-cp39.cp310.cp311-linux_x86_64.whl", "3.11.2", "linux", "amd64", true},
		{"cuda_bindings-13.0.1-cp310-abi3-manylinux_2_24_x86_64.whl", "3.12.0", "linux", "amd64", true},
		{"cuda_bindings-13.0.1-cp313-abi3-manylinux_2_24_x86_64.whl", "3.12.0", "linux", "amd64", false},
		{"torch-2.6.0-cp39-abi3-manylinux2014_x86_64.whl", "3.8", "linux", "amd64", false},
		{"torch-2.9.1+cu129-cp314-cp314t-manylinux_2_28_x86_64.whl", "3.14", "linux", "amd64", false}, // free-threaded
		{"old-1.0-cp37-cp37m-win_amd64.whl", "3.7", "windows", "amd64", true},
		{"old-1.0-cp37-cp37m-win_amd64.whl", "3.8", "windows", "amd64", false},
		{"torchvision-0.21.0-py3-none-any.whl", "3.13.1", "windows", "amd64", true},
		{"six-1.16.0-py2.py3-none-any.whl", "3.11", "darwin", "arm64", true},
		{"x-1.0-py36-none-any.whl", "3.11", "linux", "amd64", true}, // py3N-none for N <= M
		{"x-1.0-py312-none-any.whl", "3.11", "linux", "amd64", false},
		{"x-1.0-cp311-none-win_amd64.whl", "3.11", "windows", "amd64", true},
		{"x-1.0-cp310-cp310-win_amd64.whl", "3.11", "windows", "amd64", false},
		{"x-1.0-py2-none-any.whl", "3.11", "linux", "amd64", false},
		{"x-1.0-cp312-cp312-macosx_11_0_arm64.whl", "3.12", "darwin", "arm64", true},
		{"x-1.0-cp312-cp312-macosx_10_9_universal2.whl", "3.12", "darwin", "amd64", true},
		{"x-1.0-cp312-cp312-macosx_10_9_x86_64.whl", "3.12", "darwin", "arm64", false},
		{"x-1.0-cp312-cp312-win32.whl", "3.12", "windows", "386", true},
		{"x-1.0-cp312-cp312-WIN_AMD64.whl", "3.12", "windows", "amd64", true},
	} {
		w, err := ParseWheel(c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got := w.Installs(c.py, c.goos, c.goarch); got != c.want {
			t.Errorf("%s on Python %s %s/%s: %v, want %v", c.file, c.py, c.goos, c.goarch, got, c.want)
		}
	}
	w, _ := ParseWheel("torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl")
	if !w.Installs("", "linux", "amd64") || !w.Installs("unknown", "linux", "amd64") || w.Installs("", "windows", "amd64") {
		t.Error("an unknown Python judges the platform only")
	}
	if w.ForPython("") || w.ForPython("3") {
		t.Error("ForPython needs a minor")
	}
	if !w.ForOS("linux") || w.ForOS("windows") {
		t.Error("ForOS is x86-64")
	}
}

func TestLocalLabels(t *testing.T) {
	for _, c := range []struct{ v, public, local, label string }{
		{"2.6.0+cu126", "2.6.0", "cu126", "+cu126"},
		{"2.6.0+cpu", "2.6.0", "cpu", "+cpu"},
		{"3.0.0", "3.0.0", "", ""},
		{"2.5.1+rocm6.2", "2.5.1", "rocm6.2", "+rocm6.2"},
		{"", "", "", ""},
	} {
		p, l := SplitLocal(c.v)
		if p != c.public || l != c.local || LocalLabel(c.v) != c.label || Public(c.v) != c.public {
			t.Errorf("%q: %q %q %q", c.v, p, l, LocalLabel(c.v))
		}
		if c.v != "" && WithLocal(c.public, c.local) != c.v || c.v != "" && WithLocal(c.public, c.label) != c.v {
			t.Errorf("WithLocal(%q, %q) = %q", c.public, c.local, WithLocal(c.public, c.local))
		}
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"2.6.0+cu126", "2.6.0+cu126", true},
		{"2.6.0+CU126", "2.6.0+cu126", true},
		{"2.6.0+cu126", "2.6.0+cu124", false},
		{"2.6.0+cu126", "2.6.0", false},
		{"1.0+ubuntu-1", "1.0+ubuntu.1", true},
		{"1.0+ubuntu_1", "1.0+UBUNTU.1", true},
	} {
		if SameVersion(c.a, c.b) != c.same {
			t.Errorf("SameVersion(%q, %q) != %v", c.a, c.b, c.same)
		}
	}
	for _, c := range []struct {
		version, pin string
		ok           bool
	}{
		{"2.6.0+cu126", "2.6.0+cu126", true},
		{"2.6.0+cu126", "2.6.0", true},
		{"2.6.0", "2.6.0", true},
		{"2.6.0+cu124", "2.6.0+cu126", false},
		{"2.6.0", "2.6.0+cu126", false},
		{"2.6.1+cu126", "2.6.0", false},
		{"2.6.0+cu126", "2.6", false},
	} {
		if PinMatches(c.version, c.pin) != c.ok {
			t.Errorf("PinMatches(%q, %q) != %v", c.version, c.pin, c.ok)
		}
	}
	for ch, want := range map[string]string{"cu126": "12.6", "cu118": "11.8", "+cu130": "13.0", "cpu": "", "rocm6.2": "", "cu12": "", "cuXYZ": "", "": ""} {
		if got := CUDAOfChannel(ch); got != want {
			t.Errorf("CUDAOfChannel(%q) = %q, want %q", ch, got, want)
		}
	}
}

func TestPythonTags(t *testing.T) {
	for _, c := range []struct {
		v, minor, tag string
		ok            bool
	}{
		{"3.11", "3.11", "cp311", true},
		{"3.11.7", "3.11", "cp311", true},
		{"3.13.0rc1", "3.13", "cp313", true},
		{" 3.9.18 ", "3.9", "cp39", true},
		{"3", "3", "", false},
		{"three.eleven", "three.eleven", "", false},
		{"3.x", "3.x", "", false},
		{"", "", "", false},
	} {
		_, _, ok := ParsePython(c.v)
		if ok != c.ok || Minor(c.v) != c.minor || CPythonTag(c.v) != c.tag {
			t.Errorf("%q: ok %v, Minor %q, CPythonTag %q", c.v, ok, Minor(c.v), CPythonTag(c.v))
		}
	}
	for tag, want := range map[string]string{"cp311": "3.11", "cp39": "3.9", "CP312": "3.12", "py310": "3.10", "py3": "", "abi3": "", "cp": "", "none": "", "cp3x": ""} {
		got, ok := PythonOfTag(tag)
		if got != want || ok != (want != "") {
			t.Errorf("PythonOfTag(%q) = %q, %v", tag, got, ok)
		}
		if ok && CPythonTag(got) != "cp"+strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(tag), "cp"), "py") {
			t.Errorf("%q does not go back to its tag", tag)
		}
	}
	if got := Pythons("3.10", "3.14"); !slices.Equal(got, []string{"3.10", "3.11", "3.12", "3.13", "3.14"}) {
		t.Errorf("Pythons = %v", got)
	}
	for _, bad := range [][2]string{{"3.12", "3.10"}, {"2.7", "3.1"}, {"x", "3.1"}} {
		if got := Pythons(bad[0], bad[1]); got != nil {
			t.Errorf("Pythons(%v) = %v", bad, got)
		}
	}
}

func TestHeldFramework(t *testing.T) {
	for _, c := range []struct {
		dists map[string]string
		want  Held
	}{
		{map[string]string{"torch": "2.6.0+cu126", "torchvision": "0.21.0+cu126"}, Held{Framework: "torch", Package: "torch", Version: "2.6.0+cu126"}},
		{map[string]string{"torch": "2.6.0+cu126", "paddlepaddle-gpu": "3.0.0"}, Held{Framework: "torch", Package: "torch", Version: "2.6.0+cu126"}},
		{map[string]string{"paddlepaddle-gpu": "3.0.0"}, Held{Framework: "paddle", Package: "paddlepaddle-gpu", Version: "3.0.0"}},
		{map[string]string{"paddlepaddle": "3.0.0"}, Held{Framework: "paddle", Package: "paddlepaddle", Version: "3.0.0"}},
		{map[string]string{"paddlepaddle": "3.0.0", "paddlepaddle-gpu": "3.1.0"}, Held{Framework: "paddle", Package: "paddlepaddle-gpu", Version: "3.1.0", Mixed: true}},
		{map[string]string{"numpy": "2.0.0"}, Held{}},
	} {
		got := HeldIn(c.dists)
		if got != c.want {
			t.Errorf("%v: %+v, want %+v", c.dists, got, c.want)
		}
	}
	h := HeldIn(map[string]string{"torch": "2.6.0+cu126"})
	if h.Public() != "2.6.0" || h.Channel() != "cu126" {
		t.Errorf("%q %q", h.Public(), h.Channel())
	}
	if p := HeldIn(map[string]string{"paddlepaddle-gpu": "3.0.0"}); p.Channel() != "" || p.Public() != "3.0.0" {
		t.Errorf("paddle: %+v", p)
	}
}

func TestIsMetadata(t *testing.T) {
	for name, want := range map[string]bool{
		"torch-2.6.0.dist-info/METADATA":         true,
		"torch/_vendor/x-1.0.dist-info/METADATA": false,
		"torch-2.6.0.dist-info/RECORD":           false,
		"torch-2.6.0.data/purelib/METADATA":      false,
		"METADATA":                               false,
		"torch-2.6.0.dist-info/sub/METADATA":     false,
	} {
		if got := IsMetadata(name); got != want {
			t.Errorf("IsMetadata(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDistInfo(t *testing.T) {
	for folder, want := range map[string][3]string{
		"paddlepaddle_gpu-3.3.1.dist-info": {"paddlepaddle-gpu", "3.3.1", "true"},
		"torch-2.11.0+cu130.dist-info":     {"torch", "2.11.0+cu130", "true"},
		"Nvidia_CUBLAS-13.1.0.3.dist-info": {"nvidia-cublas", "13.1.0.3", "true"},
		"torch-2.11.0.egg-info":            {"", "", "false"},
		"torch.dist-info":                  {"", "", "false"},
		"-1.0.dist-info":                   {"", "", "false"},
	} {
		n, v, ok := DistInfo(folder)
		if got := [3]string{n, v, fmt.Sprint(ok)}; got != want {
			t.Errorf("DistInfo(%q) = %q, want %q", folder, got, want)
		}
	}
}

// SameName reports whether two project names are one project under PEP 503.
func SameName(a, b string) bool { return Normalize(a) == Normalize(b) }

// WithLocal joins a public version and a local label ("cu126" or "+cu126"; "" for none).
func WithLocal(public, local string) string {
	local = strings.TrimPrefix(local, "+")
	if local == "" {
		return public
	}
	return public + "+" + local
}

// PythonOfTag reads a CPython or generic interpreter tag back into its minor: "cp311" → "3.11",
// "py312" → "3.12". A major-only tag ("py3") or anything else gives ok false.
func PythonOfTag(tag string) (string, bool) {
	d, ok := strings.CutPrefix(strings.ToLower(tag), "cp")
	if !ok {
		d, ok = strings.CutPrefix(strings.ToLower(tag), "py")
	}
	if !ok || len(d) < 2 || d[0] < '1' || d[0] > '9' {
		return "", false
	}
	mi, err := strconv.Atoi(d[1:])
	if err != nil || mi < 0 {
		return "", false
	}
	return fmt.Sprintf("%c.%d", d[0], mi), true
}

// Tags is the wheel's tag triple as a file name writes it: "cp312-cp312-win_amd64".
func (w Wheel) Tags() string {
	return strings.Join(w.Python, ".") + "-" + strings.Join(w.ABI, ".") + "-" + strings.Join(w.Platforms, ".")
}
