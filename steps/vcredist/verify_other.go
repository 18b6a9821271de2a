//go:build !windows

package vcredist

import "context"

// VerifySignature cannot check an Authenticode signature off Windows: it always refuses.
func VerifySignature(path string) error { return notWindows() }

func start(ctx context.Context, path string, args ...string) error { return notWindows() }
