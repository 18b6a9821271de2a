// Package pyindex is a test kit: it builds pure-Python wheels with importable stub modules and
// serves them from a loopback PEP 503 index laid out like download.pytorch.org.
package pyindex

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var unsafeWheelChars = regexp.MustCompile(`[^A-Za-z0-9.]+`)

// WheelName is dist-version-py3-none-any.whl with the name escaped as the wheel spec says; a local
// label stays ("torch-2.6.0+cu126-py3-none-any.whl").
func WheelName(dist, version string) string {
	return escapeName(dist) + "-" + strings.ReplaceAll(version, "-", "_") + "-py3-none-any.whl"
}

func escapeName(dist string) string { return unsafeWheelChars.ReplaceAllString(dist, "_") }

// BuildWheel writes a py3-none-any wheel for dist==version into dir holding files (archive path →
// content), with Requires-Dist lines from requires, and padBytes of incompressible data (stored,
// not deflated) so downloads and installs take measurable time. It returns the wheel's path.
func BuildWheel(dir, dist, version string, files map[string]string, requires []string, padBytes int) (string, error) {
	return buildWheel(dir, dist, version, files, requires, padBytes, true)
}

// BuildWheelWithoutRecord is BuildWheel with no RECORD in the archive: pip 23 to 25 write its files
// and then fail ("OSError: RECORD"), leaving a dist-info without a RECORD behind, after installing
// whatever came before it in the same command.
func BuildWheelWithoutRecord(dir, dist, version string, files map[string]string, requires []string) (string, error) {
	return buildWheel(dir, dist, version, files, requires, 0, false)
}

func buildWheel(dir, dist, version string, files map[string]string, requires []string, padBytes int, withRecord bool) (string, error) {
	info := escapeName(dist) + "-" + version + ".dist-info"
	var meta strings.Builder
	fmt.Fprintf(&meta, "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: gpuwiz test stub of %s\n", dist, version, dist) //i18n:raw wheel METADATA for pip, not for reading
	for _, r := range requires {
		fmt.Fprintf(&meta, "Requires-Dist: %s\n", r)
	}
	entries := map[string][]byte{}
	for name, body := range files {
		entries[name] = []byte(body)
	}
	if padBytes > 0 {
		pad := make([]byte, padBytes)
		rng := rand.NewChaCha8(seedFor(dist + version))
		_, _ = rng.Read(pad)
		entries[escapeName(dist)+"_gpuwiz_pad/blob.bin"] = pad
	}
	entries[info+"/METADATA"] = []byte(meta.String())
	entries[info+"/WHEEL"] = []byte("Wheel-Version: 1.0\nGenerator: gpuwiz-pyindex\nRoot-Is-Purelib: true\nTag: py3-none-any\n")

	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	var record strings.Builder
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		body := entries[n]
		method := zip.Deflate
		if strings.HasSuffix(n, "blob.bin") {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: method})
		if err != nil {
			return "", err
		}
		if _, err := w.Write(body); err != nil {
			return "", err
		}
		sum := sha256.Sum256(body)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", n, base64.RawURLEncoding.EncodeToString(sum[:]), len(body))
	}
	if withRecord {
		record.WriteString(info + "/RECORD,,\n")
		w, err := zw.Create(info + "/RECORD")
		if err != nil {
			return "", err
		}
		if _, err := w.Write([]byte(record.String())); err != nil {
			return "", err
		}
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, WheelName(dist, version))
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

// seedFor makes the padding deterministic, so rebuilding a wheel gives the same bytes and hash.
func seedFor(s string) [32]byte { return sha256.Sum256([]byte("gpuwiz-pad:" + s)) }
