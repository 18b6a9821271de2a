package fetch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Early downloads the wheels a resolve is looking at while it still runs: the shim hands on each
// wheel whose metadata pip reads (ShimOptions.Early), and they are fetched one after the other, in
// the order pip asked, with the connections of one fetch. Finish, given the resolve's answer,
// stops it: a file it finished is in place and checked, one it was in the middle of is left as a
// partial download that the fetch of the answer continues (see Fetch), and a finished file the
// answer does not hold (pip looked at it, then took another) is deleted. So the resolve's seconds
// are download seconds too, and nothing is fetched twice.
type Early struct {
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	queue  chan File
	done   chan struct{}

	mu      sync.Mutex
	queued  map[string]bool
	checked map[string]string // name → sha256 of a file fetched and checked whole
	fresh   map[string]bool   // names with neither the file nor a partial one before (removable)
	fetched int64             // bytes over the network
}

// StartEarly starts the background fetcher; o.Dir is where the files go (the fetch of the answer's
// folder). Finish must be called to stop it.
func StartEarly(ctx context.Context, o Options) *Early {
	ctx, cancel := context.WithCancel(ctx)
	e := &Early{o: o, ctx: ctx, cancel: cancel, queue: make(chan File, 256), done: make(chan struct{}),
		queued: map[string]bool{}, checked: map[string]string{}, fresh: map[string]bool{}}
	go e.run()
	return e
}

// Add queues f unless it was queued before; it never blocks (a full queue drops f: the fetch of
// the answer takes it).
func (e *Early) Add(f File) {
	if e == nil || f.Name == "" || !strings.HasSuffix(f.Name, ".whl") {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.queued[f.Name] || e.ctx.Err() != nil {
		return
	}
	select {
	case e.queue <- f:
		e.queued[f.Name] = true
	default:
	}
}

func (e *Early) run() {
	defer close(e.done)
	for {
		select {
		case <-e.ctx.Done():
			return
		case f := <-e.queue:
			o := e.o
			p := filepath.Join(o.Dir, f.Name)
			_, err1 := os.Lstat(p)
			_, err2 := os.Lstat(p + PartSuffix)
			e.mu.Lock()
			e.fresh[f.Name] = err1 != nil && err2 != nil
			e.mu.Unlock()
			o.Log = nil // the fetch of the answer says what it reused
			res, err := Fetch(e.ctx, []File{f}, o)
			e.mu.Lock()
			e.fetched += res.Fetched
			if err == nil && len(res.Files) == 1 && res.Files[0].SHA256 != "" {
				e.checked[f.Name] = res.Files[0].SHA256
			}
			e.mu.Unlock()
		}
	}
}

// Finish stops the fetcher and waits for it. keep are the files the resolve settled on. It says
// how many bytes came over the network, and checked: whether a file of keep was fetched whole and
// checked against that sha256 here (for Options.Checked of the fetch that follows).
func (e *Early) Finish(keep []File) (fetched int64, checked func(name, sha256 string) bool) {
	if e == nil {
		return 0, func(string, string) bool { return false }
	}
	e.cancel()
	<-e.done
	want := map[string]bool{}
	for _, f := range keep {
		want[f.Name] = true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for name, fresh := range e.fresh {
		if !want[name] && fresh { // only what this fetcher put there
			p := filepath.Join(e.o.Dir, name)
			_ = os.Remove(p)
			_ = os.Remove(p + PartSuffix)
			_ = os.Remove(p + StateSuffix)
			delete(e.checked, name)
		}
	}
	sums := e.checked
	return e.fetched, func(name, sha string) bool { return sha != "" && strings.EqualFold(sums[name], sha) }
}
