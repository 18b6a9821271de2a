//go:build !windows

package i18n

// SystemUILanguage is "" outside Windows: the locale variables (LC_ALL, LC_MESSAGES, LANG) decide.
func SystemUILanguage() string { return "" }
