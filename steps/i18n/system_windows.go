package i18n

import "golang.org/x/sys/windows"

var getUserDefaultUILanguage = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetUserDefaultUILanguage")

// SystemUILanguage is the Windows user's display language as a tag ("zh-CN"), "" when unknown.
func SystemUILanguage() string {
	if getUserDefaultUILanguage.Find() != nil {
		return ""
	}
	id, _, _ := getUserDefaultUILanguage.Call()
	return LangIDTag(uint16(id))
}
