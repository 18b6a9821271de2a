package install

import (
	"os"
	"path/filepath"
	"sort"
	"time"

	"gpuwiz/steps/wheelinst"
)

// CacheBuild is one build's folder in the wheel cache.
type CacheBuild struct {
	Name   string `json:"name"` // framework-version-channel; "add/<venv>-<hash>" for a venv's project packages
	Dir    string `json:"dir"`
	Wheels int    `json:"wheels"`
	Bytes  int64  `json:"bytes"`
}

// CacheReport is what the wheel cache and the cache of unpacked wheels hold.
type CacheReport struct {
	Dir           string            `json:"dir"`
	Builds        []CacheBuild      `json:"builds"`
	WheelBytes    int64             `json:"wheel_bytes"`
	UnpackedDir   string            `json:"unpacked_dir"`
	Unpacked      []wheelinst.Entry `json:"unpacked"`
	UnpackedBytes int64             `json:"unpacked_bytes"`
	Removed       []wheelinst.Entry `json:"removed,omitempty"`
	RemovedBuilds []CacheBuild      `json:"removed_builds,omitempty"`
}

// ReadCache lists the wheel cache at dir ("" = the default one).
func ReadCache(dir string) (CacheReport, error) {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	rep := CacheReport{Dir: dir, UnpackedDir: UnpackedDir(dir), Builds: []CacheBuild{}, Unpacked: []wheelinst.Entry{}}
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return rep, err
	}
	var folders []string // relative to dir
	for _, e := range ents {
		if !e.IsDir() || e.Name() == filepath.Base(rep.UnpackedDir) {
			continue
		}
		if e.Name() == addStageRoot {
			// add stages each venv's project packages one level down: add/<venv>-<hash>.
			subs, _ := os.ReadDir(filepath.Join(dir, e.Name()))
			for _, s := range subs {
				if s.IsDir() && s.Name() != filepath.Base(rep.UnpackedDir) { // add's own unpacked wheels are no build
					folders = append(folders, e.Name()+"/"+s.Name())
				}
			}
			continue
		}
		folders = append(folders, e.Name())
	}
	for _, f := range folders {
		b := CacheBuild{Name: f, Dir: filepath.Join(dir, filepath.FromSlash(f))}
		ws, _ := stagedWheels(b.Dir)
		for _, w := range ws {
			b.Wheels++
			b.Bytes += w.size
		}
		rep.WheelBytes += b.Bytes
		rep.Builds = append(rep.Builds, b)
	}
	sort.Slice(rep.Builds, func(i, j int) bool { return rep.Builds[i].Name < rep.Builds[j].Name })
	un, err := wheelinst.List(rep.UnpackedDir)
	if err != nil {
		return rep, err
	}
	rep.Unpacked = append(rep.Unpacked, un...)
	for _, u := range un {
		rep.UnpackedBytes += u.Bytes
	}
	return rep, nil
}

// PruneCache removes the unpacked wheels older than olderThan (0: all of them; a venv keeps the
// files it links to) and, with wheels, the wheel cache's build folders too (then a repair needs the
// network again). It returns the cache as it is afterwards, with what was removed.
func PruneCache(dir string, olderThan time.Duration, wheels bool) (CacheReport, error) {
	rep, err := ReadCache(dir)
	if err != nil {
		return rep, err
	}
	cut := time.Now().Add(-olderThan)
	gone, err := wheelinst.Prune(rep.UnpackedDir, func(e wheelinst.Entry) bool { return olderThan > 0 && e.Created.After(cut) })
	if err != nil {
		return rep, err
	}
	var goneBuilds []CacheBuild
	if wheels {
		for _, b := range rep.Builds {
			if err := os.RemoveAll(b.Dir); err != nil {
				return rep, err
			}
			goneBuilds = append(goneBuilds, b)
		}
	}
	after, err := ReadCache(rep.Dir)
	after.Removed, after.RemovedBuilds = gone, goneBuilds
	return after, err
}
