package matrix

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
)

var knownOS = []string{"linux", "windows"}

// validator collects one error per problem, each at the line to edit.
type validator struct {
	name  string
	lines *lazyLines
	errs  []error
}

func (v *validator) add(path, format string, a ...any) {
	v.errs = append(v.errs, &Error{File: v.name, Line: v.lines.line(path), Msg: fmt.Sprintf(format, a...)})
}

func (m *Matrix) validate(lines *lazyLines) error {
	v := &validator{name: m.Name, lines: lines}
	if m.Schema != 1 {
		v.add("schema", "schema = %d: this gpuwiz reads schema 1; set schema = 1", m.Schema)
	}
	cudaSeen := map[string]string{}
	for i, c := range m.CUDA {
		p := fmt.Sprintf("cuda[%d]", i)
		if _, ok := parseMajorMinor(c.Version); !ok {
			v.add(p+".version", "bad CUDA version %q: write it as X.Y, e.g. \"12.6\"", c.Version)
		} else if prev, dup := cudaSeen[c.Version]; dup {
			v.add(p+".version", "duplicate [[cuda]] row for CUDA %s (first at line %d): keep one", c.Version, lines.line(prev))
		} else {
			cudaSeen[c.Version] = p + ".version"
		}
		v.driver(p+".minor_compat_linux", c.MinorCompatLinux, true)
		v.driver(p+".minor_compat_windows", c.MinorCompatWindows, true)
		v.driver(p+".full_linux", c.FullLinux, false)
		v.driver(p+".full_windows", c.FullWindows, false)
		v.computeCap(p+".max_compute_cap", c.MaxComputeCap, true)
		v.computeCap(p+".min_compute_cap", c.MinComputeCap, false)
	}
	v.releases("torch", m.Torch, cudaSeen)
	v.releases("paddle", m.Paddle, cudaSeen)
	return errors.Join(v.errs...)
}

func (v *validator) driver(path, s string, required bool) {
	if s == "" {
		if required {
			v.add(path, "%s is missing: the minimum driver version, e.g. \"528.33\"", lastPart(path))
		}
		return
	}
	if err := ValidateDriverVersion(s); err != nil {
		v.add(path, "bad driver version %q for %s: write it like \"528.33\"", s, lastPart(path))
	}
}

func (v *validator) computeCap(path, s string, required bool) {
	if s == "" {
		if required {
			v.add(path, "%s is missing: a compute capability such as \"9.0\"", lastPart(path))
		}
		return
	}
	if ValidateComputeCap(s) != nil {
		v.add(path, "bad compute capability %q: write it as X.Y, e.g. \"8.6\"", s)
	}
}

func (v *validator) releases(framework string, rs []Release, cudaSeen map[string]string) {
	seen := map[string]string{}
	for i, r := range rs {
		p := fmt.Sprintf("%s[%d]", framework, i)
		if !releaseRE.MatchString(r.Version) {
			v.add(p+".version", "bad %s version %q: write the exact release, e.g. \"2.6.0\"", framework, r.Version)
		} else if prev, dup := seen[r.Version]; dup {
			v.add(p+".version", "duplicate [[%s]] row for %s %s (first at line %d): keep one", framework, framework, r.Version, v.lines.line(prev))
		} else {
			seen[r.Version] = p + ".version"
		}
		lo, ok1 := pythonMajorMinor(r.PythonMin)
		hi, ok2 := pythonMajorMinor(r.PythonMax)
		if !ok1 {
			v.add(p+".python_min", "bad python_min %q: write it as X.Y, e.g. \"3.9\"", r.PythonMin)
		}
		if !ok2 {
			v.add(p+".python_max", "bad python_max %q: write it as X.Y, e.g. \"3.13\"", r.PythonMax)
		}
		if ok1 && ok2 && hi.less(lo) {
			v.add(p+".python_max", "python_max %s is below python_min %s", r.PythonMax, r.PythonMin)
		}
		v.osList(p+".os", r.OS, true)
		if framework == "torch" {
			if !releaseRE.MatchString(r.Torchvision) {
				v.add(p+".torchvision", "bad torchvision version %q: write the exact release, e.g. \"0.21.0\"", r.Torchvision)
			}
			if r.Torchaudio != "" && !releaseRE.MatchString(r.Torchaudio) {
				v.add(p+".torchaudio", "bad torchaudio version %q: write the exact release, e.g. \"2.6.0\"", r.Torchaudio)
			}
		} else if r.Torchvision != "" || r.Torchaudio != "" || len(r.TorchaudioOptional) > 0 {
			v.add(p, "torchvision/torchaudio belong to torch releases, not %s", framework)
		}
		if len(r.Builds) == 0 {
			v.add(p, "%s %s has no [[%s.build]] rows", framework, r.Version, framework)
		}
		channels := map[string]string{}
		for j, b := range r.Builds {
			bp := fmt.Sprintf("%s.build[%d]", p, j)
			if prev, dup := channels[b.Channel]; dup {
				v.add(bp+".channel", "duplicate build: %s %s already has channel %s (line %d): keep one", framework, r.Version, b.Channel, v.lines.line(prev))
			} else {
				channels[b.Channel] = bp + ".channel"
			}
			v.build(bp, b, cudaSeen)
			for _, o := range b.OS {
				if slices.Contains(knownOS, o) && len(r.OS) > 0 && !slices.Contains(r.OS, o) {
					v.add(bp+".os", "build %s of %s %s names os %q, which the release's os list lacks: a build's os narrows the release's, it cannot add to it", b.Channel, framework, r.Version, o)
				}
			}
		}
		for _, ch := range r.TorchaudioOptional {
			if _, ok := channels[ch]; !ok {
				v.add(p+".torchaudio_optional", "torchaudio_optional names channel %q, which %s %s has no build for", ch, framework, r.Version)
			}
		}
	}
}

func (v *validator) osList(path string, list []string, required bool) {
	if len(list) == 0 && required {
		v.add(path, "os is missing: list where the build exists, e.g. [\"linux\", \"windows\"]")
	}
	for _, o := range list {
		if !slices.Contains(knownOS, o) {
			v.add(path, "unknown os %q: use \"linux\" or \"windows\"", o)
		}
	}
}

func (v *validator) build(p string, b Build, cudaSeen map[string]string) {
	switch {
	case b.Channel == "cpu":
		if b.CUDA != "" || b.CUDNN != "" {
			v.add(p+".cuda", "the cpu build has no CUDA or cuDNN version: remove them")
		}
	case channelRE.MatchString(b.Channel):
		m := channelRE.FindStringSubmatch(b.Channel)
		want := strings.TrimLeft(m[1], "0") + "." + m[2]
		if b.CUDA != want {
			v.add(p+".cuda", "channel %s needs cuda = \"%s\" (got %q)", b.Channel, want, b.CUDA)
		} else if _, ok := cudaSeen[b.CUDA]; !ok {
			v.add(p+".cuda", "CUDA %s has no [[cuda]] row with its driver minimums: add one", b.CUDA)
		}
		if b.CUDNN != "" {
			if _, err := version.NewVersion(b.CUDNN); err != nil {
				v.add(p+".cudnn", "bad cuDNN version %q: write it like \"9.5.1\"", b.CUDNN)
			}
		}
	default:
		v.add(p+".channel", "unknown channel %q: use \"cpu\" or cuXYZ such as \"cu126\"", b.Channel)
	}
	v.indexURL(p+".index_url", b.IndexURL)
	v.osList(p+".os", b.OS, false)
	for _, key := range []string{"arch_linux", "arch_windows"} {
		list := b.ArchLinux
		if key == "arch_windows" {
			list = b.ArchWindows
		}
		for _, a := range list {
			if _, ok := parseArch(a); !ok || ValidateComputeCap(strings.TrimSuffix(a, "+PTX")) != nil {
				v.add(p+"."+key, "bad compute capability %q in %s: write it as X.Y or X.Y+PTX, e.g. \"8.6\"", a, key)
			}
		}
	}
	v.computeCap(p+".min_compute_cap_linux", b.MinComputeCapLinux, false)
	v.computeCap(p+".min_compute_cap_windows", b.MinComputeCapWindows, false)
	v.computeCap(p+".max_compute_cap", b.MaxComputeCap, false)
}

// indexURL allows https anywhere and plain http only on this machine (test indexes on loopback).
func (v *validator) indexURL(path, s string) {
	if s == "" {
		v.add(path, "index_url is missing")
		return
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		v.add(path, "bad index_url %q: write a full URL such as \"https://download.pytorch.org/whl/cu126\"", s)
		return
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			v.add(path, "index_url %q uses plain http to a public host: use https (http is allowed only for localhost, 127.0.0.0/8 and [::1])", s)
		}
	default:
		v.add(path, "index_url %q: scheme must be https", s)
	}
}

// IsLoopbackHost reports whether host (a URL's Hostname) is localhost or a loopback IP: the only
// hosts a plain-http index may use.
func IsLoopbackHost(host string) bool { return isLoopback(host) }

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// prepare parses what selection needs once and orders releases newest first.
func (m *Matrix) prepare() {
	m.cudaRows = map[string]*CUDARow{}
	for i := range m.CUDA {
		m.cudaRows[m.CUDA[i].Version] = &m.CUDA[i]
	}
	for _, rs := range [][]Release{m.Torch, m.Paddle} {
		for i := range rs {
			r := &rs[i]
			r.parsed, _ = version.NewVersion(r.Version)
			for j := range r.Builds {
				b := &r.Builds[j]
				b.cuda, _ = parseMajorMinor(b.CUDA)
				b.archs = map[string][]arch{}
				for o, list := range map[string][]string{"linux": b.ArchLinux, "windows": b.ArchWindows} {
					for _, s := range list {
						a, _ := parseArch(s)
						b.archs[o] = append(b.archs[o], a)
					}
				}
			}
		}
		sort.SliceStable(rs, func(i, j int) bool { return rs[j].parsed.LessThan(rs[i].parsed) })
	}
}
