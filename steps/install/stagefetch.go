package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// progressEvery is how often a download's progress is reported (the bar is redrawn 5 times a second).
const progressEvery = 200 * time.Millisecond

// fetchStage stages the step's wheels with pip as the resolver and gpuwiz's downloader: pip says
// which files (with their sha256 when the source gives one) without downloading, then they are
// fetched in parallel, in Range parts, at most a few connections per host, continuing any partial
// file an earlier run left in the wheel cache. A wheel without a sha256 from its source is checked
// as a zip (every member's CRC-32) and recorded with the sha256 computed then. An error wrapping
// errUsePip means this way is not open here (an old pip, a file:// link…) and nothing was
// downloaded that pip would not reuse.
func (e *engine) fetchStage(ctx context.Context, s Step, pre *pendingResolve) error {
	if pre == nil {
		pre = e.startResolve(ctx, s, true)
	}
	r, err := pre.wait()
	if err != nil {
		return err
	}
	files, kept := r.files, r.kept
	early, earlyChecked := r.early.Finish(files)
	if early > 0 {
		e.note(fmt.Sprintf("stage: the early fetch downloaded %d bytes while pip resolved", early)) //i18n:raw the log, for support
	}
	netw, err := e.network(ctx)
	if err != nil {
		return err
	}
	e.fetched = append(e.fetched, kept...) // downloaded whole and checked by the resolve
	for _, f := range kept {
		e.noteStaged(filepath.Join(e.plan.StageDir, f.Name))
	}
	rec := readWheelRecord(e.plan.StageDir)
	from := urls.Strip(fetchSource(s, e.plan))
	for i, f := range files {
		// A source without sha256: the hash this cache computed when it staged the same file from there.
		if r, ok := rec.Wheels[f.Name]; ok && f.SHA256 == "" && r.From == from && r.SHA256 != "" {
			files[i].SHA256 = r.SHA256
		}
	}
	e.emit(Event{StepID: s.ID, Message: i18n.N("install.event.resolved", len(files), i18n.D{"Dir": e.plan.StageDir})})
	if err := e.checkCacheSpace(files); err != nil {
		return err
	}
	c := &fetch.Counters{}
	stop := e.reportProgress(s.ID, c)
	res, err := fetch.Fetch(ctx, files, e.fetchOptions(netw, c, func(name, sha string) bool {
		return earlyChecked(name, sha) || e.checkedBefore(name, sha)
	}, func(l string) { e.emitLine(Event{StepID: s.ID, Line: l}) }))
	stop()
	e.out.BytesDownloaded += res.Fetched + early
	// What the early fetch downloaded while pip resolved came over the network in this run too.
	moved := min(early, res.Reused)
	res.Fetched, res.Reused = res.Fetched+moved, res.Reused-moved
	for _, fr := range res.Files { // the sha256 of every file in place, computed for those the source gave none
		for i := range files {
			if files[i].Name == fr.Name && fr.SHA256 != "" {
				files[i].SHA256 = fr.SHA256
			}
		}
	}
	if rerr := recordFetched(e.plan.StageDir, fetchSource(s, e.plan), files); rerr != nil && err == nil {
		err = i18n.Wrap(rerr, i18n.T("install.err.record", i18n.D{"Err": rerr}))
	}
	e.fetched = append(e.fetched, files...)
	for _, f := range files {
		e.noteStaged(filepath.Join(e.plan.StageDir, f.Name))
	}
	if err != nil {
		if errors.Is(err, fetch.ErrUnsupported) {
			return usePip(err.Error())
		}
		if p := netw.ProxyInUse(files[0].URL); p != "" && !errors.Is(err, fetch.ErrHashMismatch) && ctx.Err() == nil {
			err = i18n.Wrap(err, i18n.T("install.err.via_proxy", i18n.D{"Err": err, "Proxy": p}))
		}
		return err
	}
	st := c.Stats()
	msg := i18n.N("install.event.fetched", len(files), i18n.D{"Size": i18n.Size(st.Total), "Fetched": i18n.Size(res.Fetched)})
	if res.Reused > 0 {
		msg = i18n.N("install.event.fetched_reused", len(files), i18n.D{"Size": i18n.Size(st.Total), "Fetched": i18n.Size(res.Fetched), "Reused": i18n.Size(res.Reused)})
	}
	e.emit(Event{StepID: s.ID, Message: msg})
	if res.Fetched == 0 && res.Reused > 0 {
		e.did[s.ID] = e.fromCache(s)
	}
	return nil
}

// stageWithFetch tries fetchStage; done is false when the stage is left to pip (said in an event).
func (e *engine) stageWithFetch(ctx context.Context, s Step, pre *pendingResolve) (done bool, err error) {
	err = e.fetchStage(ctx, s, pre)
	if err == nil || !errors.Is(err, errUsePip) {
		if err != nil && s.ID == StepStageOpt && ctx.Err() == nil {
			e.dropOptional()
		}
		return true, err
	}
	why := err.Error()
	var re *reasonError
	if errors.As(err, &re) {
		why = re.why
	}
	e.emit(Event{StepID: s.ID, Message: i18n.T("install.event.use_pip", i18n.D{"Why": why})})
	return false, nil
}

func (e *engine) userEnv(key string) string {
	v := ""
	for _, kv := range e.plan.userEnv {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// resolved is pip's answer for a stage (see resolve): the files to fetch, those its resolve
// already downloaded whole and checked, and the downloads begun while pip resolved (nil: none).
type resolution struct {
	files, kept []fetch.File
	early       *fetch.Early
}

// pendingResolve is pip's resolve of a stage running in the background.
type pendingResolve = background[resolution]

// startResolve begins the resolve of s (see resolve) in the background; with early, the wheels
// pip reads the metadata of are downloaded meanwhile (GPUWIZ_EARLY_FETCH=0 turns that off).
func (e *engine) startResolve(ctx context.Context, s Step, early bool) *pendingResolve {
	early = early && e.userEnv("GPUWIZ_EARLY_FETCH") != "0"
	return inBackground(ctx, func(ctx context.Context) (resolution, error) {
		if e.userEnv("GPUWIZ_DOWNLOADER") == "pip" {
			return resolution{}, usePip("GPUWIZ_DOWNLOADER=pip")
		}
		return e.resolve(ctx, s, early)
	})
}

// fetchOptions are the downloader's options for the stage folder: the run's network, the
// connections per host the user set, what counts as checked already.
func (e *engine) fetchOptions(netw fetch.Network, c *fetch.Counters, checked func(name, sha string) bool, log func(string)) fetch.Options {
	perHost, _ := strconv.Atoi(e.userEnv("GPUWIZ_HOST_CONNECTIONS"))
	return fetch.Options{Dir: e.plan.StageDir, Network: netw, Progress: c, PerHost: perHost, Log: log, Checked: checked}
}

// checkedBefore: the file was checked against this sha256 in this run already, by an earlier
// stage step, or by the stage's check of the whole cache (every wheel left in the folder after it
// has the sha256 its record gives).
func (e *engine) checkedBefore(name, sha string) bool {
	for _, f := range e.fetched {
		if f.Name == name && strings.EqualFold(f.SHA256, sha) {
			return true
		}
	}
	return strings.EqualFold(readWheelRecord(e.plan.StageDir).Wheels[name].SHA256, sha)
}

// fetchSource is where a stage step's wheels come from, for the cache's record.
func fetchSource(s Step, p Plan) string {
	switch {
	case s.ID == StepStageDeps:
		return p.Target.Mirror
	case p.FindLinks != "":
		return p.FindLinks
	}
	return p.IndexURL
}

// recordFetched adds the fetched wheels to the cache's record with the sha256 the index gave
// (the downloader checked every byte against it), without reading them again.
func recordFetched(dir, from string, files []fetch.File) error {
	rec := readWheelRecord(dir)
	now := time.Now().UTC()
	changed := false
	for _, f := range files {
		info, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil || f.SHA256 == "" {
			continue // not fetched (the run stopped first)
		}
		if r, ok := rec.Wheels[f.Name]; ok && r.SHA256 == f.SHA256 && r.Size == info.Size() {
			continue
		}
		// The downloader checked every byte against this sha256 as it wrote them: the stamp now is theirs.
		rec.Wheels[f.Name] = cachedWheel{SHA256: f.SHA256, Size: info.Size(), From: urls.Strip(from), Staged: now, Stamp: stampOf(filepath.Join(dir, f.Name))}
		changed = true
	}
	if !changed {
		return nil
	}
	return writeWheelRecord(dir, rec)
}

// reportProgress sends the counters as progress events until stop is called, and once more at the end.
func (e *engine) reportProgress(stepID string, c *fetch.Counters) (stop func()) {
	return e.sendProgress(stepID, c, false)
}

// reportProgressIf is reportProgress for counters that may stay empty (the resolve's whole
// downloads): nothing is sent while no file is counted.
func (e *engine) reportProgressIf(stepID string, c *fetch.Counters) (stop func()) {
	return e.sendProgress(stepID, c, true)
}

func (e *engine) sendProgress(stepID string, c *fetch.Counters, onlyCounted bool) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	send := func() {
		if st := c.Stats(); !onlyCounted || st.Files > 0 {
			e.emitLine(Event{StepID: stepID, Progress: &runner.Progress{Done: st.Done, Total: st.Total, BytesPerSec: st.BytesPerSec, ETASeconds: st.ETA.Seconds()}})
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				send()
			case <-done:
				send()
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// pipRate gives pip's raw progress lines ("Progress 123 of 456", one file after another) the rate
// over the last seconds and the time left of the file at that rate, as the downloader's have.
type pipRate struct {
	base, lastDone int64 // bytes of the files before this one; this one's done so far
	samples        []rateSample
}

type rateSample struct {
	t time.Time
	n int64
}

func (r *pipRate) add(p *runner.Progress, now time.Time) {
	if p.Done < r.lastDone { // the next file
		r.base += r.lastDone
	}
	r.lastDone = p.Done
	n := r.base + p.Done
	r.samples = append(r.samples, rateSample{now, n})
	for len(r.samples) > 2 && now.Sub(r.samples[1].t) > 3*time.Second {
		r.samples = r.samples[1:]
	}
	first := r.samples[0]
	if dt := now.Sub(first.t).Seconds(); dt > 0.5 && n > first.n {
		p.BytesPerSec = float64(n-first.n) / dt
		if p.Total > p.Done {
			p.ETASeconds = float64(p.Total-p.Done) / p.BytesPerSec
		}
	}
}

// network is pip's network settings for the framework's pip steps: its proxy, cert and timeout
// (from pip's config files or PIP_PROXY/PIP_CERT/PIP_TIMEOUT, as pip reads them for the venv's
// Python: pipconf, no Python started), and the proxy variables of the environment.
func (e *engine) network(ctx context.Context) (fetch.Network, error) {
	if e.netw != nil {
		return *e.netw, nil
	}
	if err := ctx.Err(); err != nil {
		return fetch.Network{}, err
	}
	n := fetch.Network{Proxy: e.proxy, Credentials: []string{e.plan.IndexURL, e.plan.Target.Mirror, e.plan.FindLinks}}
	set := pipconf.Read(pipconf.Source{Prefix: e.plan.sysPrefix(), Environ: e.plan.env}).Net()
	n.Cert = set.Cert
	if t, err := strconv.ParseFloat(set.Timeout, 64); err == nil && t > 0 {
		n.Timeout = time.Duration(t * float64(time.Second))
	}
	e.netw = &n
	return n, nil
}
