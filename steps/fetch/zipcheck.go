package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"gpuwiz/steps/i18n"
)

// ErrBadZip is a file without an index sha256 whose zip does not hold together: a member whose
// bytes do not have its CRC-32, sizes or offsets that do not add up.
var ErrBadZip error = i18n.Lazy(func() string { return i18n.T("fetch.bad_zip") })

// zipProblem is what is wrong with a zip, in the catalog's words, naming the member.
type zipProblem struct{ why string }

func (z *zipProblem) Error() string { return z.why }

// CheckZip reads every member of the zip (a wheel) at path against the CRC-32 its central
// directory gives and checks that the zip's sizes add up: every member's local header names the
// same member as the directory, and no member's data runs into the next member or past the file.
// It is how a wheel that came without an index sha256 counts as whole. The error (a *zipProblem)
// names the member.
func CheckZip(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, info.Size())
	if err != nil {
		return &zipProblem{i18n.T("fetch.zip.directory", i18n.D{"Err": err})}
	}
	type member struct {
		f      *zip.File
		header int64 // offset of the local header
		end    int64 // end of its data
	}
	members := make([]member, 0, len(zr.File))
	for _, zf := range zr.File {
		data, err := zf.DataOffset()
		if err != nil {
			return &zipProblem{i18n.T("fetch.zip.member", i18n.D{"Member": zf.Name, "Err": err})}
		}
		// The local header: signature, then at 26 the name's and the extra field's lengths, then the
		// name. Its start is data minus those: tried with the directory's extra length, then none, then
		// any.
		var lh [30]byte
		hdr := int64(-1)
		n := int64(30 + len(zf.Name))
		for i := int64(-2); i <= 0xffff; i++ {
			back := n + i
			switch i {
			case -2:
				back = n + int64(len(zf.Extra))
			case -1:
				back = n
			}
			if back > data {
				break
			}
			if _, err := f.ReadAt(lh[:], data-back); err == nil && binary.LittleEndian.Uint32(lh[:4]) == 0x04034b50 &&
				int64(binary.LittleEndian.Uint16(lh[26:]))+int64(binary.LittleEndian.Uint16(lh[28:]))+30 == back {
				hdr = data - back
				break
			}
		}
		if hdr < 0 {
			return &zipProblem{i18n.T("fetch.zip.name", i18n.D{"Member": zf.Name})}
		}
		name := make([]byte, binary.LittleEndian.Uint16(lh[26:]))
		if _, err := f.ReadAt(name, hdr+30); err != nil || !bytes.Equal(name, []byte(zf.Name)) {
			return &zipProblem{i18n.T("fetch.zip.name", i18n.D{"Member": zf.Name})}
		}
		end := data + int64(zf.CompressedSize64)
		if end > info.Size() || end < data {
			return &zipProblem{i18n.T("fetch.zip.size", i18n.D{"Member": zf.Name})}
		}
		members = append(members, member{zf, hdr, end})
	}
	slices.SortFunc(members, func(a, b member) int { return int(min(max(a.header-b.header, -1), 1)) })
	for i := 1; i < len(members); i++ {
		if members[i-1].end > members[i].header {
			return &zipProblem{i18n.T("fetch.zip.overlap", i18n.D{"Member": members[i-1].f.Name, "Next": members[i].f.Name})}
		}
	}

	// Every member's bytes, read in parallel (a wheel of a few GiB holds tens of thousands); the
	// first bad member stops the rest.
	g, failed := errgroup.WithContext(context.Background())
	g.SetLimit(runtime.GOMAXPROCS(0))
	bufs := sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}
	for _, m := range members {
		if failed.Err() != nil {
			break
		}
		g.Go(func() error {
			buf := bufs.Get().(*[]byte)
			defer bufs.Put(buf)
			return readMember(m.f, *buf)
		})
	}
	return g.Wait()
}

// readMember reads one member whole; archive/zip checks its CRC-32 and size at the end (a CRC-32
// of zero in the directory it leaves alone, so that one is compared here).
func readMember(zf *zip.File, buf []byte) error {
	rc, err := zf.Open()
	if err != nil {
		return &zipProblem{i18n.T("fetch.zip.member", i18n.D{"Member": zf.Name, "Err": err})}
	}
	defer rc.Close()
	h := crc32.NewIEEE()
	var w io.Writer = io.Discard
	if zf.CRC32 == 0 {
		w = h
	}
	n, err := io.CopyBuffer(w, rc, buf)
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return &zipProblem{i18n.T("fetch.zip.crc", i18n.D{"Member": zf.Name})}
	case err != nil:
		return &zipProblem{i18n.T("fetch.zip.member", i18n.D{"Member": zf.Name, "Err": err})}
	case uint64(n) != zf.UncompressedSize64:
		return &zipProblem{i18n.T("fetch.zip.size", i18n.D{"Member": zf.Name})}
	case zf.CRC32 == 0 && n > 0 && h.Sum32() != 0:
		return &zipProblem{i18n.T("fetch.zip.crc", i18n.D{"Member": zf.Name})}
	}
	return nil
}
