package verify

import (
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
)

const (
	err1114 = `Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "C:\venvs\gpu\Lib\site-packages\torch\__init__.py", line 281, in <module>
    _load_dll_libraries()
OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "C:\venvs\gpu\Lib\site-packages\torch\lib\c10.dll" or one of its dependencies.`
	err126 = `OSError: [WinError 126] The specified module could not be found. Error loading "C:\venvs\gpu\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.`
	// Python's own wording for a .pyd, without the number, on a Chinese Windows.
	err1114zh = `ImportError: DLL load failed while importing _C: 动态链接库(DLL)初始化例程失败。`
	err126zh  = `ImportError: DLL load failed while importing _C: 找不到指定的模块。`
)

// WinError 126 (not found) and 1114 (initialisation failed) are told apart, with the DLL named,
// and get different causes and fixes.
func TestTell1114From126(t *testing.T) {
	for _, c := range []struct {
		text string
		code int
		dll  string
	}{
		{err1114, 1114, `C:\venvs\gpu\Lib\site-packages\torch\lib\c10.dll`},
		{err126, 126, `C:\venvs\gpu\Lib\site-packages\torch\lib\fbgemm.dll`},
		{err1114zh, 1114, ""},
		{err126zh, 126, ""},
	} {
		e, ok := ParseDLLError(c.text)
		if !ok || e.Code != c.code || e.DLL != c.dll {
			t.Errorf("%q: %+v %v", c.text[:40], e, ok)
		}
	}
	if _, ok := ParseDLLError("OSError: [WinError 5] Access is denied"); ok {
		t.Error("WinError 5 read as a DLL load failure")
	}
	cause, fix, generic := importCause(err1114)
	if generic || !strings.Contains(cause, "c10.dll was found but failed to initialise ([WinError 1114])") || !strings.Contains(cause, "14.40") || !strings.Contains(fix, "gpuwiz doctor") {
		t.Errorf("1114: %q / %q", cause, fix)
	}
	cause2, fix2, _ := importCause(err126)
	if !strings.Contains(cause2, "fbgemm.dll, or a DLL it needs, was not found ([WinError 126])") || fix2 == fix || !strings.Contains(fix2, "vc_redist.x64.exe") {
		t.Errorf("126: %q / %q", cause2, fix2)
	}
}

func TestTell1114From126InChinese(t *testing.T) {
	i18ntest.Chinese(t)
	cause, _, _ := importCause(err1114zh)
	cause2, _, _ := importCause(err126zh)
	if !strings.Contains(cause, "初始化失败（[WinError 1114]）") || !strings.Contains(cause2, "（[WinError 126]）") {
		t.Errorf("%q / %q", cause, cause2)
	}
}
