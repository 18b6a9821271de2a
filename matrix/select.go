package matrix

import (
	"slices"
	"sort"

	"gpuwiz/steps/i18n"
)

// judged is a candidate with what ranking and driver notes need to know about it.
type judged struct {
	c          Candidate
	release    *Release
	build      *Build
	gpu        bool
	driverOnly bool   // incompatible only because the driver is too old
	needDriver string // the driver that would make it compatible ("" when not a driver problem)
}

// Select judges every build of f.Framework against the machine facts and picks the recommendation:
// the newest release with a compatible, verified GPU build on its best channel, else the newest
// compatible verified CPU build.
// It is pure: the same facts always give the same answer.
func (m *Matrix) Select(f Facts) Selection {
	if f.Framework == "" {
		f.Framework = "torch"
	}
	sel := Selection{Framework: f.Framework, Facts: f, Candidates: []Candidate{}, Notes: []string{}}
	env := newMachine(f)
	sel.Notes = append(sel.Notes, env.notes...)

	rs := m.releases(f.Framework)
	if rs == nil {
		sel.Notes = append(sel.Notes, i18n.T("matrix.select.unknown_framework", i18n.D{"Framework": f.Framework}))
		return sel
	}
	var all []judged
	for i := range rs {
		r := &rs[i]
		if f.FrameworkVersion != "" && !versionMatches(r.parsed, f.FrameworkVersion) {
			continue
		}
		for j := range r.Builds {
			all = append(all, m.judge(env, f.Framework, r, &r.Builds[j]))
		}
	}
	if len(all) == 0 {
		sel.Notes = append(sel.Notes, i18n.T("matrix.select.no_such_release", i18n.D{"Framework": f.Framework, "Version": f.FrameworkVersion, "Known": knownVersions(rs)}))
		return sel
	}

	sort.SliceStable(all, func(i, j int) bool { return better(all[i], all[j]) })
	// The recommendation is verified at the build level: an unverified build (or one of an unverified
	// release) is offered, never recommended while a verified build fits, since its wheels may not exist
	// or may lack this GPU's kernels. The better unverified GPU build is named in a note with how to ask
	// for it.
	rec, betterUnverified := -1, -1
	for i, j := range all {
		if !j.c.Compatible || !j.gpu {
			continue
		}
		if j.c.Verified {
			rec = i
			break
		}
		if betterUnverified < 0 {
			betterUnverified = i
		}
	}
	if rec < 0 {
		// No verified GPU build: the CPU build, by the same rule.
		if rec = firstCompatible(all, true, false); rec >= 0 {
			why := env.noGPUReason()
			switch {
			case betterUnverified >= 0:
				why = i18n.T("matrix.select.no_verified_gpu_build_fits", i18n.D{"Framework": f.Framework})
			case env.gpuUsable():
				why = noGPUBuildFits(all, f.Framework)
			}
			sel.Notes = append(sel.Notes, i18n.T("matrix.select.cpu_recommended", i18n.D{"Why": why, "Framework": f.Framework}))
			if betterUnverified < 0 {
				if u := firstCompatible(all, false, false); u >= 0 && u != rec && all[u].release.parsed.GreaterThan(all[rec].release.parsed) {
					betterUnverified = u
				}
			}
		} else if rec = betterUnverified; rec < 0 {
			// Nothing verified fits at all: the best unverified build, GPU first, rather than nothing.
			rec = firstCompatible(all, false, false)
		}
	}
	if betterUnverified >= 0 && betterUnverified != rec {
		u := all[betterUnverified].c
		sel.AlsoFits = &u
		sel.Notes = append(sel.Notes, AlsoFitsNote(f.Framework, u))
	}
	if env.cardWithoutDriver() {
		withDriver(&sel, all, f)
	}
	if rec >= 0 {
		r := all[rec]
		all = append(all[:rec:rec], all[rec+1:]...)
		all = append([]judged{r}, all...)
		c := r.c
		sel.Recommended = &c
		if c.MinorCompat {
			row := m.cudaRows[c.CUDA]
			if full := fullDriver(row, f.OS); full != "" {
				sel.Notes = append(sel.Notes, i18n.T("matrix.select.minor_compat_full", i18n.D{"Framework": f.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "FullDriver": full, "OS": OSName(f.OS), "CUDA": c.CUDA}))
			} else {
				sel.Notes = append(sel.Notes, i18n.T("matrix.select.minor_compat", i18n.D{"Framework": f.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel}))
			}
		}
		sel.Notes = append(sel.Notes, driverUpdateNotes(all[1:], r, f)...)
	} else {
		sel.Notes = append(sel.Notes, nothingFitsNote(all, f))
	}
	for _, j := range all {
		sel.Candidates = append(sel.Candidates, j.c)
	}
	return sel
}

// withDriver names the build gpuwiz would recommend once the card has a driver (a verified one
// first), the driver it needs, and where NVIDIA publishes it.
func withDriver(sel *Selection, all []judged, f Facts) {
	best := -1
	for i, j := range all {
		if !j.gpu || !j.driverOnly {
			continue
		}
		if j.c.Verified { // verified on this OS (unverified_os)
			best = i
			break
		}
		if best < 0 {
			best = i
		}
	}
	if best < 0 {
		return
	}
	c := all[best].c
	sel.WithDriver, sel.DriverNeeded = &c, all[best].needDriver
	sel.Notes = append(sel.Notes, i18n.T("matrix.select.install_driver", i18n.D{"MinDriver": all[best].needDriver, "OS": OSName(f.OS), "Framework": f.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "URL": DriverDownloadURL}))
}

// DriverDownloadURL is where NVIDIA publishes its drivers for every card.
const DriverDownloadURL = "https://www.nvidia.com/Download/index.aspx"

// firstCompatible is the index of the first compatible candidate (a verified build when verified; a GPU
// build when gpu), or -1.
func firstCompatible(all []judged, verified, gpu bool) int {
	for i, j := range all {
		if j.c.Compatible && (!verified || j.c.Verified) && (!gpu || j.gpu) {
			return i
		}
	}
	return -1
}

// noGPUBuildFits says why no GPU build fits: the reasons every GPU build shares when there are any
// (compute capability too old for the framework), else a pointer to each build's reasons.
func noGPUBuildFits(all []judged, framework string) string {
	var gpus []judged
	for _, j := range all {
		if j.gpu {
			gpus = append(gpus, j)
		}
	}
	if shared := sharedReasons(gpus); len(shared) > 0 {
		return i18n.T("matrix.select.no_gpu_build_fits_because", i18n.D{"Framework": framework, "Reasons": i18n.JoinClauses(shared)})
	}
	return i18n.T("matrix.select.no_gpu_build_fits", i18n.D{"Framework": framework})
}

// sharedReasons are the reasons every one of js gives, sorted; none when js is empty.
func sharedReasons(js []judged) []string {
	count := map[string]int{}
	for _, j := range js {
		for _, r := range j.c.Reasons {
			count[r]++
		}
	}
	var shared []string
	for r, n := range count {
		if n == len(js) {
			shared = append(shared, r)
		}
	}
	sort.Strings(shared)
	return shared
}

// better orders candidates: compatible first; then newer release; GPU before CPU; fully supported
// before minor-version compatibility; newer CUDA.
func better(a, b judged) bool {
	if a.c.Compatible != b.c.Compatible {
		return a.c.Compatible
	}
	if c := a.release.parsed.Compare(b.release.parsed); c != 0 {
		return c > 0
	}
	if a.gpu != b.gpu {
		return a.gpu
	}
	if a.c.MinorCompat != b.c.MinorCompat {
		return !a.c.MinorCompat
	}
	if a.build.cuda != b.build.cuda {
		return b.build.cuda.less(a.build.cuda)
	}
	return a.c.Channel < b.c.Channel
}

// driverUpdateNotes name the drivers that unlock a verified build newer than the recommendation: the
// smallest update that unlocks anything, and the update that unlocks the newest release.
func driverUpdateNotes(rest []judged, rec judged, f Facts) []string {
	var unlockable []*judged
	for i := range rest {
		j := &rest[i]
		newer := j.release.parsed.GreaterThan(rec.release.parsed) ||
			(j.release.parsed.Equal(rec.release.parsed) && (!rec.gpu || rec.build.cuda.less(j.build.cuda)))
		// Only a verified build is named: an update should unlock wheels that are known to exist.
		if j.driverOnly && j.gpu && newer && j.c.Verified {
			unlockable = append(unlockable, j)
		}
	}
	if len(unlockable) == 0 {
		return nil
	}
	// smallest: the oldest driver, then the newest release it unlocks (on its oldest CUDA, which that
	// driver is likeliest to support fully).
	// newest: the newest release, then the oldest driver (and oldest CUDA) that unlocks it.
	smallest, newest := unlockable[0], unlockable[0]
	for _, j := range unlockable[1:] {
		if c := j.release.parsed.Compare(smallest.release.parsed); driverLess(j.needDriver, smallest.needDriver) ||
			(j.needDriver == smallest.needDriver && (c > 0 || (c == 0 && j.build.cuda.less(smallest.build.cuda)))) {
			smallest = j
		}
		if c := j.release.parsed.Compare(newest.release.parsed); c > 0 ||
			(c == 0 && (driverLess(j.needDriver, newest.needDriver) || (j.needDriver == newest.needDriver && j.build.cuda.less(newest.build.cuda)))) {
			newest = j
		}
	}
	note := func(j *judged) string {
		return i18n.T("matrix.select.driver_unlocks", i18n.D{"MinDriver": j.needDriver, "OS": OSName(f.OS), "Framework": f.Framework, "Version": j.c.FrameworkVersion, "Channel": j.c.Channel})
	}
	notes := []string{note(smallest)}
	if newest.release != smallest.release {
		notes = append(notes, note(newest))
	}
	return notes
}

// nothingFitsNote says why not even a CPU build fits, naming the reasons every candidate shares.
func nothingFitsNote(all []judged, f Facts) string {
	shared := sharedReasons(all)
	if len(shared) == 0 {
		// all is sorted newest first: the newest CPU build's reasons are the ones that matter most.
		for _, j := range all {
			if !j.gpu {
				shared = j.c.Reasons
				break
			}
		}
	}
	if len(shared) == 0 {
		return i18n.T("matrix.select.nothing_fits", i18n.D{"Framework": f.Framework})
	}
	return i18n.T("matrix.select.nothing_fits_because", i18n.D{"Framework": f.Framework, "Reasons": i18n.JoinClauses(shared)})
}

func knownVersions(rs []Release) string {
	var vs []string
	for _, r := range rs {
		vs = append(vs, r.Version)
	}
	slices.Reverse(vs)
	return i18n.Join(vs)
}

// AlsoFitsNote says that an unverified build u fits too, and how to ask for it (a note of Select).
func AlsoFitsNote(framework string, u Candidate) string {
	return i18n.T("matrix.select.unverified_also_fits", i18n.D{"Framework": framework, "Version": u.FrameworkVersion, "Channel": u.Channel})
}
