package gpu

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

type countingProber struct{ n atomic.Int64 }

func (c *countingProber) Probe(context.Context) (Report, error) { return Report{Available: true}, nil }
func (c *countingProber) Sample(context.Context) ([]Sample, error) {
	n := c.n.Add(1)
	return []Sample{{Index: 0, UtilizationPct: float64(n)}, {Index: 1}}, nil
}

func TestSamplerSlowReaderGetsNewestAndProducerNeverBlocks(t *testing.T) {
	p := &countingProber{}
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSampler(p, MinSampleInterval)
	ch := s.Run(ctx)
	first := <-ch
	for p.n.Load() < 6 { // the producer keeps sampling while nobody reads
		time.Sleep(5 * time.Millisecond)
	}
	got := <-ch
	if got[0].UtilizationPct <= first[0].UtilizationPct+3 || s.Dropped() == 0 {
		t.Fatalf("slow reader got reading %v after %v (dropped %d); want the newest", got[0].UtilizationPct, first[0].UtilizationPct, s.Dropped())
	}
	cancel()
	for range ch { // closes once ctx ends
	}
}

func TestSamplerFromFileMovesWithinRange(t *testing.T) {
	p, err := FromFile("../../testdata/fakenvml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	got := <-Watch(ctx, p, 250*time.Millisecond)
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	for _, s := range got {
		if s.UtilizationPct < 30 || s.UtilizationPct > 100 || s.MemoryUsedMiB > s.MemoryTotalMiB || s.PowerW <= 0 || s.SMClockMHz <= 0 {
			t.Errorf("implausible simulated reading %+v", s)
		}
	}
}

// BenchmarkSamplerHandOff is the producer's cost per reading when the reader is behind
// (replace the unread reading): what the sampler adds on top of the prober's own Sample.
func BenchmarkSamplerHandOff(b *testing.B) {
	s := NewSampler(&countingProber{}, MinSampleInterval)
	ch := make(chan []Sample, 1)
	reading := []Sample{{Index: 0}, {Index: 1}}
	b.ReportAllocs()
	for range b.N {
		s.offer(ch, reading)
	}
}

// BenchmarkNVMLSampleFakeTable is one Sample through the Windows backend's logic (fake table, 1 GPU,
// 3 processes): decoding cost without the DLL.
func BenchmarkNVMLSampleFakeTable(b *testing.B) {
	f := &fakeTable{nprocs: 3, missing: map[string]bool{}}
	p := newNVMLProber("nvml.dll", func() (nvmlLib, error) { return newDLLLib(f), nil })
	if _, err := p.Probe(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f.calls = f.calls[:0]
		if _, err := p.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// Dropped is how many readings were replaced before the reader took them.
func (s *Sampler) Dropped() int64 { return s.dropped.Load() }
