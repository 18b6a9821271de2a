package words

import (
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
)

// AddFailure words an add preview pip could not make (install.ClassifyPipFailure's kind, the
// requirement no release was found of, the log holding pip's whole output): what failed, what to
// do, and where the log is. change is the front end's own way to give another source (a key, a
// flag), said where another source is the way out. pip's own lines stay in the log.
func AddFailure(kind, pkg, logPath, change string) (what, do, log string) {
	switch kind {
	case install.PipFailUnreachable:
		what, do = i18n.T("add.fail_unreachable"), i18n.T("add.fail_unreachable_do", i18n.D{"Change": change})
	case install.PipFailNoSuchPackage:
		what, do = i18n.T("add.fail_no_such", i18n.D{"Package": pkg}), i18n.T("add.fail_no_such_do", i18n.D{"Change": change})
		if pkg == "" {
			what = i18n.T("add.fail_no_such_any")
		}
	case install.PipFailConflict:
		what, do = i18n.T("add.fail_conflict"), i18n.T("add.fail_conflict_do")
	default:
		what, do = i18n.T("add.fail_other"), i18n.T("add.fail_other_do")
	}
	log = i18n.T("add.fail_no_log")
	if logPath != "" {
		log = i18n.T("add.fail_log", i18n.D{"Log": logPath})
	}
	return what, do, log
}
