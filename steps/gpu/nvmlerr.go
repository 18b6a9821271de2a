package gpu

import (
	"errors"
	"fmt"
	"strings"

	"gpuwiz/steps/i18n"
)

// ReturnError is an NVML call that answered with an error: the call and NVML's name for the
// answer (ERROR_LIBRARY_NOT_FOUND, NVML_ERROR_DRIVER_NOT_LOADED). Its Error is NVML's own text,
// for --json and the logs; Words says what it means for the user.
type ReturnError struct {
	Call string // "nvmlInit"
	Name string // NVML's name of the return code
}

func (e *ReturnError) Error() string { return fmt.Sprintf("%s: %s", e.Call, e.Name) }

// Words is what the error means, in the interface language: the common answers of a machine
// without a working driver in plain words, any other with NVML's name.
func (e *ReturnError) Words() string {
	return returnWords.Say(strings.TrimPrefix(e.Name, "NVML_"), i18n.T("gpu.nvml.why_other", i18n.D{"Err": e.Error()}))
}

var returnWords = i18n.Words[string]{
	"ERROR_LIBRARY_NOT_FOUND":       func() string { return i18n.T("gpu.nvml.why_no_library") },
	"ERROR_DRIVER_NOT_LOADED":       func() string { return i18n.T("gpu.nvml.why_not_loaded") },
	"ERROR_NO_PERMISSION":           func() string { return i18n.T("gpu.nvml.why_no_permission") },
	"ERROR_LIB_RM_VERSION_MISMATCH": func() string { return i18n.T("gpu.nvml.why_mismatch") },
	"ERROR_GPU_IS_LOST":             func() string { return i18n.T("gpu.nvml.why_lost") },
}

// whyWords is why a backend gave nothing, as the report says it: an NVML answer in words, any
// other error as it is.
func whyWords(err error) string {
	var re *ReturnError
	if errors.As(err, &re) {
		return re.Words()
	}
	return err.Error()
}
