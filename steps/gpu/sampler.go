package gpu

import (
	"context"
	"sync/atomic"
	"time"
)

// MinSampleInterval keeps a typo (1ms) from turning the sampler into a busy loop.
const MinSampleInterval = 20 * time.Millisecond

// Sampler reads a Prober at a fixed interval and hands the readings to one reader.
type Sampler struct {
	p        Prober
	interval time.Duration
	dropped  atomic.Int64
	failed   atomic.Int64
}

// NewSampler samples p every interval (at least MinSampleInterval); 250 ms gives 4 Hz.
func NewSampler(p Prober, interval time.Duration) *Sampler {
	return &Sampler{p: p, interval: max(interval, MinSampleInterval)}
}

// Run samples until ctx ends, then closes the channel. The channel holds the newest reading only:
// a slow reader gets the latest one, older unread ones are replaced (counted in dropped), and the
// producer never blocks. A failed reading is skipped (counted in Failed).
func (s *Sampler) Run(ctx context.Context) <-chan []Sample {
	ch := make(chan []Sample, 1)
	go func() {
		defer close(ch)
		t := time.NewTicker(s.interval)
		defer t.Stop()
		for {
			if got, err := s.p.Sample(ctx); err == nil {
				s.offer(ch, got)
			} else if ctx.Err() == nil {
				s.failed.Add(1)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return ch
}

func (s *Sampler) offer(ch chan []Sample, got []Sample) {
	for {
		select {
		case ch <- got:
			return
		default:
		}
		select {
		case <-ch: // the reader is behind: replace its unread reading with this newer one
			s.dropped.Add(1)
		default:
		}
	}
}

// Failed is how many readings the prober could not take.
func (s *Sampler) Failed() int64 { return s.failed.Load() }

// Watch is NewSampler(p, interval).Run(ctx).
func Watch(ctx context.Context, p Prober, interval time.Duration) <-chan []Sample {
	return NewSampler(p, interval).Run(ctx)
}
