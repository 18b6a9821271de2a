package pyindex

import (
	"fmt"
	"strings"
)

// Torch lists the wheels of one torch build for the Pythons and systems given: torch, torchvision and
// (when audio is not "") torchaudio, as download.pytorch.org names them.
func Torch(torch, vision, audio, channel string, pythons []string, oses []string) []string {
	var out []string
	for _, py := range pythons {
		tag := "cp" + strings.ReplaceAll(py, ".", "")
		for _, o := range oses {
			plat := "manylinux_2_28_x86_64"
			if o == "windows" {
				plat = "win_amd64"
			}
			for _, p := range [][2]string{{"torch", torch}, {"torchvision", vision}, {"torchaudio", audio}} {
				if p[1] != "" {
					out = append(out, fmt.Sprintf("%s-%s+%s-%s-%s-%s.whl", p[0], p[1], channel, tag, tag, plat))
				}
			}
		}
	}
	return out
}

// Paddle lists paddlepaddle-gpu wheels as paddlepaddle.org.cn names them.
func Paddle(ver string, pythons []string, oses []string) []string {
	var out []string
	for _, py := range pythons {
		tag := "cp" + strings.ReplaceAll(py, ".", "")
		for _, o := range oses {
			plat := "manylinux1_x86_64"
			if o == "windows" {
				plat = "win_amd64"
			}
			out = append(out, fmt.Sprintf("paddlepaddle_gpu-%s-%s-%s-%s.whl", ver, tag, tag, plat))
		}
	}
	return out
}
