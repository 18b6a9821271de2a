//go:build !windows

package driver

import "time"

// RebootPending is false off Windows: gpuwiz installs no driver there.
func RebootPending() bool { return false }

// BootTime is unknown off Windows (the zero time).
func BootTime() time.Time { return time.Time{} }
