package i18n

import (
	"fmt"
	"time"
)

// Size is n bytes as both front ends write it: "512 B", "3.4 KiB", "120.0 MiB", "4.5 GiB"
// (binary units, one decimal).
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Left is the time a download still needs, in the reader's language and as a person would say it:
// "under a second", "42s", "3m 05s", "1h 02m" (English), never a Go duration such as
// "1h2m3.5s". d ≤ 0 gives "".
func Left(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	if d < time.Second {
		return T("units.left.under_second")
	}
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return T("units.left.seconds", D{"S": s})
	case s < 3600:
		return T("units.left.minutes", D{"M": s / 60, "S": fmt.Sprintf("%02d", s%60)})
	}
	m := (s + 30) / 60
	return T("units.left.hours", D{"H": m / 60, "M": fmt.Sprintf("%02d", m%60)})
}
