package cli

import (
	"fmt"
	"io"
	"strings"

	"gpuwiz/steps/i18n"
)

// langArg is the value of --lang in args ("" when absent), read before the commands are built so
// that their help is in that language; cobra parses the flag again (it is a persistent flag).
func langArg(args []string) string {
	for i, a := range args {
		switch {
		case a == "--":
			return ""
		case a == "--lang" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "--lang="):
			return strings.TrimPrefix(a, "--lang=")
		}
	}
	return ""
}

// chooseLanguage sets the language of every message from --lang, GPUWIZ_LANG or the system. A value
// gpuwiz does not speak is bad input: exit 2 with the message in both languages (no language is
// chosen yet), as JSON too when --json is among the args.
func chooseLanguage(args []string, getenv func(string) string, stdout, stderr io.Writer) (int, bool) {
	choice, err := i18n.Resolve(langArg(args), getenv, i18n.SystemUILanguage())
	if err == nil {
		i18n.Set(choice.Lang)
		return ExitOK, true
	}
	fmt.Fprintf(stderr, "gpuwiz: %v\n", err)
	for _, a := range args {
		if a == "--json" || a == "--json=true" {
			writeJSONError(stdout, ExitUsage, err.Error())
			break
		}
	}
	return ExitUsage, false
}
