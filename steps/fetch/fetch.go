// Package fetch downloads a set of wheels: several at once, at most a few connections to one host,
// a large one in several HTTP Range parts when the server takes them (found by asking for a range,
// not from HEAD), each into a partial file that a later run continues, and every file checked
// before it is renamed into place: against the sha256 the index gave, or, when it gave none, every
// zip member against its CRC-32 (the sha256 is then computed). It follows pip's network rules
// (proxies, certificate, credentials in the index URL, retries).
package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// File is one file to fetch.
type File struct {
	URL    string // may hold user:password@ (sent as basic auth, never shown)
	Name   string // file name in the destination dir
	SHA256 string // hex; "" when the source gives none: the file is then checked as a zip
	Size   int64  // 0 when unknown (asked of the server)
	// Ranges says the server already answered a Range request for this file with its Size (the
	// resolve read the wheel's metadata so): nothing is asked before the download.
	Ranges bool
	// NotZip: a file that is no zip and has no sha256 (an installer its caller checks by its
	// signature): it is kept as it arrives, whole by its size.
	NotZip bool
}

// Options tune a fetch.
type Options struct {
	Dir         string
	Connections int   // connections at once over all files (default 8)
	PerHost     int   // connections at once to one host (default DefaultPerHost)
	PartSize    int64 // a file is split into parts of at least this size (default 16 MiB)
	MaxParts    int   // parts of one file at most (default Connections)
	Retries     int   // retries of one part after a failure without progress (default 5, as pip)
	Network     Network
	Progress    *Counters    // may be nil
	Log         func(string) // retries and reuse, redacted; may be nil
	// Checked says a file in place was already checked against this sha256 by this process (an
	// earlier step of the same install), so it is not read again; nil: every file is checked.
	Checked func(name, sha256 string) bool

	pool *pool // the run's connections per host
}

// Result says what a fetch did.
type Result struct {
	Fetched int64 // bytes over the network in this run
	Reused  int64 // bytes that were already there: whole verified files and parts of partial ones
	Files   []FileResult
}

// FileResult is one file's part of a Result.
type FileResult struct {
	Name    string
	Size    int64
	Fetched int64
	Reused  int64
	Parts   int
	Ranges  bool   // the server answered Range requests for it
	SHA256  string // the file's sha256 once it is in place: the index's, or computed after the zip check
}

var (
	// ErrUnsupported means the downloader cannot fetch this set while pip may: a URL that is not
	// http(s), credentials the downloader does not have. The caller falls back to pip.
	ErrUnsupported error = i18n.Lazy(func() string { return i18n.T("fetch.unsupported") })
	// ErrHashMismatch is a file whose bytes do not have the sha256 the index gave.
	ErrHashMismatch error = i18n.Lazy(func() string { return i18n.T("fetch.hash_mismatch") })
)

// PartSuffix and StateSuffix name a file's partial download and its progress record in Dir.
const (
	PartSuffix  = ".part"
	StateSuffix = ".part.json"
)

func (o *Options) defaults() {
	if o.Connections <= 0 {
		o.Connections = 8
	}
	if o.PartSize <= 0 {
		o.PartSize = 16 << 20
	}
	if o.PerHost <= 0 {
		o.PerHost = DefaultPerHost
	}
	if o.MaxParts <= 0 {
		o.MaxParts = o.Connections
	}
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = 5
	}
	if o.Progress == nil {
		o.Progress = &Counters{}
	}
}

// job is one file in flight.
type job struct {
	File
	host    string
	path    string // final path
	st      *state
	parts   []*part
	nparts  int
	ranges  bool
	sum     string // sha256 once checked
	f       *os.File
	left    atomic.Int32 // parts not finished
	fetched atomic.Int64
	reused  int64
	dirty   atomic.Bool // parts advanced since the state file was written
	mu      sync.Mutex  // state file writes
}

// part is one byte range of a job.
type part struct {
	j     *job
	idx   int
	start int64
	end   int64 // exclusive; -1 when the size is unknown
	done  atomic.Int64
}

// Fetch downloads files into o.Dir. Files already there with the right sha256 are kept; partial
// files of an earlier run are continued where the server allows ranges. On error (or a cancelled
// ctx) what was fetched stays as partial files for the next run, except a file whose sha256 was
// wrong, which is deleted.
func Fetch(ctx context.Context, files []File, o Options) (Result, error) {
	o.defaults()
	var res Result
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return res, i18n.Wrap(err, i18n.T("fetch.err.dir", i18n.D{"Dir": o.Dir, "Err": err}))
	}
	client, err := o.Network.client(o.Connections)
	if err != nil {
		return res, err
	}
	defer client.CloseIdleConnections()
	jobs := make([]*job, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.ContainsAny(f.Name, `/\`) || f.Name == "." || f.Name == ".." {
			return res, errors.New(i18n.T("fetch.err.name", i18n.D{"Name": strconv.Quote(f.Name)}))
		}
		if _, err := hex.DecodeString(f.SHA256); f.SHA256 != "" && (err != nil || len(f.SHA256) != 64) {
			return res, errors.New(i18n.T("fetch.err.sha", i18n.D{"File": f.Name, "SHA": strconv.Quote(f.SHA256)}))
		}
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		if _, err := o.Network.request(f.URL); err != nil {
			return res, fmt.Errorf("%s: %w", f.Name, err)
		}
		f.SHA256 = strings.ToLower(f.SHA256)
		jobs = append(jobs, &job{File: f, host: hostOf(f.URL), path: filepath.Join(o.Dir, f.Name)})
	}
	c := o.Progress
	c.files.Add(int64(len(jobs)))

	// What is already there: whole files (checked) and partial ones (their state file).
	var todo []*job
	for _, j := range jobs {
		if ok := j.checkExisting(o.Checked); ok {
			j.reused = j.Size
			c.done.Add(j.Size)
			c.total.Add(j.Size)
			c.filesOK.Add(1)
			o.log(i18n.T("fetch.log.already", i18n.D{"File": j.Name}))
			continue
		}
		j.loadState()
		todo = append(todo, j)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	pl := newPool(ctx, o.PerHost)
	o.pool = pl

	// Sizes and range support, asked of the server for every file that neither its state nor the
	// resolve knows them of: all before the first byte, so the total is known from the start.
	c.unknown.Add(int64(len(todo)))
	var wg sync.WaitGroup
	sem := make(chan struct{}, o.Connections)
	for _, j := range todo {
		if j.st != nil {
			j.Size, j.ranges = j.st.Size, true
			c.total.Add(j.Size)
			c.unknown.Add(-1)
			continue
		}
		if j.File.Ranges && j.Size > 0 {
			j.ranges = true
			c.total.Add(j.Size)
			c.unknown.Add(-1)
			continue
		}
		wg.Add(1)
		go func(j *job) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if !pl.acquire(ctx, j.host) {
				return
			}
			size, ranges, err := o.probe(ctx, client, j)
			pl.release(j.host)
			if err != nil {
				fail(err)
				return
			}
			if j.Size > 0 && size > 0 && size != j.Size {
				fail(errors.New(i18n.T("fetch.err.size", i18n.D{"File": j.Name, "Host": j.host, "Server": size, "Index": j.Size})))
				return
			}
			if size > 0 {
				j.Size = size
				c.total.Add(size)
				c.unknown.Add(-1)
			}
			j.ranges = ranges && size > 0
		}(j)
	}
	wg.Wait()
	if firstErr != nil {
		return o.result(jobs, res), firstErr
	}

	// Parts: a state file's, else the size split evenly (one part without ranges).
	var parts []*part
	for _, j := range todo {
		ps, err := j.plan(o)
		if err != nil {
			return o.result(jobs, res), err
		}
		for _, p := range ps {
			if p.end >= 0 && p.start+p.done.Load() >= p.end {
				continue
			}
			parts = append(parts, p)
		}
		c.done.Add(j.reused)
		if j.reused > 0 {
			o.log(i18n.T("fetch.log.resume", i18n.D{"File": j.Name, "Have": j.reused, "Size": j.Size}))
		}
		j.left.Store(int32(countLeft(ps)))
		if j.left.Load() == 0 { // every part was there: only the check is left
			parts = append(parts, &part{j: j, idx: -1})
			j.left.Store(1)
		}
	}
	// Longest first, so the big file's parts start at once and the small files fill the gaps.
	slices.SortStableFunc(parts, func(a, b *part) int {
		ra, rb := a.remaining(), b.remaining()
		switch {
		case ra > rb:
			return -1
		case ra < rb:
			return 1
		}
		return 0
	})

	// The state files are written twice a second while parts advance, so an interrupted run
	// (even a killed one) loses at most that much.
	stopSaver := make(chan struct{})
	saverDone := make(chan struct{})
	go func() {
		defer close(saverDone)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				for _, j := range todo {
					if j.dirty.Swap(false) {
						_ = j.saveState()
					}
				}
			case <-stopSaver:
				return
			}
		}
	}()

	pl.parts = parts
	for w := 0; w < o.Connections; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p := pl.next(ctx)
				if p == nil {
					return
				}
				if p.idx >= 0 {
					err := o.fetchPart(ctx, client, p)
					pl.release(p.j.host)
					if err != nil {
						fail(err)
						return
					}
				}
				if p.j.left.Add(-1) == 0 {
					if err := o.finish(p.j); err != nil {
						fail(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stopSaver)
	<-saverDone
	for _, j := range todo {
		if j.f != nil {
			_ = j.f.Close()
		}
		if _, err := os.Stat(j.path); err != nil && j.st != nil {
			_ = j.saveState() // what this run fetched, for the next one
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return o.result(jobs, res), firstErr
}

func countLeft(ps []*part) int {
	n := 0
	for _, p := range ps {
		if p.end < 0 || p.start+p.done.Load() < p.end {
			n++
		}
	}
	return n
}

func (p *part) remaining() int64 {
	if p.end < 0 {
		return 1 << 62
	}
	return p.end - p.start - p.done.Load()
}

func (o *Options) log(s string) {
	if o.Log != nil {
		o.Log(urls.Redact(s))
	}
}

func (o *Options) result(jobs []*job, res Result) Result {
	for _, j := range jobs {
		fr := FileResult{Name: j.Name, Size: j.Size, Fetched: j.fetched.Load(), Reused: j.reused, Ranges: j.ranges, SHA256: j.sum}
		if j.reused < j.Size || j.Size == 0 {
			fr.Parts = j.nparts
		}
		res.Fetched += fr.Fetched
		res.Reused += fr.Reused
		res.Files = append(res.Files, fr)
	}
	return res
}

// checkExisting keeps a complete file that has the right sha256 and deletes one that has not.
func (j *job) checkExisting(checked func(name, sha string) bool) bool {
	info, err := os.Stat(j.path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if j.Size > 0 && info.Size() != j.Size {
		_ = os.Remove(j.path)
		return false
	}
	if j.SHA256 != "" && checked != nil && checked(j.Name, j.SHA256) {
		j.Size, j.sum = info.Size(), j.SHA256
		return true
	}
	sum, err := checkFile(j.path, j.SHA256, j.NotZip)
	if err != nil {
		_ = os.Remove(j.path)
		return false
	}
	j.Size, j.sum = info.Size(), sum
	removePartial(j.path)
	return true
}

// checkFile is the sha256 of the file at path when it is want, or, with want "", when the file is a
// whole zip (CheckZip, read at the same time); with notZip, only its sha256.
func checkFile(path, want string, notZip bool) (string, error) {
	if want != "" || notZip {
		sum, err := FileSHA256(path)
		if err == nil && want != "" && sum != want {
			err = ErrHashMismatch
		}
		return sum, err
	}
	zipErr := make(chan error, 1)
	go func() { zipErr <- CheckZip(path) }()
	sum, err := FileSHA256(path)
	if zerr := <-zipErr; zerr != nil {
		return sum, zerr
	}
	return sum, err
}

// FileSHA256 is the hex sha256 of a file's bytes.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, f, make([]byte, 1<<20)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func removePartial(final string) {
	_ = os.Remove(final + PartSuffix)
	_ = os.Remove(final + StateSuffix)
}

// probe asks the server for the file's first byte: a 206 whose Content-Range starts there and
// gives the size says it takes Range requests; a 200 says it sends whole files only (the size from
// Content-Length, when it says one). HEAD is not asked: plenty of servers answer it without
// Accept-Ranges while taking ranges on GET, or do not allow it at all.
func (o *Options) probe(ctx context.Context, client *http.Client, j *job) (size int64, ranges bool, err error) {
	for attempt := 0; ; attempt++ {
		req, err := o.Network.request(j.URL)
		if err != nil {
			return 0, false, err
		}
		req.Header.Set("Range", "bytes=0-0")
		resp, err := client.Do(req.WithContext(ctx))
		var wait time.Duration
		if err == nil {
			resp.Body.Close() // a 200 sends the whole file: the connection is dropped, not read
			switch {
			case resp.StatusCode == http.StatusPartialContent:
				if start, total, ok := contentRange(resp.Header.Get("Content-Range")); ok && start == 0 && total > 0 {
					return total, true, nil
				}
				return 0, false, nil // a range it cannot say the size of: one stream
			case resp.StatusCode == http.StatusOK:
				return max(resp.ContentLength, 0), false, nil
			case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
				return 0, false, j.fail(i18n.T("fetch.why.status", i18n.D{"Status": resp.Status}))
			case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
				return 0, false, j.authError(resp.Status)
			case !retryable(resp.StatusCode):
				return 0, false, nil // 416 and the like: the GET of the whole file will tell
			}
			wait = o.slowDown(j, resp)
			err = errors.New(i18n.T("fetch.why.status", i18n.D{"Status": resp.Status}))
		}
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		if attempt >= o.Retries {
			return 0, false, j.fail(i18n.N("fetch.why.tries", attempt+1, i18n.D{"Why": why(err)}))
		}
		o.log(i18n.T("fetch.log.retry", i18n.D{"File": j.Name, "Host": j.host, "Why": why(err)}))
		if !sleep(ctx, max(backoff(attempt), wait)) {
			return 0, false, ctx.Err()
		}
	}
}

// slowDown is a 429 or 503 answer: the host gets one connection fewer, and the wait it asked for
// (Retry-After) is returned.
func (o *Options) slowDown(j *job, resp *http.Response) time.Duration {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0
	}
	if o.pool != nil {
		if n, ok := o.pool.fewer(j.host); ok {
			o.log(i18n.T("fetch.log.fewer", i18n.D{"Host": j.host, "Status": resp.Status, "Count": n}))
		}
	}
	return retryAfter(resp)
}

// fail is an error of j's download: why (a catalog message) it failed.
func (j *job) fail(why string) error {
	return errors.New(i18n.T("fetch.err.download", i18n.D{"File": j.Name, "Host": j.host, "Why": why}))
}

func (j *job) authError(status string) error {
	return unsupported(i18n.T("fetch.err.auth", i18n.D{"File": j.Name, "Host": j.host, "Status": status}))
}

func retryable(code int) bool {
	return code >= 500 || code == http.StatusTooManyRequests || code == http.StatusRequestTimeout
}

// backoff is pip's (urllib3's) schedule with a factor of 0.25 s: 0.5, 1, 2, 4, 8 s.
func backoff(attempt int) time.Duration {
	return min(500*time.Millisecond<<attempt, 8*time.Second)
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// plan opens the partial file and lays out the parts: the state file's when it is there (the
// bytes it counts are reused), else new ones.
func (j *job) plan(o Options) ([]*part, error) {
	flags := os.O_RDWR | os.O_CREATE
	if j.st == nil {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(j.path+PartSuffix, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.Name, err)
	}
	j.f = f
	if j.st == nil && j.ranges {
		n := int(min(max(j.Size/o.PartSize, 1), int64(o.MaxParts)))
		st := &state{SHA256: strings.ToLower(j.SHA256), Size: j.Size}
		step := j.Size / int64(n)
		for i := 0; i < n; i++ {
			end := int64(i+1) * step
			if i == n-1 {
				end = j.Size
			}
			st.Parts = append(st.Parts, statePart{Start: int64(i) * step, End: end})
		}
		j.st = st
	}
	if j.st == nil {
		end := int64(-1)
		if j.Size > 0 {
			end = j.Size
		}
		j.nparts = 1
		return []*part{{j: j, idx: 0, start: 0, end: end}}, nil
	}
	ps := make([]*part, len(j.st.Parts))
	for i, sp := range j.st.Parts {
		ps[i] = &part{j: j, idx: i, start: sp.Start, end: sp.End}
		ps[i].done.Store(sp.Done)
		j.reused += sp.Done
	}
	j.parts, j.nparts = ps, len(ps)
	return ps, nil
}

// fetchPart downloads what is missing of one part, retrying with backoff; a retry after progress
// starts the count again, so a link that drops now and then still gets there.
func (o *Options) fetchPart(ctx context.Context, client *http.Client, p *part) error {
	j := p.j
	failures := 0
	for {
		progressed, err := o.getPart(ctx, client, p)
		var wait time.Duration
		var sd *slowDownError
		if errors.As(err, &sd) {
			wait = sd.wait
		}
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var perm *permanentError
		if errors.As(err, &perm) {
			return perm.err
		}
		if progressed { // a dropped connection after some bytes: ask for the rest at once
			failures = 0
			o.log(i18n.T("fetch.log.resume_from", i18n.D{"File": j.Name, "Host": j.host, "Why": why(err), "Byte": p.start + p.done.Load()}))
			continue
		}
		if failures >= o.Retries {
			return j.fail(i18n.N("fetch.why.tries_resume", failures+1, i18n.D{"Why": why(err)}))
		}
		o.log(i18n.T("fetch.log.retry", i18n.D{"File": j.Name, "Host": j.host, "Why": why(err)}))
		if !sleep(ctx, max(backoff(failures), wait)) {
			return ctx.Err()
		}
		failures++
	}
}

type permanentError struct{ err error }

// slowDownError is a 429 or 503 answer, with the wait the server asked for.
type slowDownError struct {
	err  error
	wait time.Duration
}

func (e *slowDownError) Error() string { return e.err.Error() }

func (e *permanentError) Error() string { return e.err.Error() }

// getPart is one GET of the missing bytes of p.
func (o *Options) getPart(ctx context.Context, client *http.Client, p *part) (progressed bool, err error) {
	j := p.j
	from := p.start + p.done.Load()
	if !j.ranges && p.done.Load() > 0 { // no ranges: only a new start
		o.Progress.done.Add(-p.done.Load())
		o.Progress.fetched.Add(-p.done.Load())
		j.fetched.Add(-p.done.Load())
		p.done.Store(0)
		from = 0
	}
	req, err := o.Network.request(j.URL)
	if err != nil {
		return false, &permanentError{err}
	}
	if j.ranges {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-"+strconv.FormatInt(p.end-1, 10))
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := client.Do(req.WithContext(rctx))
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch {
	case j.ranges && resp.StatusCode == http.StatusPartialContent:
		if start, _, ok := contentRange(resp.Header.Get("Content-Range")); !ok || start != from {
			return false, &permanentError{j.fail(i18n.T("fetch.why.range_mismatch", i18n.D{"Range": resp.Header.Get("Content-Range"), "From": from}))}
		}
	case resp.StatusCode == http.StatusOK && (!j.ranges || from == 0 && p.end == j.Size):
		if !j.ranges && resp.ContentLength > 0 && p.end < 0 {
			p.end = resp.ContentLength
			if j.Size == 0 {
				j.Size = resp.ContentLength
				o.Progress.total.Add(j.Size)
				o.Progress.unknown.Add(-1)
			}
		}
	case resp.StatusCode == http.StatusOK:
		return false, &permanentError{j.fail(i18n.T("fetch.why.whole_file"))}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return false, &permanentError{j.authError(resp.Status)}
	case retryable(resp.StatusCode):
		wait := o.slowDown(j, resp)
		return false, &slowDownError{errors.New(i18n.T("fetch.why.status", i18n.D{"Status": resp.Status})), wait}
	default:
		return false, &permanentError{j.fail(i18n.T("fetch.why.status", i18n.D{"Status": resp.Status}))}
	}

	// A body that stops sending for the timeout is a dropped connection.
	idle := time.AfterFunc(o.Network.timeout(), cancel)
	defer idle.Stop()
	buf := make([]byte, 256<<10)
	off := from
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			idle.Reset(o.Network.timeout())
			if p.end >= 0 && off+int64(n) > p.end {
				n = int(p.end - off)
				rerr = io.EOF
			}
			if _, werr := j.f.WriteAt(buf[:n], off); werr != nil {
				return progressed, &permanentError{i18n.Wrap(werr, i18n.T("fetch.err.write", i18n.D{"File": j.f.Name(), "Err": werr}))}
			}
			off += int64(n)
			p.done.Add(int64(n))
			j.fetched.Add(int64(n))
			o.Progress.done.Add(int64(n))
			o.Progress.fetched.Add(int64(n))
			j.dirty.Store(true)
			progressed = true
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if ctx.Err() == nil && rctx.Err() != nil {
				return progressed, errors.New(i18n.T("fetch.why.no_data", i18n.D{"Timeout": o.Network.timeout()}))
			}
			return progressed, rerr
		}
	}
	if p.end >= 0 && off < p.end {
		return progressed, io.ErrUnexpectedEOF
	}
	if p.end < 0 {
		p.end = off
	}
	return progressed, nil
}

// contentRange reads "bytes 100-199/1000": the first byte and the total (-1 for "/*").
func contentRange(h string) (start, total int64, ok bool) {
	rest, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, 0, false
	}
	rng, tot, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, false
	}
	first, _, ok := strings.Cut(rng, "-")
	if !ok {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, total, true
}

// finish checks the whole partial file against its sha256 and renames it into place; a wrong one
// is deleted with its state, so the next run fetches it anew.
func (o *Options) finish(j *job) error {
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", j.Name, err)
	}
	_ = j.f.Close()
	j.f = nil
	part := j.path + PartSuffix
	if j.Size > 0 {
		if info, err := os.Stat(part); err == nil && info.Size() > j.Size {
			_ = os.Truncate(part, j.Size)
		}
	}
	sum, err := checkFile(part, j.SHA256, j.NotZip)
	var zp *zipProblem
	if err != nil && !errors.Is(err, ErrHashMismatch) && !errors.As(err, &zp) {
		return fmt.Errorf("%s: %w", j.Name, err)
	}
	if err != nil {
		j.mu.Lock()
		j.st = nil
		removePartial(j.path)
		j.mu.Unlock()
		o.Progress.done.Add(-(j.fetched.Load() + j.reused))
		if zp != nil {
			return &kindError{of: ErrBadZip, msg: i18n.T("fetch.err.zip", i18n.D{"File": j.Name, "Host": j.host, "Why": zp.why})}
		}
		return &kindError{of: ErrHashMismatch, msg: i18n.T("fetch.err.hash", i18n.D{"File": j.Name, "Host": j.host, "Got": sum, "Want": j.SHA256})}
	}
	j.sum = sum
	if err := os.Rename(part, j.path); err != nil {
		return fmt.Errorf("%s: %w", j.Name, err)
	}
	j.mu.Lock()
	j.st = nil
	_ = os.Remove(j.path + StateSuffix)
	j.mu.Unlock()
	o.Progress.filesOK.Add(1)
	return nil
}
