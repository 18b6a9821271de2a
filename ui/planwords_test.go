package ui

import (
	"testing"

	"gpuwiz/steps/app"
)

// A source chosen on the package-source screen goes into the plan's request with why the plan takes
// it, in the wizard's words, for the engine's plan; the channel's own index says nothing.
func TestPlanRequestSaysWhyTheChosenSource(t *testing.T) {
	m := newTestRoot(newFakeBackend())
	m.ch.source = &app.PackageSource{Kind: "mirror", Name: "good mirror", Where: "Beijing", IndexURL: "https://good.example/whl/cu126"}
	r := m.planRequest()
	if r.Source != "good mirror: Beijing" || r.SourceWhy != "chosen on the wizard's package-source screen (good mirror: Beijing)" {
		t.Errorf("a chosen mirror: source %q, why %q", r.Source, r.SourceWhy)
	}
	m.ch.source = &app.PackageSource{Kind: "official", Name: "the channel's index"}
	if r := m.planRequest(); r.Source != "" || r.SourceWhy != "" {
		t.Errorf("the channel's own index: source %q, why %q", r.Source, r.SourceWhy)
	}
}
