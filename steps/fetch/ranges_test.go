package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// zipBlob is a wheel-like zip: a .dist-info/METADATA and members of random bytes, stored and
// deflated, about size bytes in all.
func zipBlob(t *testing.T, dist string, size int, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, method uint16, body []byte) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	add(dist+"-1.0.dist-info/METADATA", zip.Deflate, []byte("Metadata-Version: 2.1\nName: "+dist+"\nVersion: 1.0\n"))
	for i := 0; size > 0; i++ {
		n := min(size, 512<<10)
		method := zip.Store
		if i%2 == 1 {
			method = zip.Deflate
		}
		add(dist+"/lib"+string(rune('a'+i%26))+".so", method, blob(n, seed+uint64(i)))
		size -= n
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A server that refuses HEAD and says nothing of ranges is asked for a range: it takes them, so
// the large file comes in parts; no HEAD is sent at all.
func TestFetchFindsRangesByAskingNotByHEAD(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.noHead = true
	dir := t.TempDir()
	c := &Counters{}
	res, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 4, Progress: c})
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	for _, f := range res.Files {
		if strings.HasPrefix(f.Name, "torch") && (!f.Ranges || f.Parts != 4) {
			t.Errorf("torch: ranges %v in %d parts", f.Ranges, f.Parts)
		}
	}
	if s.heads.Load() != 0 {
		t.Errorf("%d HEAD requests", s.heads.Load())
	}
	if st := c.Stats(); !st.SizeKnown || st.Total != st.Done {
		t.Errorf("counters %+v", st)
	}
}

// Without a sha256 from the source a file counts as fetched only when its zip holds together; the
// sha256 is computed then. A damaged byte is refused naming the file, the member and the host, and
// nothing of it stays.
func TestFetchWithoutSHA256ChecksTheZip(t *testing.T) {
	fam := map[string][]byte{
		"big-1.0-py3-none-any.whl":   zipBlob(t, "big", 5<<20, 1),
		"small-1.0-py3-none-any.whl": zipBlob(t, "small", 200<<10, 50),
	}
	s := newServer(t, fam)
	fs := files(s, names(fam)...)
	for i := range fs {
		fs[i].SHA256 = ""
	}
	dir := t.TempDir()
	res, err := Fetch(context.Background(), fs, Options{Dir: dir, PartSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	for _, f := range res.Files {
		if f.SHA256 != sum(fam[f.Name]) {
			t.Errorf("%s: sha256 %q, want %s", f.Name, f.SHA256, sum(fam[f.Name]))
		}
	}
	// Again: the files in place are checked the same way and kept.
	served := s.served.Load()
	if res, err := Fetch(context.Background(), fs, Options{Dir: dir}); err != nil || res.Fetched != 0 || s.served.Load() != served {
		t.Errorf("second run: %v, fetched %d", err, res.Fetched)
	}

	bad := "big-1.0-py3-none-any.whl"
	s.corrupt[bad] = true
	dir = t.TempDir()
	_, err = Fetch(context.Background(), fs, Options{Dir: dir, PartSize: 1 << 20})
	if !errors.Is(err, ErrBadZip) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "big/lib") || !strings.Contains(err.Error(), s.Listener.Addr().String()) {
		t.Fatalf("a damaged zip: %v", err)
	}
	for _, p := range []string{bad, bad + PartSuffix, bad + StateSuffix} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
}

// CheckZip finds a damaged member and a directory that names another member than its local header.
func TestCheckZip(t *testing.T) {
	good := zipBlob(t, "x", 1<<20, 3)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := CheckZip(write("good.whl", good)); err != nil {
		t.Fatalf("a good zip: %v", err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/3] ^= 1
	if err := CheckZip(write("flipped.whl", flipped)); err == nil || !strings.Contains(err.Error(), "x/lib") {
		t.Errorf("a flipped byte: %v", err)
	}
	renamed := bytes.Clone(good)
	i := bytes.Index(renamed, []byte("x/libb.so")) // the first occurrence: the local header
	renamed[i+len("x/lib")] = 'z'
	if err := CheckZip(write("renamed.whl", renamed)); err == nil || !strings.Contains(err.Error(), "x/libb.so") {
		t.Errorf("a local header naming another member: %v", err)
	}
	if err := CheckZip(write("cut.whl", good[:len(good)-100])); err == nil {
		t.Errorf("a cut zip passed")
	}
}

// At most PerHost connections to one host; a host that answers 429 gets fewer, and the files
// still come.
func TestFetchPoliteToHosts(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.rate.Store(8 << 20)
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 8, PerHost: 2}); err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	if m := s.maxIn.Load(); m > 2 {
		t.Errorf("%d requests at once to one host, cap 2", m)
	}

	s = newServer(t, fam)
	s.rate.Store(8 << 20)
	s.tooMany = 2
	var mu sync.Mutex
	var logs []string
	dir = t.TempDir()
	_, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 8, PerHost: 6,
		Log: func(l string) { mu.Lock(); logs = append(logs, l); mu.Unlock() }})
	if err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(logs, "\n"))
	}
	checkDir(t, dir, fam)
	if s.refused.Load() == 0 || !strings.Contains(strings.Join(logs, "\n"), "429") || !strings.Contains(strings.Join(logs, "\n"), "at most") {
		t.Errorf("%d refused; logs:\n%s", s.refused.Load(), strings.Join(logs, "\n"))
	}
}
