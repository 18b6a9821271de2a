// Command gpuwiz takes a machine with an NVIDIA card to a working, verified GPU build of PyTorch or
// PaddlePaddle, and repairs such environments when they break.
package main

import (
	"os"

	"gpuwiz/steps/cli"
	"gpuwiz/ui"
)

// Stamped at build time (.goreleaser.yaml does this for releases):
// go build -ldflags "-X main.version=0.1.0 -X main.commit=$(git rev-parse HEAD) -X main.date=2026-01-02T15:04:05Z".
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func main() {
	os.Exit(cli.Execute(cli.Build{Version: version, Commit: commit, Date: date, Wizard: ui.Run, BenchScreen: ui.RunBench}, os.Args[1:]))
}
