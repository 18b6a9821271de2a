package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/urls"
)

// The cached build keeps its resolution.
//
// The same pins from the same sources, on the same Python and platform, resolve to the same set of
// wheels every time; the wheel cache holds that set and its hashes. So when the stage steps end,
// the set they chose (each wheel's file name and sha256, the dists and versions it makes, the
// markers already evaluated by pip for this Python) is recorded in the build's cache folder, keyed
// by the request. A later run with the same key takes it without starting pip at all: no pip
// config, no dry-run resolve, no offline `pip download`. Any doubt — another Python or platform, a
// wheel missing or changed since, a set pip would not accept (a pin without its wheel, two versions
// of one dist, a wheel for another Python, a requirement no wheel of the set meets) — and the stage
// runs as before, the reason written to the log.

// resolvedFile is the cache folder's record of the sets its stage steps resolved, one per key.
const resolvedFile = "gpuwiz-resolved.json"

// resolvedFormat is the record's format; a record of another format is as good as none.
const resolvedFormat = 1

// resolveKey is what a resolution depends on.
type resolveKey struct {
	Pins      []string `json:"pins"`
	Optional  []string `json:"optional,omitempty"`
	IndexURL  string   `json:"index_url"` // credentials removed, as every URL gpuwiz writes
	FindLinks string   `json:"find_links,omitempty"`
	Mirror    string   `json:"mirror,omitempty"`
	Python    string   `json:"python"`   // "3.12.4": python_full_version in markers
	Platform  string   `json:"platform"` // GOOS-GOARCH: the platform tags and sys_platform, platform_machine
}

func (k resolveKey) String() string { b, _ := json.Marshal(k); return string(b) }

// sameRequest says whether k and o ask for the same wheels from the same places (Python and
// platform aside).
func (k resolveKey) sameRequest(o resolveKey) bool {
	return slices.Equal(k.Pins, o.Pins) && slices.Equal(k.Optional, o.Optional) && k.IndexURL == o.IndexURL &&
		k.FindLinks == o.FindLinks && k.Mirror == o.Mirror
}

type resolvedWheel struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// resolvedSet is one request's resolution: the wheels (file and sha256) and the dists they make.
type resolvedSet struct {
	Key      resolveKey      `json:"key"`
	Dists    []string        `json:"dists"` // name==version, sorted
	Wheels   []resolvedWheel `json:"wheels"`
	Recorded time.Time       `json:"recorded"`
}

type resolvedRecord struct {
	Format int           `json:"format"`
	Sets   []resolvedSet `json:"sets"`
}

func readResolved(dir string) resolvedRecord {
	var rec resolvedRecord
	b, err := os.ReadFile(filepath.Join(dir, resolvedFile))
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Format != resolvedFormat {
		return resolvedRecord{Format: resolvedFormat}
	}
	return rec
}

// resolveKey is this run's key; ok is false when the Python's version is not known (no key then).
func (e *engine) resolveKey() (resolveKey, bool) {
	p := e.plan
	if p.pyVersion == "" || len(p.pins) == 0 {
		return resolveKey{}, false
	}
	goos := p.venv.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	k := resolveKey{Pins: slices.Sorted(slices.Values(p.pins)), IndexURL: urls.Strip(p.IndexURL), FindLinks: urls.Strip(p.FindLinks),
		Mirror: urls.Strip(p.Target.Mirror), Python: p.pyVersion, Platform: goos + "-" + runtime.GOARCH}
	if len(p.optional) > 0 {
		k.Optional = slices.Sorted(slices.Values(p.optional))
	}
	return k, true
}

// recordedSet finds this run's key in the cache folder's record; why says what kept it from
// being found (for the log).
func (e *engine) recordedSet() (set *resolvedSet, why string) {
	k, ok := e.resolveKey()
	if !ok {
		return nil, "the Python's version is not known" //i18n:raw the log's reason, for support
	}
	rec := readResolved(e.plan.StageDir)
	var other *resolvedSet
	for i, s := range rec.Sets {
		if s.Key.String() == k.String() {
			return &rec.Sets[i], ""
		}
		if s.Key.sameRequest(k) {
			other = &rec.Sets[i]
		}
	}
	switch {
	case other != nil && other.Key.Python != k.Python:
		return nil, fmt.Sprintf("the recorded resolution is for Python %s, this is Python %s", other.Key.Python, k.Python) //i18n:raw the log's reason, for support
	case other != nil:
		return nil, fmt.Sprintf("the recorded resolution is for %s, this is %s", other.Key.Platform, k.Platform) //i18n:raw the log's reason, for support
	}
	return nil, "no resolution recorded for this request" //i18n:raw the log's reason, for support
}

// acceptSet checks a recorded set against the cache folder as the cache's check found it and
// against what pip would accept for this run; it returns the set's wheel files, or an error saying
// why not.
func (e *engine) acceptSet(set *resolvedSet, c cacheCheck) ([]string, error) {
	hashes := readWheelRecord(e.plan.StageDir).Wheels
	goos := e.plan.venv.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	var files []string
	var infos []wheelInfo
	versions := map[string]string{}
	for _, w := range set.Wheels {
		p := filepath.Join(e.plan.StageDir, w.File)
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s is no longer in the cache", w.File) //i18n:raw the log's reason, for support
		}
		if !slices.Contains(c.Verified, w.File) || !strings.EqualFold(hashes[w.File].SHA256, w.SHA256) {
			return nil, fmt.Errorf("%s changed since the resolution was recorded", w.File) //i18n:raw the log's reason, for support
		}
		name, version, ok := parseWheelName(w.File)
		if !ok {
			return nil, fmt.Errorf("%s is not a wheel's name", w.File) //i18n:raw the log's reason, for support
		}
		if v, dup := versions[name]; dup && v != version {
			return nil, fmt.Errorf("two versions of %s (%s and %s)", name, v, version) //i18n:raw the log's reason, for support
		}
		versions[name] = version
		if !wheelRuns(p, e.plan.pyVersion, goos) {
			return nil, fmt.Errorf("%s does not install on Python %s (%s)", w.File, e.plan.pyVersion, goos) //i18n:raw the log's reason, for support
		}
		files = append(files, p)
		infos = append(infos, wheelInfo{file: p, name: name, version: version, size: info.Size()})
	}
	for _, pin := range slices.Concat(e.plan.pins, e.plan.optional) {
		if _, ok := wheelFor(infos, pin); !ok {
			return nil, fmt.Errorf("no wheel of the set is %s", pin) //i18n:raw the log's reason, for support
		}
	}
	for _, n := range e.plan.ReinstallDists {
		if _, ok := versions[pep.Normalize(n)]; !ok {
			return nil, fmt.Errorf("no wheel of the set puts back %s", n) //i18n:raw the log's reason, for support
		}
	}
	// Each requirement a wheel always has (no marker: pip evaluated the others for this same Python
	// and platform when it chose the set) names a dist of the set.
	for _, w := range infos {
		reqs, err := wheelRequires(w.file)
		if err != nil {
			return nil, err
		}
		for _, r := range reqs {
			if strings.Contains(r, ";") {
				continue
			}
			if n := requirementName(r); n != "" && versions[n] == "" {
				return nil, fmt.Errorf("%s requires %s, which no wheel of the set is", filepath.Base(w.file), r) //i18n:raw the log's reason, for support
			}
		}
	}
	slices.Sort(files)
	return files, nil
}

// requirementName is the PEP 503 name a requirement string starts with ("torch (==2.6.0)",
// "numpy>=1.2", "pkg[extra]>=1").
func requirementName(r string) string {
	r = strings.TrimSpace(r)
	end := strings.IndexFunc(r, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')
	})
	if end >= 0 {
		r = r[:end]
	}
	return pep.Normalize(r)
}

// recordResolution writes down the set this run's stage steps chose, once they all ended well and
// chose it themselves (pip's resolve, the offline try or the download): not a set taken from the
// record or from the venv's lock, nor one without its optional packages.
func (e *engine) recordResolution() error {
	if e.stageFrom != "" || e.optionalDropped || len(e.stagedFiles) == 0 {
		return nil
	}
	k, ok := e.resolveKey()
	if !ok {
		return nil
	}
	hashes := readWheelRecord(e.plan.StageDir).Wheels
	set := resolvedSet{Key: k, Recorded: time.Now().UTC()}
	for f := range e.stagedFiles {
		base := filepath.Base(f)
		name, version, ok := parseWheelName(base)
		if !ok || filepath.Dir(f) != filepath.Clean(e.plan.StageDir) || hashes[base].SHA256 == "" {
			return nil // a wheel outside the cache folder or without its hash: nothing certain to keep
		}
		set.Wheels = append(set.Wheels, resolvedWheel{File: base, SHA256: hashes[base].SHA256})
		set.Dists = append(set.Dists, name+"=="+version)
	}
	slices.SortFunc(set.Wheels, func(a, b resolvedWheel) int { return strings.Compare(a.File, b.File) })
	slices.Sort(set.Dists)
	rec := readResolved(e.plan.StageDir)
	rec.Sets = slices.DeleteFunc(rec.Sets, func(s resolvedSet) bool { return s.Key.String() == k.String() })
	rec.Sets = append(rec.Sets, set)
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(e.plan.StageDir, resolvedFile), b, 0o644); err != nil {
		return errors.Join(errors.New(resolvedFile), err)
	}
	e.note(fmt.Sprintf("stage: the resolution (%d wheels) recorded in %s for %s", len(set.Wheels), resolvedFile, k)) //i18n:raw the log, for support
	return nil
}
