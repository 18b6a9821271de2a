package cli

import "strings"

// isUsageError recognises cobra's own errors for bad arguments and unknown commands.
func isUsageError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
