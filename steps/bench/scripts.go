package bench

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed scripts/*.py
var scripts embed.FS

// Script returns the embedded benchmark script for framework ("torch" or "paddle").
func Script(framework string) ([]byte, error) {
	b, err := scripts.ReadFile("scripts/bench_" + framework + ".py")
	if err != nil {
		return nil, fmt.Errorf("%w %q: choose %s", ErrUnknownFramework, framework, strings.Join(Frameworks, " or "))
	}
	return b, nil
}
