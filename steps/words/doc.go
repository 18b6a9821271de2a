// Package words puts into words the values of the application layer (steps/app) whose wording is
// needed in more than one place: a venv's line, which both front ends (the wizard, ui, and the
// commands, steps/cli) show; a note, which the commands show and an error's message of app may
// name; a framework's name for people. It is a presentation package, as the catalog (steps/i18n) and shell quoting are: it reads
// the catalog and decides nothing. What one front end alone shows is worded in that front end.
package words
