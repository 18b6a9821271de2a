// Package words puts into words the values the application layer (steps/app) returns that both
// front ends, the wizard (ui) and the commands (steps/cli), show the same way: a presentation
// package, as the catalog (steps/i18n) and shell quoting are. It reads the catalog and makes no
// decision; what one front end alone shows is worded in that front end.
package words
