package install

import (
	"context"
	"os"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// A cold install downloads the wheels pip looks at while it resolves (the early fetch's line in
// the log), and the install is whole; GPUWIZ_EARLY_FETCH=0 turns that off.
func TestColdInstallFetchesWhilePipResolves(t *testing.T) {
	ix := serve(t)
	for _, off := range []bool{false, true} {
		v := pyindex.NewVenv(t, "")
		o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
		if off {
			o.Environ = append(o.Environ, "GPUWIZ_EARLY_FETCH=0")
		}
		_, out, _ := install(t, context.Background(), o, nil)
		if !out.OK() {
			t.Fatalf("install (early fetch off: %v): %+v", off, out)
		}
		log, err := os.ReadFile(o.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		early := strings.Contains(string(log), "the early fetch downloaded")
		if early == off {
			t.Errorf("early fetch off: %v; the log says it downloaded: %v\n%s", off, early, log)
		}
		if out.BytesDownloaded <= 0 {
			t.Errorf("bytes downloaded: %d", out.BytesDownloaded)
		}
	}
}
