package pyindex

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gpuwiz/steps/pep"
)

// Network is the link a test index simulates: a cap on every connection (a throttled mirror, a
// CDN that limits each stream), a delay before every response (a far-away server), an index with
// or without PEP 658 metadata files (download.pytorch.org and PyPI have them, some mirrors not).
type Network struct {
	ConnBytesPerSec int64         // bytes per second each TCP connection may carry (0: no cap)
	Latency         time.Duration // before every response (a request whose client gives up gets none)
	NoMetadata      bool          // no data-dist-info-metadata links and no NAME.whl.metadata files
	NoRanges        bool          // answer wheel requests whole, ignoring Range (and not offering it)
	NoHashes        bool          // links without #sha256= (several flat mirror pages give none)
	NoHead          bool          // answer HEAD with 405 (a server that allows only GET)
}

type netState struct {
	n          Network
	noMetadata atomic.Bool
	corrupt    sync.Map // wheel name → where one byte is served flipped, as sixteenths of its size
}

func (ix *Index) startNetwork(n Network) {
	ix.net.n = n
	ix.net.noMetadata.Store(n.NoMetadata)
	if n.ConnBytesPerSec > 0 {
		ix.srv.Listener = &pacedListener{Listener: ix.srv.Listener, rate: n.ConnBytesPerSec}
	}
	ix.srv.Start()
}

// Corrupt serves the wheel name with one byte in its middle changed, while the index pages keep
// the right sha256 (a damaged mirror or a proxy that alters files); Repair undoes it.
func (ix *Index) Corrupt(name string) { ix.net.corrupt.Store(name, int64(8)) }

// CorruptLate is Corrupt with the changed byte at fifteen sixteenths of the file, before the zip's
// directory at its end: where a download stopped part-way has most likely not reached yet.
func (ix *Index) CorruptLate(name string) { ix.net.corrupt.Store(name, int64(15)) }

// Repair serves the wheel name as built again.
func (ix *Index) Repair(name string) { ix.net.corrupt.Delete(name) }

// SetMetadata turns PEP 658 metadata on or off from now on.
func (ix *Index) SetMetadata(on bool) { ix.net.noMetadata.Store(!on) }

// beforeResponse waits the Latency; false when the client gave up first (nothing is to be written).
func (ix *Index) beforeResponse(r *http.Request) bool {
	if d := ix.net.n.Latency; d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return false
		}
	}
	return true
}

func (ix *Index) metadataAttrs(f wheelFile) string {
	if ix.net.noMetadata.Load() || f.metadata == nil {
		return ""
	}
	sum := sha256.Sum256(f.metadata)
	h := hex.EncodeToString(sum[:])
	return ` data-dist-info-metadata="sha256=` + h + `" data-core-metadata="sha256=` + h + `"`
}

func (ix *Index) serveMetadata(w http.ResponseWriter, r *http.Request, projects map[string][]wheelFile, name string) {
	if !ix.net.noMetadata.Load() {
		for _, files := range projects {
			for _, f := range files {
				if f.name == name && f.metadata != nil {
					w.Header().Set("Content-Type", "application/octet-stream")
					_, _ = w.Write(f.metadata)
					return
				}
			}
		}
	}
	http.NotFound(w, r)
}

// content is what is served for a wheel: the file, or the file with a flipped byte.
func (ix *Index) content(name string, fh *os.File) io.ReadSeeker {
	if at, bad := ix.net.corrupt.Load(name); bad {
		if info, err := fh.Stat(); err == nil {
			return &flipped{f: fh, at: info.Size() * at.(int64) / 16}
		}
	}
	return fh
}

// serveWhole answers a wheel request with the whole file when the index ignores ranges.
func (ix *Index) serveWhole(w http.ResponseWriter, r *http.Request, rs io.ReadSeeker) bool {
	if !ix.net.n.NoRanges {
		return false
	}
	size, err := rs.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = rs.Seek(0, io.SeekStart)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	if r.Method != http.MethodHead {
		_, _ = io.Copy(w, rs)
	}
	return true
}

type flipped struct {
	f   *os.File
	at  int64
	pos int64
}

func (x *flipped) Read(p []byte) (int, error) {
	n, err := x.f.Read(p)
	if x.at >= x.pos && x.at < x.pos+int64(n) {
		p[x.at-x.pos] ^= 0x5a
	}
	x.pos += int64(n)
	return n, err
}

func (x *flipped) Seek(off int64, whence int) (int64, error) {
	pos, err := x.f.Seek(off, whence)
	x.pos = pos
	return pos, err
}

// wheelMetadata is the wheel's top-level .dist-info/METADATA (nil when it cannot be read).
func wheelMetadata(file string) []byte {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !pep.IsMetadata(f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, 8<<20))
		if err != nil {
			return nil
		}
		return b
	}
	return nil
}

// pacedListener caps what each accepted connection writes to rate bytes per second.
type pacedListener struct {
	net.Listener
	rate int64
}

func (l *pacedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &pacedConn{Conn: c, rate: l.rate}, nil
}

type pacedConn struct {
	net.Conn
	rate int64
	next time.Time // when the bytes written so far are due
}

func (c *pacedConn) Write(p []byte) (int, error) {
	const chunk = 16 << 10
	written := 0
	for len(p) > 0 {
		b := p[:min(len(p), chunk)]
		now := time.Now()
		if c.next.Before(now) {
			c.next = now
		}
		if d := c.next.Sub(now); d > 0 {
			time.Sleep(d)
		}
		n, err := c.Conn.Write(b)
		written += n
		c.next = c.next.Add(time.Duration(float64(n) / float64(c.rate) * float64(time.Second)))
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}
