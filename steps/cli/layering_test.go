package cli

import (
	"testing"

	"gpuwiz/steps/testkit/imports"
)

// The commands are a front end over the application layer, as the wizard is: outside its tests,
// steps/cli imports steps/app and the presentation packages only (the catalog, shell quoting,
// packaging names, the words both front ends share), never a step package or the matrix. What a
// command shows of a step comes through app's types (types.go's steps/cli section); what it runs
// is an app session.
func TestCommandsImportAppAndPresentationOnly(t *testing.T) {
	imports.Only(t, ".", []string{"gpuwiz/steps/app", "gpuwiz/steps/i18n", "gpuwiz/steps/shellquote", "gpuwiz/steps/pep",
		"gpuwiz/steps/words"},
		"the commands ask steps/app (add what they need to app, types.go's steps/cli section or an app session)")
}
