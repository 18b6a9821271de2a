package pyindex

import "gpuwiz/steps/pep"

// Torch lists the wheels of one torch build for the Pythons and systems given: torch, torchvision and
// (when audio is not "") torchaudio, as download.pytorch.org names them.
func Torch(torch, vision, audio, channel string, pythons []string, oses []string) []string {
	var dists [][2]string
	for _, p := range [][2]string{{"torch", torch}, {"torchvision", vision}, {"torchaudio", audio}} {
		if p[1] != "" {
			dists = append(dists, [2]string{p[0], p[1] + "+" + channel})
		}
	}
	return wheelNames(pythons, oses, "manylinux_2_28_x86_64", dists...)
}

// Paddle lists paddlepaddle-gpu wheels as paddlepaddle.org.cn names them.
func Paddle(ver string, pythons []string, oses []string) []string {
	return wheelNames(pythons, oses, "manylinux1_x86_64", [2]string{"paddlepaddle_gpu", ver})
}

// wheelNames names a wheel of each dist (name, version) for each Python and system, in that order:
// CPython's own ABI tag, the platform tag linux on Linux and win_amd64 on "windows".
func wheelNames(pythons, oses []string, linux string, dists ...[2]string) []string {
	var out []string
	for _, py := range pythons {
		tag := pep.CPythonTag(py)
		for _, o := range oses {
			plat := linux
			if o == "windows" {
				plat = "win_amd64"
			}
			for _, d := range dists {
				w := pep.Wheel{Dist: d[0], Version: d[1], Python: []string{tag}, ABI: []string{tag}, Platforms: []string{plat}}
				out = append(out, w.Filename())
			}
		}
	}
	return out
}
