package install

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"gpuwiz/steps/pep"
)

// directSource is what pip's report names as a direct requirement's origin, as pip download
// takes it: a local path for a file:// URL, else the URL itself.
func directSource(u string) string {
	if strings.HasPrefix(u, "file:") {
		if p, err := url.Parse(u); err == nil && p.Path != "" {
			if len(p.Path) > 2 && p.Path[0] == '/' && p.Path[2] == ':' {
				return p.Path[1:] // file:///C:/x.whl
			}
			return p.Path
		}
	}
	return u
}

var (
	labelCUDA  = regexp.MustCompile(`cu(\d{2,3})`)
	labelTorch = regexp.MustCompile(`(?:torch|pt)(\d)\.?(\d{1,2})`)
)

// wheelBuiltForOther names a wheel whose local version label says it was built for another torch
// (torch2.7, pt27) or another CUDA major (cu118 beside a cu126 build) than the environment's build;
// nil when the label says nothing of either, or agrees.
func wheelBuiltForOther(c AddChange, build []string) *AddRefusal {
	if !strings.HasSuffix(strings.ToLower(c.Direct), ".whl") {
		return nil
	}
	file := path.Base(strings.ReplaceAll(c.Direct, `\`, "/"))
	parts := strings.Split(strings.TrimSuffix(file, ".whl"), "-")
	if len(parts) < 2 {
		return nil
	}
	_, label, ok := strings.Cut(parts[1], "+")
	if !ok {
		return nil
	}
	label = strings.ToLower(label)
	var torch string
	for _, pin := range build {
		if name, v, ok := strings.Cut(pin, "=="); ok && pep.Normalize(name) == "torch" {
			torch = v
		}
	}
	if torch == "" {
		return nil
	}
	public, local, _ := strings.Cut(torch, "+")
	var wrong []string
	if m := labelTorch.FindStringSubmatch(label); m != nil && m[1]+"."+m[2] != pep.Minor(public) {
		wrong = append(wrong, "torch "+m[1]+"."+m[2])
	}
	if m := labelCUDA.FindStringSubmatch(label); m != nil {
		if have := labelCUDA.FindStringSubmatch(local); have != nil && have[1][:len(have[1])-1] != m[1][:len(m[1])-1] {
			wrong = append(wrong, "cu"+m[1])
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return &AddRefusal{Requirement: file, Needs: strings.Join(wrong, " "), Installed: "torch " + torch}
}
