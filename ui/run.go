// Package ui is gpuwiz's terminal wizard: bubbletea models and views only.
package ui

import (
	"context"
	"fmt"
	"io"

	"gpuwiz/steps/cli"
)

// Run starts the wizard and returns the process exit code.
func Run(ctx context.Context, g cli.Globals, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "gpuwiz: the wizard is not built yet; use the subcommands (gpuwiz --help)")
	return 1
}
