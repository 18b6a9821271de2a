package runner

import (
	"strconv"
	"strings"
)

// Progress is one download progress report, in bytes.
type Progress struct {
	Done, Total int64
	// From gpuwiz's own downloader (pip's raw lines have neither): the rate over the last
	// seconds and the time left at that rate, 0 when unknown.
	BytesPerSec float64 `json:"bytes_per_sec,omitempty"`
	ETASeconds  float64 `json:"eta_s,omitempty"`
}

// ParseProgress reads one line of pip's `--progress-bar raw` output ("Progress 123 of 456");
// pip has that mode from 24.1 on. Total is 0 when pip does not know the size.
func ParseProgress(line string) (Progress, bool) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "Progress" || f[2] != "of" {
		return Progress{}, false
	}
	done, err1 := strconv.ParseInt(f[1], 10, 64)
	total, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || done < 0 || total < 0 {
		return Progress{}, false
	}
	return Progress{Done: done, Total: total}, true
}
