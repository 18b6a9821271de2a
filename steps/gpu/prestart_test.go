package gpu

import (
	"context"
	"testing"
)

// TestPrestartHandsItsProberToTheNextDefault: the prober Prestart started is the next Default's NVML
// backend, once; the chain's report is the same as without it (on this machine: no driver).
func TestPrestartHandsItsProberToTheNextDefault(t *testing.T) {
	Prestart()
	started := prestarted
	if started == nil {
		t.Fatal("Prestart kept no prober")
	}
	c := Default().(*chain)
	if c.backends[0].p != started {
		t.Errorf("the next Default does not use the prestarted prober")
	}
	if Default().(*chain).backends[0].p == started {
		t.Errorf("a second Default reuses it")
	}
	withPrestart, err := c.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	without, err := Default().Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if withPrestart.Available != without.Available || withPrestart.Message != without.Message || withPrestart.Backend != without.Backend {
		t.Errorf("with Prestart %+v\nwithout %+v", withPrestart, without)
	}
}
