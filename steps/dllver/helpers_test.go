package dllver

import "fmt"

// MajorMinor is "14.36".
func (v Version) MajorMinor() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
