package words

import (
	"gpuwiz/steps/driver"
	"gpuwiz/steps/i18n"
)

// DriverFailure words the driver session's failures both front ends say alike, with the next
// step; ok is false for a code each front end words its own way (naming a flag, a file or a path
// of its own).
func DriverFailure(code string) (words string, ok bool) {
	switch code {
	case driver.FailNoDriver:
		return i18n.T("driver.fail.no_driver"), true
	case driver.FailOwnPath:
		return i18n.T("driver.fail.own_path"), true
	case driver.FailRebootPending:
		return i18n.T("driver.fail.reboot_pending"), true
	case driver.FailCancelled:
		return i18n.T("driver.fail.cancelled"), true
	case driver.FailUAC:
		return i18n.T("driver.fail.uac_refused"), true
	}
	return "", false
}
