package app

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// gpuwizLock writes a requirements.lock as gpuwiz writes it for a torch cu126 build whose
// dependencies came from mirror ("" none).
func gpuwizLock(t *testing.T, mirror string) string {
	t.Helper()
	venv := t.TempDir()
	lock := "# written by gpuwiz: pip freeze of " + venv + " after installing torch 2.6.0 (cu126)\n" +
		"# where the build came from (a repair takes the same wheels from the cache, else from here; credentials are not kept):\n" +
		"# index-url: https://download.pytorch.org/whl/cu126\n"
	if mirror != "" {
		lock += "# mirror: " + mirror + "\n"
	}
	lock += "torch==2.6.0+cu126\nnumpy==2.1.0\n"
	if err := os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	return venv
}

// AddSources says what an add takes the project's packages from before pip runs: the mirror the lock
// recorded (named from the sources list), with the framework's index beside it; without one, the
// user's pip settings (the index they name and where). The choices are the sources list's PyPI-style
// mirrors, each once.
func TestAddSourcesNamesTheRecordedMirrorAndThePipSettings(t *testing.T) {
	env := &Env{G: &Globals{}}
	t.Setenv("PIP_CONFIG_FILE", os.DevNull)
	t.Setenv("PIP_INDEX_URL", "https://pip.example/simple")
	venv := gpuwizLock(t, "https://mirrors.aliyun.com/pypi/simple/")
	s := env.AddSources(venv)
	cur := s.Current
	if cur.Kind != AddFromMirror || !cur.Recorded || cur.IndexURL != "https://mirrors.aliyun.com/pypi/simple/" || cur.Name != "Aliyun PyPI mirror (dependencies)" ||
		cur.Beside != "https://download.pytorch.org/whl/cu126" {
		t.Errorf("current %+v", cur)
	}
	if s.FrameworkIndex != "https://download.pytorch.org/whl/cu126" || len(s.Build) != 1 || s.Build[0] != "torch==2.6.0+cu126" {
		t.Errorf("framework index %q, build %v", s.FrameworkIndex, s.Build)
	}
	seen := map[string]int{}
	var pip *AddSource
	for i, c := range s.Choices {
		seen[c.IndexURL]++
		if c.Kind == AddFromPipSettings {
			pip = &s.Choices[i]
		}
	}
	if s.Choices[0] != cur || pip == nil || pip.IndexURL != "https://pip.example/simple" || pip.Setting != "PIP_INDEX_URL" {
		t.Errorf("choices %+v", s.Choices)
	}
	for _, u := range []string{"https://pypi.tuna.tsinghua.edu.cn/simple", "https://mirrors.cloud.tencent.com/pypi/simple", "https://repo.huaweicloud.com/repository/pypi/simple/"} {
		if seen[u] != 1 {
			t.Errorf("%s listed %d times: %+v", u, seen[u], s.Choices)
		}
	}
	if seen["https://mirrors.aliyun.com/pypi/simple/"] != 1 {
		t.Errorf("the recorded mirror listed %d times", seen["https://mirrors.aliyun.com/pypi/simple/"])
	}
	if got := s.Typed("https://pypi.tuna.tsinghua.edu.cn/simple/"); got.Name == "" || got.Beside == "" {
		t.Errorf("a typed listed mirror %+v", got)
	}
	if got := s.Typed("https://my.example/simple"); got.Kind != AddFromMirror || got.Name != "" || got.Beside != "https://download.pytorch.org/whl/cu126" {
		t.Errorf("a typed mirror %+v", got)
	}

	t.Setenv("PIP_INDEX_URL", "")
	none := env.AddSources(gpuwizLock(t, ""))
	if c := none.Current; c.Kind != AddFromPipSettings || c.IndexURL != "" || c.Beside != "" {
		t.Errorf("without a recorded mirror: %+v", c)
	}
}

// The source chosen on the wizard's add screen reaches the add: another mirror takes the recorded
// one's place (the framework's index stays beside it), the pip settings set the recorded mirror aside.
func TestPlanAddTakesTheChosenSource(t *testing.T) {
	env := &Env{G: &Globals{}}
	for _, c := range []struct {
		src          AddSource
		index, extra string
	}{
		{AddSource{}, "https://mirror.a/simple", "https://download.pytorch.org/whl/cu126"},
		{AddSource{Kind: AddFromMirror, IndexURL: "https://mirror.b/simple"}, "https://mirror.b/simple", "https://download.pytorch.org/whl/cu126"},
		{AddSource{Kind: AddFromPipSettings}, "", ""},
	} {
		venv := gpuwizLock(t, "https://mirror.a/simple")
		// No Python in this venv: the preview stops after reading the lock, with its sources set.
		s, _ := env.PlanAdd(context.Background(), AddRequest{Venv: venv, Packages: []string{"projx"}, Source: c.src, LogPath: filepath.Join(venv, "add.log")})
		if s == nil || s.Preview.IndexURL != c.index || s.Preview.ExtraIndexURL != c.extra {
			t.Errorf("%+v: session %+v", c.src, s)
		}
		if s != nil && (s.Options.Net == nil || s.Options.Net != env.Net(venv)) {
			t.Errorf("%+v: the add has its own proxy rules, not the run's for this Python", c.src)
		}
	}
}

// A preview pip cannot make for another reason than a refusal comes back as AddPreviewFailed: what
// pip's output shows (here an index on a closed port: not reached) and the log holding all of it,
// pip's own lines included.
func TestPlanAddFailureSaysWhatAndWritesTheLog(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(strings.ToUpper(k), "PIP_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	t.Setenv("PIP_CONFIG_FILE", os.DevNull)
	t.Setenv("PIP_RETRIES", "1")
	t.Setenv("PIP_TIMEOUT", "5")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/simple"
	l.Close()
	v := pyindex.NewVenv(t, "")
	lock := "# written by gpuwiz: pip freeze of " + v.Root + " after installing torch 2.6.0 (cu126)\n# index-url: " + closed + "\ntorch==2.6.0+cu126\n"
	if err := os.WriteFile(filepath.Join(v.Root, "requirements.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "add.log")
	env := &Env{G: &Globals{}}
	_, err = env.PlanAdd(context.Background(), AddRequest{Venv: v.Root, Packages: []string{"projx"}, LogPath: log,
		Source: AddSource{Kind: AddFromMirror, IndexURL: closed}})
	var f *AddPreviewFailed
	if !errors.As(err, &f) || f.Kind != AddFailUnreachable || f.LogPath != log || CodeOf(err, 0) != ExitFailure {
		t.Fatalf("error %v (%#v)", err, f)
	}
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), "Retrying (Retry(") || !strings.Contains(string(b), "No matching distribution found for projx") {
		t.Fatalf("the log lacks pip's output:\n%s", b)
	}
}
