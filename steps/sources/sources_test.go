package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedListParsesAndResolvesChannels(t *testing.T) {
	l, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	torch := l.For("torch", "cu126", "https://download.pytorch.org/whl/cu126")
	if torch[0].Kind != KindOfficial || torch[0].IndexURL != "https://download.pytorch.org/whl/cu126" {
		t.Fatalf("official first: %+v", torch[0])
	}
	var flat, index bool
	for _, c := range torch[1:] {
		if strings.Contains(c.IndexURL+c.FindLinks+c.Mirror, "{") {
			t.Errorf("unresolved placeholder: %+v", c)
		}
		if c.Seen == "" {
			t.Errorf("%s says nowhere where its URL form was seen", c.ID)
		}
		switch c.Kind {
		case KindFlat:
			flat = true
			if c.Mirror == "" {
				t.Errorf("%s: a flat page without a dependency index", c.ID)
			}
		case KindIndex:
			index = true
		case KindDeps:
			t.Errorf("%s: a dependencies-only mirror for torch", c.ID)
		}
	}
	if !flat || !index {
		t.Errorf("want both a flat page and an index among torch's mirrors: %+v", torch)
	}
	if c := find(torch, "aliyun-pytorch"); c.FindLinks != "https://mirrors.aliyun.com/pytorch-wheels/cu126/" || c.Mirror != "https://mirrors.aliyun.com/pypi/simple/" {
		t.Errorf("aliyun: %+v", c)
	}
	paddle := l.For("paddle", "cu126", "https://www.paddlepaddle.org.cn/packages/stable/cu126/")
	if len(paddle) < 5 {
		t.Fatalf("paddle: %+v", paddle)
	}
	for _, c := range paddle[1:] {
		if c.Kind != KindDeps || c.IndexURL != paddle[0].IndexURL {
			t.Errorf("paddle's framework wheels come only from the official index: %+v", c)
		}
	}
}

func find(cs []Candidate, id string) Candidate {
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	return Candidate{}
}

func TestParseIsStrictAndSaysWhatIsWrong(t *testing.T) {
	cases := []struct{ body, want string }{
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"https://x.org/{channel}\"\nmirror = \"y\"\n", "x.toml:8: unknown key 'source.mirror'"},
		{"schema = 2\n", "schema = 2"},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"flat\"\nurl = \"https://x.org/{channel}/\"\n", `needs deps_index`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"deps\"\nurl = \"https://x.org/simple\"\n", `for paddle only`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"tf\"]\nlayout = \"index\"\nurl = \"https://x.org/\"\n", `framework "tf"`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"https://x.org/{cuda}\"\n", `only placeholder is {channel}`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"http://x.org/whl\"\n", `use https`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"mirror\"\nurl = \"https://x.org/whl\"\n", `layout "mirror"`},
		{"schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"https://x.org/whl\"\n[[source]]\nid = \"a\"\nname = \"B\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"https://y.org/whl\"\n", `id "a" is used twice`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.body), "x.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.body, err, c.want)
		}
	}
}

func TestLoadFileOverridesTheEmbeddedList(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.toml")
	body := "schema = 1\n[[source]]\nid = \"local\"\nname = \"local test index\"\nframeworks = [\"torch\", \"paddle\"]\nlayout = \"index\"\nurl = \"http://127.0.0.1:8080/whl/{channel}\"\nseen = \"a test\"\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	got := l.For("torch", "cu118", "https://download.pytorch.org/whl/cu118")
	if len(got) != 2 || got[1].IndexURL != "http://127.0.0.1:8080/whl/cu118" {
		t.Fatalf("%+v", got)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "none.toml")); err == nil || !strings.Contains(err.Error(), "cannot read the sources file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestWheelFits(t *testing.T) {
	lin := Build{Project: "torch", Version: "2.6.0+cu126", Python: "3.12", GOOS: "linux", GOARCH: "amd64"}
	win := lin
	win.GOOS = "windows"
	cases := []struct {
		file string
		b    Build
		want bool
	}{
		{"torch-2.6.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl", lin, true},
		{"torch-2.6.0%2Bcu126-cp312-cp312-linux_x86_64.whl", lin, false}, // href not unescaped: not a file name
		{"torch-2.6.0+cu126-cp312-cp312-linux_x86_64.whl", lin, true},
		{"torch-2.6.0+cu126-cp312-cp312-manylinux2014_aarch64.whl", lin, false},
		{"torch-2.6.0+cu126-cp311-cp311-manylinux_2_28_x86_64.whl", lin, false},
		{"torch-2.6.0+cu126-cp312-cp312t-manylinux_2_28_x86_64.whl", lin, false},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", win, true},
		{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", lin, false},
		{"torch-2.6.0+cu126-py3-none-any.whl", lin, true},
		{"torch-2.6.0+cu126-cp39-abi3-manylinux_2_28_x86_64.whl", lin, true},
		{"torch-2.6.0+cu126-cp313-abi3-manylinux_2_28_x86_64.whl", lin, false},
		{"torch-2.6.0+CU126-1-cp312-cp312-manylinux_2_28_x86_64.whl", lin, true}, // a build tag, upper case
		{"torch-2.6.0-cp312-cp312-manylinux_2_28_x86_64.whl", lin, false},        // no local label: a PyPI build
		{"paddlepaddle_gpu-3.0.0-cp312-cp312-manylinux1_x86_64.whl", Build{Project: "paddlepaddle-gpu", Version: "3.0.0", Python: "3.12", GOOS: "linux", GOARCH: "amd64"}, true},
	}
	for _, c := range cases {
		got := judge([]string{c.file}, c.b).file != ""
		if got != c.want {
			t.Errorf("%s for %s: got %v", c.file, c.b, got)
		}
	}
}
