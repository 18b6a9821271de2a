package install

import (
	"net"
	"os/exec"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// ClassifyPipFailure on what real pip prints: an index on a closed loopback port (pip's "Retrying"
// warnings, then "No matching distribution": not reached, not missing), a project the index lacks and
// a version it lacks, two requirements whose dependencies conflict, and a requirement pip cannot
// parse (none of these). (An index answering 503 is no case: pip says of it only what it says of a
// missing project, its retries logged at debug level.)
func TestClassifyPipFailureOnRealPipOutput(t *testing.T) {
	dir := t.TempDir()
	var wheels []string
	add := func(dist, version string, requires ...string) {
		p, err := pyindex.BuildWheel(dir, dist, version, map[string]string{strings.ReplaceAll(dist, "-", "_") + "/__init__.py": "V = 1\n"}, requires, 0)
		if err != nil {
			t.Fatal(err)
		}
		wheels = append(wheels, p)
	}
	add("projx", "1.0")
	add("wants-old", "1.0", "shared==1.0")
	add("wants-new", "1.0", "shared==2.0")
	add("shared", "1.0")
	add("shared", "2.0")
	ix := pyindex.Serve(t, map[string][]string{"pypi": wheels})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/simple"
	l.Close()

	py := pyindex.NewVenv(t, "").Python()
	env := append(pyindex.PipEnv(t), "PIP_RETRIES=1", "PIP_TIMEOUT=5")
	pip := func(index string, reqs ...string) []string {
		t.Helper()
		cmd := exec.Command(py, append([]string{"-m", "pip", "install", "--dry-run", "--index-url", index}, reqs...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("pip %v succeeded:\n%s", reqs, out)
		}
		return strings.Split(string(out), "\n")
	}
	for _, c := range []struct {
		what, index string
		reqs        []string
		kind, pkg   string
	}{
		{"a closed port", closed, []string{"projx"}, PipFailUnreachable, ""},
		{"a project the index lacks", ix.ChannelURL("pypi"), []string{"nosuchpkg"}, PipFailNoSuchPackage, "nosuchpkg"},
		{"a version the index lacks", ix.ChannelURL("pypi"), []string{"projx==9.0"}, PipFailNoSuchPackage, "projx==9.0"},
		{"conflicting dependencies", ix.ChannelURL("pypi"), []string{"wants-old", "wants-new"}, PipFailConflict, ""},
		{"a requirement pip cannot parse", ix.ChannelURL("pypi"), []string{"projx[="}, "", ""},
	} {
		out := pip(c.index, c.reqs...)
		if kind, pkg := ClassifyPipFailure(out); kind != c.kind || pkg != c.pkg {
			t.Errorf("%s: %q %q, want %q %q; pip said:\n%s", c.what, kind, pkg, c.kind, c.pkg, strings.Join(out, "\n"))
		}
		// An index that did not answer also ends in "No matching distribution": the order of the
		// checks is what tells the two apart.
		if c.kind == PipFailUnreachable && !strings.Contains(strings.Join(out, "\n"), "No matching distribution found") {
			t.Errorf("%s: pip no longer ends with No matching distribution:\n%s", c.what, strings.Join(out, "\n"))
		}
	}
}
