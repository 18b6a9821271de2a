package install

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// offlineTry matches an offline try (pip download --no-index) in a run's log.
var offlineTry = regexp.MustCompile(`(?m)^\$ .* download .*--no-index`)

// A first install into an empty wheel cache makes no offline try (pip download --no-index could only
// fail: the cache holds no torch wheel); the log says why, and the screen still says the download
// follows. Once the cache holds the pinned wheels but misses a dependency, the try is made again.
func TestOfflineTrySkippedWithoutThePinnedWheels(t *testing.T) {
	ix := serve(t)
	cache := t.TempDir()
	o := options(t, pyindex.NewVenv(t, ""), torchTarget(ix, "cu126"), cache)
	plan, out, events := install(t, context.Background(), o, nil)
	if !out.OK() {
		t.Fatalf("install: %+v", out)
	}
	log, err := os.ReadFile(o.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if offlineTry.Match(log) {
		t.Errorf("the first install made an offline try from an empty cache:\n%s", log)
	}
	if !strings.Contains(string(log), "the offline try is skipped: the cache holds no wheel for torch==2.6.0+cu126") {
		t.Errorf("the log does not say why the offline try was skipped:\n%s", log)
	}
	if !slices.ContainsFunc(events, func(e Event) bool { return strings.Contains(e.Line, "does not hold the whole build yet") }) {
		t.Errorf("no line says the download follows the cache miss")
	}

	// The cache holds torch and torchvision, not their dependency: pip decides, offline first.
	deps, _ := filepath.Glob(filepath.Join(plan.StageDir, "gpuwiz_dep-*.whl"))
	if len(deps) == 0 {
		t.Fatalf("no dependency wheel staged in %s", plan.StageDir)
	}
	for _, d := range deps {
		if err := os.Remove(d); err != nil {
			t.Fatal(err)
		}
	}
	o = options(t, pyindex.NewVenv(t, ""), torchTarget(ix, "cu126"), cache)
	if _, out, _ = install(t, context.Background(), o, nil); !out.OK() {
		t.Fatalf("second install: %+v", out)
	}
	log, _ = os.ReadFile(o.LogPath)
	if !offlineTry.Match(log) || strings.Contains(string(log), "the offline try is skipped") {
		t.Errorf("with the pinned wheels cached the offline try was not made:\n%s", log)
	}
}
