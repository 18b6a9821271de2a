package words

import "gpuwiz/steps/i18n"

// FrameworkName is the framework's name for people: PyTorch, PaddlePaddle (飞桨 in Chinese).
func FrameworkName(f string) string {
	switch f {
	case "torch":
		return "PyTorch"
	case "paddle":
		return i18n.T("ui.framework.paddle")
	}
	return f
}
