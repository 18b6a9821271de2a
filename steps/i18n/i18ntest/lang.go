package i18ntest

import (
	"testing"

	"gpuwiz/steps/i18n"
)

// Chinese switches the catalog to Chinese for the rest of the test and back to English when it
// ends. The language is the process's: a test that calls it must not run in parallel.
func Chinese(t testing.TB) {
	t.Helper()
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
}
