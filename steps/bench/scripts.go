package bench

import "embed"

//go:embed scripts/*.py
var scripts embed.FS

// Script returns the embedded benchmark script for framework ("torch" or "paddle"): the shared
// prologue (imports, emit, fail, median) followed by the framework's own part.
func Script(framework string) ([]byte, error) {
	b, err := scripts.ReadFile("scripts/bench_" + framework + ".py")
	if err != nil {
		return nil, unknownFramework(framework)
	}
	common, err := scripts.ReadFile("scripts/common.py")
	if err != nil {
		return nil, err
	}
	return append(append(common, '\n', '\n'), b...), nil
}
