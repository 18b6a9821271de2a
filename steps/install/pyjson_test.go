package install

import (
	"os/exec"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// TestPythonJSONIsJSONDumps: direct_url.json is written as pip writes it, json.dumps(d,
// sort_keys=True); Python itself writes the expected text from the same JSON.
func TestPythonJSONIsJSONDumps(t *testing.T) {
	for _, raw := range []string{
		`{"url": "file:///tmp/a%20b/x-1.0-py3-none-any.whl", "archive_info": {"hashes": {"sha256": "ab"}, "hash": "sha256=ab"}}`,
		`{"url":"file:///C:/Users/\u5f20\u4e09/\ud83d\ude00 x.whl","subdirectory":"sub\\dir","dir_info":{"editable":true}}`,
		`{"vcs_info":{"vcs":"git","commit_id":"0123","requested_revision":null},"url":"https://h/\"q\"\t\u007f\u0001","n":[1,2.5]}`,
	} {
		cmd := exec.Command(pyindex.Python(t), "-c", "import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), sort_keys=True))")
		cmd.Stdin = strings.NewReader(raw)
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		got := pythonJSON([]byte(raw))
		if string(got) != string(want) {
			t.Errorf("pythonJSON(%s)\n got %s\nwant %s", raw, got, want)
		}
	}
	if pythonJSON(nil) != nil || pythonJSON([]byte("{")) != nil {
		t.Error("no JSON: nil")
	}
}
