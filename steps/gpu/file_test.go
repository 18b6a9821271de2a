package gpu

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFromFile(t *testing.T) {
	p, err := FromFile("../../testdata/fakenvml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Probe(context.Background())
	if !r.Simulated || r.Backend != "nvml.dll" || len(r.GPUs) != 2 || r.GPUs[1].ComputeCapability != "6.1" {
		t.Fatalf("keeps the file's facts, marked simulated: %+v", r)
	}
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.json")
	os.WriteFile(bare, []byte(`{"available":true,"driver_version":"560.94","gpus":[{"index":0,"name":"NVIDIA GeForce RTX 3060","memory_total_mib":12288,"compute_capability":"8.6"}]}`), 0o644)
	p, err = FromFile(bare)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := p.Probe(context.Background()); r.Backend != "simulated" || r.GPUs[0].Processes == nil {
		t.Fatalf("%+v", r)
	}
}

func TestFromFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "nope.json"), "does not exist"},
		{write("junk.json", "not json"), "not a GPU report"},
		{write("wrongtype.json", `{"available":true,"driver_version":"566.36","gpus":[{"name":"x","index":"zero"}]}`), `cannot unmarshal string`},
		{write("noname.json", `{"available":true,"driver_version":"566.36","gpus":[{"index":0}]}`), `gpus[0] has no name`},
		{write("empty.json", `{}`), `"available" is missing`},
		{write("nocards.json", `{"available":true,"gpus":[]}`), `"gpus" is empty`},
		{write("baddriver.json", `{"available":true,"driver_version":"abc","gpus":[{"name":"x"}]}`), `"driver_version": driver version "abc"`},
		{write("nodriver.json", `{"available":true,"gpus":[{"name":"x"}]}`), `"driver_version": driver version ""`},
		{write("badcuda.json", `{"available":true,"driver_version":"566.36","cuda_max":"zz","gpus":[{"name":"x"}]}`), `"cuda_max": CUDA version "zz"`},
		{write("badcap.json", `{"available":true,"driver_version":"566.36","gpus":[{"name":"x","compute_capability":"99"}]}`), `gpus[0] "compute_capability": compute capability "99"`},
		{write("bados.json", `{"available":false,"os":"darwin","gpus":[]}`), `"os" is "darwin"`},
	} {
		_, err := FromFile(c.path)
		if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want the path and %q", filepath.Base(c.path), err, c.want)
		}
	}
}

// A report from a newer gpuwiz (or edited by hand) with fields this one does not know is read; the
// fields are named for the caller's one warning. ParseReport, for gpuwiz's own output, stays strict.
func TestFromFileIgnoresUnknownFieldsAndNamesThem(t *testing.T) {
	p := filepath.Join(t.TempDir(), "newer.json")
	body := `{"available":true,"driver_version":"560.94","gpu_count":1,"gpus":[{"index":0,"name":"NVIDIA GeForce RTX 3060","compute_capability":"8.6","fan_speed_pct":40}]}`
	os.WriteFile(p, []byte(body), 0o644)
	pr, err := FromFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(UnknownFields(pr), ","); got != "gpu_count,gpus[0].fan_speed_pct" {
		t.Errorf("unknown fields %q", got)
	}
	if r, _ := pr.Probe(context.Background()); r.DriverVersion != "560.94" || r.GPUs[0].ComputeCapability != "8.6" {
		t.Errorf("the known fields were not read: %+v", r)
	}
	if _, err := ParseReport([]byte(body)); err == nil || !strings.Contains(err.Error(), `unknown field "gpu_count"`) {
		t.Errorf("ParseReport: err = %v", err)
	}
	if UnknownFields(Default()) != nil {
		t.Error("the real prober has unknown fields")
	}
}
