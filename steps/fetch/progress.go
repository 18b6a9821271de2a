package fetch

import (
	"sync"
	"sync/atomic"
	"time"
)

// Counters are a download's progress, safe to read at any moment from any goroutine (a bar
// redrawn several times a second reads them while the download writes them).
type Counters struct {
	done    atomic.Int64 // bytes of the set in place: reused and fetched
	total   atomic.Int64 // bytes of the set, as far as sizes are known
	fetched atomic.Int64 // bytes that came over the network in this run
	files   atomic.Int64
	filesOK atomic.Int64
	unknown atomic.Int64 // files whose size is not known yet

	mu      sync.Mutex
	samples []sample // recent (time, fetched) for the rate
}

type sample struct {
	t time.Time
	n int64
}

// Stats is one reading of the counters.
type Stats struct {
	Done, Total int64 // bytes; Total 0 while no size is known
	Fetched     int64 // bytes over the network in this run (Done minus what was already there)
	BytesPerSec float64
	ETA         time.Duration // 0 when unknown
	Files       int
	FilesDone   int
	SizeKnown   bool // every file's size is known: Total is final
}

// rateWindow is how far back the rate looks: long enough to be steady, short enough to follow a
// link that slows down.
const rateWindow = 3 * time.Second

// Stats reads the counters: bytes, the rate over the last seconds and the time left at that rate.
func (c *Counters) Stats() Stats {
	s := Stats{Done: c.done.Load(), Total: c.total.Load(), Fetched: c.fetched.Load(),
		Files: int(c.files.Load()), FilesDone: int(c.filesOK.Load()), SizeKnown: c.unknown.Load() == 0}
	now := time.Now()
	c.mu.Lock()
	c.samples = append(c.samples, sample{now, s.Fetched})
	for len(c.samples) > 2 && now.Sub(c.samples[1].t) > rateWindow {
		c.samples = c.samples[1:]
	}
	first := c.samples[0]
	c.mu.Unlock()
	if dt := now.Sub(first.t).Seconds(); dt > 0.1 {
		s.BytesPerSec = float64(s.Fetched-first.n) / dt
	}
	if s.BytesPerSec > 0 && s.SizeKnown && s.Total > s.Done {
		s.ETA = time.Duration(float64(s.Total-s.Done) / s.BytesPerSec * float64(time.Second))
	}
	return s
}
