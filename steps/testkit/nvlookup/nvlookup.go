// Package nvlookup is a loopback stand-in for NVIDIA's driver lookup service and download host, in
// the response shapes the public scripts that use the real one record:
//
//   - lookupValueSearch.aspx?TypeID=3 (the product list) answers XML
//     <LookupValueSearch><LookupValues><LookupValue ParentID="…"><Name>…</Name><Value>…</Value>…
//     (ZenitH-AT/nvidia-data get-nvidia-data.py, zlicdt/nvwupd Core/DriverFetcher.cs);
//   - AjaxDriverService.php?func=DriverManualLookup&pfid=…&osID=…&dch=1 answers JSON
//     {"Success":"1","IDS":[{"downloadInfo":{"ID","Version","IsBeta","IsWHQL","IsDC",
//     "ReleaseDateTime","DetailsURL","DownloadURL","DownloadURLFileSize","Name",…}}]} with Name
//     URL-encoded and flags as "1"/"0" (ZenitH-AT/nvidia-update nvidia-update.ps1; a recorded answer
//     in a public script shows the same fields);
//   - the download host serves the installers with byte ranges, and can cut a download off after a
//     number of bytes once (an interrupted download).
//
// Only tests import it.
package nvlookup

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Product is one row of the product list.
type Product struct {
	Series string // ParentID
	Name   string // "GeForce GTX 1060"
	PFID   string
}

// Driver is one driver the search answers for a product.
type Driver struct {
	Version, Name, Released string // Name as NVIDIA writes it ("GeForce Game Ready Driver")
	File                    string // served by the stand-in's download host
	WHQL, Beta              bool
	Studio                  bool // listed for upCRD=1 only
}

// Server is the running stand-in.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	products []Product
	drivers  map[string][]Driver // by pfid
	files    map[string][]byte
	cutAfter atomic.Int64 // cut the next download of a file after this many bytes (0: never)
	down     atomic.Bool  // after a cut, the download host answers 503 until Up
	Requests atomic.Int64 // lookup requests answered
	Ranges   []string     // Range headers the download host saw
}

// Serve starts the stand-in; it stops with the test.
func Serve(t testing.TB, products []Product, drivers map[string][]Driver) *Server {
	s := &Server{products: products, drivers: drivers, files: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/Download/API/lookupValueSearch.aspx", s.lookupValues)
	mux.HandleFunc("/services_toolkit/services/com/nvidia/services/AjaxDriverService.php", s.ajax)
	mux.HandleFunc("/Windows/", s.download)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// ProductsURL and DriversURL are the two endpoints.
func (s *Server) ProductsURL() string {
	return s.URL + "/Download/API/lookupValueSearch.aspx?TypeID=3"
}
func (s *Server) DriversURL() string {
	return s.URL + "/services_toolkit/services/com/nvidia/services/AjaxDriverService.php"
}

// File serves body as the installer name under /Windows/<version>/<name>.
func (s *Server) File(version, name string, body []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[name] = body
	return s.URL + "/Windows/" + version + "/" + name
}

// CutNextAfter makes the next download stop after n bytes (the connection is closed mid-body);
// from then on the download host answers 503 Service Unavailable until Up.
func (s *Server) CutNextAfter(n int64) { s.cutAfter.Store(n) }

// Up ends the outage that followed a cut.
func (s *Server) Up() { s.down.Store(false) }

func (s *Server) lookupValues(w http.ResponseWriter, r *http.Request) {
	s.Requests.Add(1)
	if r.URL.Query().Get("TypeID") != "3" {
		http.Error(w, "stand-in serves TypeID=3 only", http.StatusBadRequest)
		return
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n<LookupValueSearch><LookupValues>")
	for _, p := range s.products {
		fmt.Fprintf(&b, `<LookupValue ParentID="%s" RequiresProduct="True"><Name>%s</Name><Value>%s</Value></LookupValue>`, p.Series, p.Name, p.PFID)
	}
	b.WriteString("</LookupValues></LookupValueSearch>")
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (s *Server) ajax(w http.ResponseWriter, r *http.Request) {
	s.Requests.Add(1)
	q := r.URL.Query()
	if q.Get("func") != "DriverManualLookup" || q.Get("osID") == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	studio := q.Get("upCRD") == "1"
	var ids []map[string]any
	for _, d := range s.drivers[q.Get("pfid")] {
		if d.Studio != studio {
			continue
		}
		ids = append(ids, map[string]any{"downloadInfo": map[string]any{
			"ID": "1", "Version": d.Version, "IsBeta": flag(d.Beta), "IsWHQL": flag(d.WHQL), "IsDC": "1",
			"ReleaseDateTime": d.Released, "Name": url.PathEscape(d.Name),
			"DetailsURL":          s.URL + "/Download/driverResults.aspx/1/en-us",
			"DownloadURL":         s.URL + "/Windows/" + d.Version + "/" + d.File,
			"DownloadURLFileSize": "895.77 MB", "OSName": "Windows%2011", "OsCode": "10.0", "Is64Bit": "1",
		}})
	}
	ans := map[string]any{"Success": "1", "IDS": ids}
	if len(ids) == 0 {
		ans = map[string]any{"Success": "0"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	s.mu.Lock()
	body, ok := s.files[name]
	if rg := r.Header.Get("Range"); rg != "" {
		s.Ranges = append(s.Ranges, rg)
	}
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	start, end := int64(0), int64(len(body))
	if rg := r.Header.Get("Range"); strings.HasPrefix(rg, "bytes=") {
		a, b, _ := strings.Cut(strings.TrimPrefix(rg, "bytes="), "-")
		start, _ = strconv.ParseInt(a, 10, 64)
		if b != "" {
			e, _ := strconv.ParseInt(b, 10, 64)
			end = min(e+1, end)
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, end-1, len(body)))
		w.Header().Set("Content-Length", strconv.FormatInt(end-start, 10))
		w.Header().Set("Accept-Ranges", "bytes")
		w.WriteHeader(http.StatusPartialContent)
	} else {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Header().Set("Accept-Ranges", "bytes")
	}
	if r.Method == http.MethodHead {
		return
	}
	part := body[start:end]
	if cut := s.cutAfter.Load(); cut > 0 && cut < int64(len(part)) && s.cutAfter.CompareAndSwap(cut, 0) {
		s.down.Store(true)
		_, _ = w.Write(part[:cut])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		time.Sleep(10 * time.Millisecond)
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				_ = c.Close()
			}
		}
		return
	}
	_, _ = w.Write(part)
}
