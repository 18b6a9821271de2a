package driver

import "gpuwiz/steps/i18n"

// Words is the reason in the interface language: the one wording both front ends show.
func (r Reason) Words() string {
	a := r.Args
	switch r.Code {
	case "notebook_name":
		return i18n.T("driver.why.notebook_name")
	case "notebook_chassis":
		return i18n.T("driver.why.notebook_chassis")
	case "datacenter":
		return i18n.T("driver.why.datacenter")
	case "branch_580":
		return i18n.T("driver.why.branch_580", i18n.D{"Arch": a["Arch"]})
	case "kepler":
		return i18n.T("driver.why.kepler", i18n.D{"Arch": a["Arch"]})
	case "no_studio_offline":
		return i18n.T("driver.why.no_studio_offline")
	case "none_known":
		return i18n.T("driver.why.none_known")
	case "missing":
		return i18n.T("driver.why.missing")
	case "below_channel":
		return i18n.T("driver.why.below_channel", i18n.D{"Current": a["Current"], "Need": a["Need"], "Channel": a["Channel"]})
	case "branch_below_channel":
		return i18n.T("driver.why.branch_below_channel", i18n.D{"Version": a["Version"], "Need": a["Need"], "Channel": a["Channel"]})
	case "newer":
		return i18n.T("driver.why.newer", i18n.D{"Current": a["Current"], "Version": a["Version"]})
	case "up_to_date":
		return i18n.T("driver.why.up_to_date", i18n.D{"Current": a["Current"]})
	case "lookup_unreachable":
		return i18n.T("driver.why.lookup_unreachable")
	case "lookup_no_product":
		return i18n.T("driver.why.lookup_no_product", i18n.D{"Name": a["Name"]})
	case "lookup_no_driver":
		return i18n.T("driver.why.lookup_no_driver")
	}
	return r.Code
}

// Words says why a file was not run, in the interface language (nil: no file at all).
func (r *Refusal) Words() string {
	if r == nil {
		return i18n.T("driver.refusal.not_found", i18n.D{"Path": ""})
	}
	switch r.Code {
	case "not_found":
		return i18n.T("driver.refusal.not_found", i18n.D{"Path": r.Detail})
	case "empty":
		return i18n.T("driver.refusal.empty")
	case "size":
		return i18n.T("driver.refusal.size", i18n.D{"Size": r.Detail})
	case "not_program":
		return i18n.T("driver.refusal.not_program")
	case "unsigned":
		return i18n.T("driver.refusal.unsigned")
	case "bad_signature":
		return i18n.T("driver.refusal.bad_signature", i18n.D{"Err": r.Detail})
	case "signer":
		return i18n.T("driver.refusal.signer", i18n.D{"Signer": r.Detail})
	case "no_check":
		return i18n.T("driver.refusal.no_check")
	}
	return r.Code
}
