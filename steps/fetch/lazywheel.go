package fetch

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/urls"
)

// A wheel's metadata without PEP 658, as pip's lazy wheel (pip/_internal/network/lazy_wheel.py)
// and uv do: the end of the remote zip with one Range request (its central directory), then the
// one member, *.dist-info/METADATA. A server that answers the first request with 200 takes no
// ranges: the shim then downloads the wheel whole, once, into the stage folder, where the
// download finds it.

// tailBytes is the first request's suffix: the end-of-directory record and, for most wheels, the
// whole central directory (a torch wheel's is a few MiB: one more request).
const tailBytes = 64 << 10

// chunkBytes is the least a read that misses asks for: a member's local header and, for METADATA,
// its bytes.
const chunkBytes = 64 << 10

// remoteZip is an io.ReaderAt over a URL that takes Range requests, keeping what it read.
type remoteZip struct {
	s    *Shim
	ctx  context.Context
	url  string
	size int64

	mu   sync.Mutex
	segs []segment // sorted by off, may overlap
	reqs int
}

type segment struct {
	off  int64
	data []byte
}

// errNoRanges is a server that answered a Range request with the whole file.
var errNoRanges = errors.New("no ranges") //i18n:raw never shown: the shim then downloads the wheel whole

func (r *remoteZip) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= r.size {
		return 0, io.EOF
	}
	want := p
	eof := false
	if off+int64(len(p)) > r.size {
		want, eof = p[:r.size-off], true
	}
	r.mu.Lock()
	for _, s := range r.segs {
		if s.off <= off && off+int64(len(want)) <= s.off+int64(len(s.data)) {
			copy(want, s.data[off-s.off:])
			r.mu.Unlock()
			if eof {
				return len(want), io.EOF
			}
			return len(want), nil
		}
	}
	r.mu.Unlock()
	end := min(off+max(int64(len(want)), chunkBytes), r.size)
	b, err := r.get(off, end)
	if err != nil {
		return 0, err
	}
	copy(want, b)
	if eof {
		return len(want), io.EOF
	}
	return len(want), nil
}

// get asks for bytes [from, to) and keeps them.
func (r *remoteZip) get(from, to int64) ([]byte, error) {
	req, err := r.s.net.request(r.url)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-"+strconv.FormatInt(to-1, 10))
	resp, err := r.s.client.Do(req.WithContext(r.ctx))
	if err != nil {
		return nil, errors.New(urls.Redact(err.Error()))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		return nil, fmt.Errorf("%s: the server answers %s to a Range request", path.Base(req.URL.Path), resp.Status) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	if start, _, ok := contentRange(resp.Header.Get("Content-Range")); !ok || start != from {
		return nil, fmt.Errorf("%s: the server sent %q for bytes %d-%d", path.Base(req.URL.Path), resp.Header.Get("Content-Range"), from, to-1) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, to-from))
	if err != nil {
		return nil, errors.New(urls.Redact(err.Error()))
	}
	if int64(len(b)) != to-from {
		return nil, io.ErrUnexpectedEOF
	}
	r.keep(from, b)
	return b, nil
}

// keep adds bytes read at off, joining segments that touch or overlap, so a read across the
// boundary of two requests' bytes needs no third.
func (r *remoteZip) keep(off int64, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs++
	segs := append(r.segs, segment{off, b})
	sort.Slice(segs, func(i, k int) bool { return segs[i].off < segs[k].off })
	out := segs[:1]
	for _, sg := range segs[1:] {
		last := &out[len(out)-1]
		end := last.off + int64(len(last.data))
		if sg.off > end {
			out = append(out, sg)
			continue
		}
		if tail := sg.off + int64(len(sg.data)); tail > end {
			last.data = append(append([]byte(nil), last.data...), sg.data[end-sg.off:]...)
		}
	}
	r.segs = out
}

// tail asks for the last tailBytes: the size comes with the answer (Content-Range). A 200 is a
// server without ranges: resp is then returned open, carrying the whole file.
func (r *remoteZip) tail() (resp *http.Response, err error) {
	req, err := r.s.net.request(r.url)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Range", "bytes=-"+strconv.Itoa(tailBytes))
	resp, err = r.s.client.Do(req.WithContext(r.ctx))
	if err != nil {
		return nil, errors.New(urls.Redact(err.Error()))
	}
	switch resp.StatusCode {
	case http.StatusOK:
		return resp, errNoRanges
	case http.StatusPartialContent:
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("%s: the index answers %s", path.Base(req.URL.Path), resp.Status) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	defer resp.Body.Close()
	start, total, ok := contentRange(resp.Header.Get("Content-Range"))
	if !ok || total <= 0 || start < 0 || start >= total {
		return nil, fmt.Errorf("%s: the server sent %q for the last %d bytes", path.Base(req.URL.Path), resp.Header.Get("Content-Range"), tailBytes) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, total-start))
	if err != nil {
		return nil, errors.New(urls.Redact(err.Error()))
	}
	if int64(len(b)) != total-start {
		return nil, io.ErrUnexpectedEOF
	}
	r.size = total
	r.keep(start, b)
	// The central directory in one request when it starts before the tail, with the chunk before it:
	// wheels are written with their .dist-info last (the wheel spec asks for it), so METADATA is
	// usually there and needs no request of its own.
	if dir, ok := directoryStart(b, start); ok && dir < start {
		if _, err := r.get(max(dir-chunkBytes, 0), start); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// directoryStart finds the central directory's offset in the zip's last bytes (tail, which starts
// at off in the file): the end-of-directory record, or the ZIP64 one it points at.
func directoryStart(tail []byte, off int64) (int64, bool) {
	for i := len(tail) - 22; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) != 0x06054b50 {
			continue
		}
		dir := int64(binary.LittleEndian.Uint32(tail[i+16:]))
		if dir != 0xffffffff {
			return dir, true
		}
		// ZIP64: the locator sits right before, and names the ZIP64 record.
		if i < 20 || binary.LittleEndian.Uint32(tail[i-20:]) != 0x07064b50 {
			return 0, false
		}
		rec := int64(binary.LittleEndian.Uint64(tail[i-20+8:])) - off
		if rec < 0 || rec+56 > int64(len(tail)) || binary.LittleEndian.Uint32(tail[rec:]) != 0x06064b50 {
			return 0, false
		}
		return int64(binary.LittleEndian.Uint64(tail[rec+48:])), true
	}
	return 0, false
}

// metadataMember is a wheel's top-level *.dist-info/METADATA.
func metadataMember(zr *zip.Reader) *zip.File {
	for _, f := range zr.File {
		if pep.IsMetadata(f.Name) {
			return f
		}
	}
	return nil
}

func readMetadata(zr *zip.Reader, name string) ([]byte, error) {
	f := metadataMember(zr)
	if f == nil {
		return nil, fmt.Errorf("%s holds no .dist-info/METADATA", name) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, urls.Redact(err.Error()))
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, urls.Redact(err.Error()))
	}
	return b, nil
}

// lazyResult is what reading a wheel's metadata learned of it.
type lazyResult struct {
	metadata []byte
	size     int64
	ranges   bool   // read with Range requests
	kept     string // the whole file was downloaded (no ranges) and checked: its sha256
	reqs     int
}

// lazyMetadata reads l's metadata out of the remote wheel (see above).
func (s *Shim) lazyMetadata(ctx context.Context, l shimLink) (lazyResult, error) {
	r := &remoteZip{s: s, ctx: ctx, url: l.real}
	resp, err := r.tail()
	if errors.Is(err, errNoRanges) {
		defer resp.Body.Close()
		return s.keepWhole(resp, l)
	}
	if err != nil {
		return lazyResult{}, err
	}
	zr, err := zip.NewReader(r, r.size)
	if err != nil {
		return lazyResult{}, fmt.Errorf("%s: %s", l.name, urls.Redact(err.Error()))
	}
	meta, err := readMetadata(zr, l.name)
	if err != nil {
		return lazyResult{}, err
	}
	return lazyResult{metadata: meta, size: r.size, ranges: true, reqs: r.reqs}, nil
}

// keepWhole downloads a wheel from a server without ranges in the one stream resp carries, into
// the keep folder (a temp file without one), checks it (the page's sha256, else its zip) and reads
// its metadata: the download later finds the file in place and fetches nothing.
func (s *Shim) keepWhole(resp *http.Response, l shimLink) (lazyResult, error) {
	dir := s.opts.Keep
	if dir == "" {
		dir = os.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return lazyResult{}, err
	}
	c := s.opts.Progress
	if c != nil && resp.ContentLength > 0 {
		c.total.Add(resp.ContentLength)
		c.files.Add(1)
	}
	part, err := os.CreateTemp(dir, l.name+".*"+PartSuffix)
	if err != nil {
		return lazyResult{}, err
	}
	defer os.Remove(part.Name())
	var w io.Writer = part
	if c != nil {
		w = countWriter{part, c}
	}
	n, err := io.CopyBuffer(w, resp.Body, make([]byte, 256<<10))
	if cerr := part.Close(); err == nil {
		err = cerr
	}
	if err == nil && resp.ContentLength > 0 && n != resp.ContentLength {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return lazyResult{}, fmt.Errorf("%s: %s", l.name, urls.Redact(err.Error()))
	}
	sum, err := checkFile(part.Name(), l.sha256, false)
	if err != nil {
		return lazyResult{}, fmt.Errorf("%s from %s: %s", l.name, hostOf(l.real), err) //i18n:raw becomes an HTTP body for the local pip (see stub); the download names the file again
	}
	zr, err := zip.OpenReader(part.Name())
	if err != nil {
		return lazyResult{}, err
	}
	meta, err := readMetadata(&zr.Reader, l.name)
	zr.Close()
	if err != nil {
		return lazyResult{}, err
	}
	res := lazyResult{metadata: meta, size: n}
	if s.opts.Keep != "" {
		if err := os.Rename(part.Name(), filepath.Join(s.opts.Keep, l.name)); err != nil {
			return lazyResult{}, err
		}
		res.kept = sum
		if c != nil {
			c.filesOK.Add(1)
		}
	}
	return res, nil
}

type countWriter struct {
	w io.Writer
	c *Counters
}

func (c countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.c.done.Add(int64(n))
	c.c.fetched.Add(int64(n))
	return n, err
}
