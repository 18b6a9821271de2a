// Command gpuwiz takes a machine with an NVIDIA card to a working, verified GPU build of PyTorch or
// PaddlePaddle, and repairs such environments when they break.
package main

import (
	"os"

	"gpuwiz/steps/cli"
	"gpuwiz/ui"
)

// version is stamped at build time: go build -ldflags "-X main.version=v0.1.0".
var version = "dev"

func main() {
	os.Exit(cli.Execute(cli.Build{Version: version, Wizard: ui.Run, BenchScreen: ui.RunBench}, os.Args[1:]))
}
