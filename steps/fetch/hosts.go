package fetch

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultPerHost is how many connections the downloader opens to one host at once unless told
// otherwise: the number browsers open, which mirrors that block clients opening many (TUNA, BFSU)
// accept, and enough to fill a link whose server caps each connection.
const DefaultPerHost = 6

// pool hands out the parts to download, at most limit[host] of them at once per host. A host that
// answers 429 or 503 gets one connection fewer (down to one) for the rest of the run.
type pool struct {
	mu    sync.Mutex
	cond  *sync.Cond
	def   int
	limit map[string]int
	busy  map[string]int
	parts []*part
}

func newPool(ctx context.Context, perHost int) *pool {
	p := &pool{def: perHost, limit: map[string]int{}, busy: map[string]int{}}
	p.cond = sync.NewCond(&p.mu)
	go func() { // a cancelled run wakes every waiter
		<-ctx.Done()
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	}()
	return p
}

func (p *pool) capOf(host string) int {
	if n, ok := p.limit[host]; ok {
		return n
	}
	return p.def
}

// acquire waits for a free connection to host; false when ctx ended first.
func (p *pool) acquire(ctx context.Context, host string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.busy[host] >= p.capOf(host) {
		if ctx.Err() != nil {
			return false
		}
		p.cond.Wait()
	}
	if ctx.Err() != nil {
		return false
	}
	p.busy[host]++
	return true
}

func (p *pool) release(host string) {
	p.mu.Lock()
	p.busy[host]--
	p.cond.Broadcast()
	p.mu.Unlock()
}

// fewer lowers host's cap by one after it answered 429 or 503; it says the new cap, and false when
// the cap was already one.
func (p *pool) fewer(host string) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.capOf(host)
	if b := p.busy[host]; b < n { // the cap is what the host took when it complained
		n = max(b, 1)
	}
	if n <= 1 {
		p.limit[host] = 1
		return 1, false
	}
	p.limit[host] = n - 1
	return n - 1, true
}

// next takes the first part (longest first) whose host has a free connection, and that
// connection; a part with nothing left to fetch (only its check) needs none. nil: no part is left,
// or ctx ended.
func (p *pool) next(ctx context.Context) *part {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if ctx.Err() != nil || len(p.parts) == 0 {
			return nil
		}
		for i, pt := range p.parts {
			if pt.idx < 0 || p.busy[pt.j.host] < p.capOf(pt.j.host) {
				p.parts = append(p.parts[:i:i], p.parts[i+1:]...)
				if pt.idx >= 0 {
					p.busy[pt.j.host]++
				}
				return pt
			}
		}
		p.cond.Wait()
	}
}

// retryAfter is a 429 or 503 answer's Retry-After in seconds (an HTTP date is not worth the
// parsing here), at most a minute; 0 when none.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	n, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || n <= 0 {
		return 0
	}
	return min(time.Duration(n)*time.Second, time.Minute)
}
