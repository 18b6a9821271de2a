// Package dllver reads the file version of a Windows DLL or EXE from its version resource
// (VS_FIXEDFILEINFO), in plain Go: doctor and verify name the exact msvcp140.dll a process loads,
// and the same code runs in tests on Linux.
package dllver

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrNoVersion means the file is a PE image without a version resource.
var ErrNoVersion = errors.New("no version resource") //i18n:raw a sentinel for errors.Is; callers say it in words

// fixedFileInfoSignature is VS_FIXEDFILEINFO.dwSignature, 0xFEEF04BD, little-endian.
var fixedFileInfoSignature = []byte{0xBD, 0x04, 0xEF, 0xFE}

// Version is a file version "major.minor.build.revision" as Windows' Properties → Details shows it.
type Version struct{ Major, Minor, Build, Revision uint16 }

func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d.%d", v.Major, v.Minor, v.Build, v.Revision)
}

// Less compares major, minor, build and revision in turn.
func (v Version) Less(w Version) bool {
	a := []uint16{v.Major, v.Minor, v.Build, v.Revision}
	b := []uint16{w.Major, w.Minor, w.Build, w.Revision}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// Read reads the file version of a PE image (a DLL or an EXE). The resource section (.rsrc) holds
// VS_VERSIONINFO, whose VS_FIXEDFILEINFO starts with a fixed signature, 32-bit aligned; its
// dwFileVersionMS and dwFileVersionLS follow the signature and the structure version.
func Read(image []byte) (Version, error) {
	f, err := pe.NewFile(bytes.NewReader(image))
	if err != nil {
		return Version{}, err
	}
	defer f.Close()
	data := image
	if s := f.Section(".rsrc"); s != nil {
		if d, err := s.Data(); err == nil {
			data = d
		}
	}
	for off := 0; ; {
		i := bytes.Index(data[off:], fixedFileInfoSignature)
		if i < 0 {
			return Version{}, ErrNoVersion
		}
		at := off + i
		if at%4 == 0 && at+16 <= len(data) {
			ms := binary.LittleEndian.Uint32(data[at+8:])
			ls := binary.LittleEndian.Uint32(data[at+12:])
			return Version{uint16(ms >> 16), uint16(ms), uint16(ls >> 16), uint16(ls)}, nil
		}
		off = at + 1
	}
}

// Parse reads "14.36.32532.0", "14.36" or "v14.40.33810.00" (the registry's form) into a Version.
func Parse(s string) (Version, bool) {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		s = s[1:]
	}
	var parts [4]uint16
	n := 0
	cur, digits := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if digits == 0 || n == 4 {
				return Version{}, false
			}
			parts[n] = uint16(cur)
			n, cur, digits = n+1, 0, 0
			continue
		}
		c := s[i]
		if c < '0' || c > '9' {
			return Version{}, false
		}
		if cur, digits = cur*10+int(c-'0'), digits+1; cur > 0xFFFF {
			return Version{}, false
		}
	}
	if n < 2 {
		return Version{}, false
	}
	return Version{parts[0], parts[1], parts[2], parts[3]}, true
}
