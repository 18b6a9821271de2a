package matrix

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

var knownOS = []string{"linux", "windows"}

// validator collects one error per problem, each at the line to edit.
type validator struct {
	name  string
	lines *lazyLines
	errs  []error
}

func (v *validator) add(path, msg string) {
	v.errs = append(v.errs, &Error{File: v.name, Line: v.lines.line(path), Msg: msg})
}

func (m *Matrix) validate(lines *lazyLines) error {
	v := &validator{name: m.Name, lines: lines}
	if m.Schema != 1 {
		v.add("schema", i18n.T("matrix.check.schema", i18n.D{"Schema": m.Schema}))
	}
	cudaSeen := map[string]string{}
	for i, c := range m.CUDA {
		p := fmt.Sprintf("cuda[%d]", i)
		if _, ok := parseMajorMinor(c.Version); !ok {
			v.add(p+".version", i18n.T("matrix.check.bad_cuda", i18n.D{"CUDA": c.Version}))
		} else if prev, dup := cudaSeen[c.Version]; dup {
			v.add(p+".version", i18n.T("matrix.check.duplicate_cuda", i18n.D{"CUDA": c.Version, "Line": lines.line(prev)}))
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
	v.windowsRows(m.Windows)
	return errors.Join(v.errs...)
}

func (v *validator) driver(path, s string, required bool) {
	if s == "" {
		if required {
			v.add(path, i18n.T("matrix.check.driver_missing", i18n.D{"Key": lastPart(path)}))
		}
		return
	}
	if err := ValidateDriverVersion(s); err != nil {
		v.add(path, i18n.T("matrix.check.bad_driver", i18n.D{"Driver": s, "Key": lastPart(path)}))
	}
}

func (v *validator) computeCap(path, s string, required bool) {
	if s == "" {
		if required {
			v.add(path, i18n.T("matrix.check.cap_missing", i18n.D{"Key": lastPart(path)}))
		}
		return
	}
	if ValidateComputeCap(s) != nil {
		v.add(path, i18n.T("matrix.check.bad_cap", i18n.D{"Cap": s}))
	}
}

func (v *validator) releases(framework string, rs []Release, cudaSeen map[string]string) {
	seen := map[string]string{}
	for i, r := range rs {
		p := fmt.Sprintf("%s[%d]", framework, i)
		if !releaseRE().MatchString(r.Version) {
			v.add(p+".version", i18n.T("matrix.check.bad_release", i18n.D{"Framework": framework, "Version": r.Version}))
		} else if prev, dup := seen[r.Version]; dup {
			v.add(p+".version", i18n.T("matrix.check.duplicate_release", i18n.D{"Framework": framework, "Version": r.Version, "Line": v.lines.line(prev)}))
		} else {
			seen[r.Version] = p + ".version"
		}
		lo, ok1 := pythonMajorMinor(r.PythonMin)
		hi, ok2 := pythonMajorMinor(r.PythonMax)
		if !ok1 {
			v.add(p+".python_min", i18n.T("matrix.check.bad_python_min", i18n.D{"Python": r.PythonMin}))
		}
		if !ok2 {
			v.add(p+".python_max", i18n.T("matrix.check.bad_python_max", i18n.D{"Python": r.PythonMax}))
		}
		if ok1 && ok2 && hi.less(lo) {
			v.add(p+".python_max", i18n.T("matrix.check.python_range", i18n.D{"Max": r.PythonMax, "Min": r.PythonMin}))
		}
		v.osList(p+".os", r.OS, true)
		if framework == "torch" {
			if !releaseRE().MatchString(r.Torchvision) {
				v.add(p+".torchvision", i18n.T("matrix.check.bad_torchvision", i18n.D{"Version": r.Torchvision}))
			}
			if r.Torchaudio != "" && !releaseRE().MatchString(r.Torchaudio) {
				v.add(p+".torchaudio", i18n.T("matrix.check.bad_torchaudio", i18n.D{"Version": r.Torchaudio}))
			}
		} else if r.Torchvision != "" || r.Torchaudio != "" || len(r.TorchaudioOptional) > 0 {
			v.add(p, i18n.T("matrix.check.torch_only", i18n.D{"Framework": framework}))
		}
		if len(r.Builds) == 0 {
			v.add(p, i18n.T("matrix.check.no_builds", i18n.D{"Framework": framework, "Version": r.Version}))
		}
		channels := map[string]string{}
		for j, b := range r.Builds {
			bp := fmt.Sprintf("%s.build[%d]", p, j)
			if prev, dup := channels[b.Channel]; dup {
				v.add(bp+".channel", i18n.T("matrix.check.duplicate_build", i18n.D{"Framework": framework, "Version": r.Version, "Channel": b.Channel, "Line": v.lines.line(prev)}))
			} else {
				channels[b.Channel] = bp + ".channel"
			}
			v.build(bp, b, cudaSeen)
			for _, o := range b.OS {
				if slices.Contains(knownOS, o) && len(r.OS) > 0 && !slices.Contains(r.OS, o) {
					v.add(bp+".os", i18n.T("matrix.check.build_os", i18n.D{"Channel": b.Channel, "Framework": framework, "Version": r.Version, "OS": o}))
				}
			}
			where := b.OS
			if len(where) == 0 {
				where = r.OS
			}
			for _, o := range b.UnverifiedOS {
				if slices.Contains(knownOS, o) && !slices.Contains(where, o) {
					v.add(bp+".unverified_os", i18n.T("matrix.check.unverified_os", i18n.D{"Channel": b.Channel, "Framework": framework, "Version": r.Version, "OS": o}))
				}
			}
		}
		for _, ch := range r.TorchaudioOptional {
			if _, ok := channels[ch]; !ok {
				v.add(p+".torchaudio_optional", i18n.T("matrix.check.torchaudio_optional", i18n.D{"Channel": ch, "Framework": framework, "Version": r.Version}))
			}
		}
	}
}

func (v *validator) osList(path string, list []string, required bool) {
	if len(list) == 0 && required {
		v.add(path, i18n.T("matrix.check.os_missing"))
	}
	for _, o := range list {
		if !slices.Contains(knownOS, o) {
			v.add(path, i18n.T("matrix.check.unknown_os", i18n.D{"OS": o}))
		}
	}
}

func (v *validator) build(p string, b Build, cudaSeen map[string]string) {
	switch {
	case b.Channel == "cpu":
		if b.CUDA != "" || b.CUDNN != "" {
			v.add(p+".cuda", i18n.T("matrix.check.cpu_has_cuda"))
		}
	case channelRE().MatchString(b.Channel):
		m := channelRE().FindStringSubmatch(b.Channel)
		want := strings.TrimLeft(m[1], "0") + "." + m[2]
		if b.CUDA != want {
			v.add(p+".cuda", i18n.T("matrix.check.channel_cuda", i18n.D{"Channel": b.Channel, "Want": want, "CUDA": b.CUDA}))
		} else if _, ok := cudaSeen[b.CUDA]; !ok {
			v.add(p+".cuda", i18n.T("matrix.check.no_cuda_row", i18n.D{"CUDA": b.CUDA}))
		}
		if b.CUDNN != "" {
			if _, err := version.NewVersion(b.CUDNN); err != nil {
				v.add(p+".cudnn", i18n.T("matrix.check.bad_cudnn", i18n.D{"CUDNN": b.CUDNN}))
			}
		}
	default:
		v.add(p+".channel", i18n.T("matrix.check.unknown_channel", i18n.D{"Channel": b.Channel}))
	}
	v.indexURL(p+".index_url", b.IndexURL)
	v.osList(p+".os", b.OS, false)
	v.osList(p+".unverified_os", b.UnverifiedOS, false)
	for _, key := range []string{"arch_linux", "arch_windows"} {
		list := b.ArchLinux
		if key == "arch_windows" {
			list = b.ArchWindows
		}
		for _, a := range list {
			if _, ok := parseArch(a); !ok || ValidateComputeCap(strings.TrimSuffix(a, "+PTX")) != nil {
				v.add(p+"."+key, i18n.T("matrix.check.bad_arch", i18n.D{"Cap": a, "Key": key}))
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
		v.add(path, i18n.T("matrix.check.index_url_missing"))
		return
	}
	if _, err := urls.Check(s); err != nil {
		v.add(path, i18n.T("matrix.check.index_url", i18n.D{"Err": err}))
	}
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
