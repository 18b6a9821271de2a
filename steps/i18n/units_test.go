package i18n

import (
	"testing"
	"time"
)

func TestSizeAndLeftReadAsAPersonWouldSayThem(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 100 << 20: "100.0 MiB", 4831838208: "4.5 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
	Set(English)
	for d, want := range map[time.Duration]string{0: "", 300 * time.Millisecond: "under a second", 42 * time.Second: "42s",
		185 * time.Second: "3m 05s", 3725 * time.Second: "1h 02m", 59*time.Minute + 59*time.Second + 600*time.Millisecond: "1h 00m"} {
		if got := Left(d); got != want {
			t.Errorf("Left(%v) = %q, want %q", d, got, want)
		}
	}
	Set(Chinese)
	defer Set(English)
	if got := Left(185 * time.Second); got != "3 分 05 秒" {
		t.Errorf("Left in Chinese = %q", got)
	}
}
