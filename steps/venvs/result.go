package venvs

// Action is what a run did to an environment, as the list keeps it (Entry.Action).
type Action string

const (
	ActionInstall Action = "install"
	ActionRepair  Action = "repair"
	ActionCreate  Action = "create"
)

// Result is how an install, a repair or a creation ended: a value of the list (Entry.Result) and of
// the JSON output, the same in every language; the front ends put it into words.
type Result string

const (
	Installed    Result = "installed" // the install engine's results (install.Result*)
	Unchanged    Result = "unchanged"
	Restored     Result = "restored"
	Damaged      Result = "damaged"
	Created      Result = "created"
	Repaired     Result = "repaired"
	ProblemsLeft Result = "repaired, problems left" //i18n:raw a value of the list file
	RepairFailed Result = "repair failed"           //i18n:raw a value of the list file
	Cancelled    Result = "cancelled"
	Interrupted  Result = "interrupted" // the wizard closed by a signal during the run
	Failed       Result = "failed"
	// VerifyFailed is an install whose new set is in place but failed verification: not Installed,
	// which the list shows as working.
	VerifyFailed Result = "verify failed" //i18n:raw a value of the list file
)
