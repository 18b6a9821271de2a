package driver

// Failure codes of a driver session (app.DriverFailure.Code); the front ends word them
// ("driver.fail.<code>", steps/words.DriverFailure) with the next step.
const (
	FailLinux         = "linux"          // --download or --install for Linux: the distribution's way, never gpuwiz
	FailNotWindows    = "not_windows"    // --install for Windows asked on another system
	FailNoDriver      = "no_driver"      // the lookup and the table know no installer for the card
	FailOwnPath       = "own_path"       // a data-centre card: its own driver channel
	FailRebootPending = "reboot_pending" // an earlier install waits for a restart
	FailNoNetwork     = "no_network"     // the download host could not be reached
	FailDownload      = "download"       // the download failed otherwise (kept to resume)
	FailRefused       = "refused"        // the file failed the check: Refusal names why; nothing ran
	FailUAC           = "uac_refused"    // the administrator prompt was answered No
	FailExitCode      = "exit_code"      // the installer ended with a code that is not success
	FailStart         = "start"          // the installer could not be started
	FailCancelled     = "cancelled"
)
