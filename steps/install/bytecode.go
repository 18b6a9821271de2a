package install

import (
	"fmt"
	"gpuwiz/steps/envroot"
	"path/filepath"
	"time"

	"gpuwiz/steps/wheelinst"
)

// A reinstall keeps the bytecode of the modules it writes unchanged (wheelinst.KeepBytecode says
// how): the first import after a repair or a switch back to a channel, the verify step's, need not
// compile the framework's modules again.

// keepBytecode sets aside the bytecode of the dist in infoDir, before it is removed, in the run's
// backup folder (it goes with that folder). Only once the snapshot step named that folder.
func (e *engine) keepBytecode(infoDir string, roots envroot.Roots) {
	if e.backupDir != "" {
		e.keptPycs = append(e.keptPycs, wheelinst.KeepBytecode(infoDir, filepath.Join(e.backupDir, "bytecode", filepath.Base(infoDir)), roots)...)
	}
}

// putBackBytecode links what keepBytecode set aside back beside each module whose source the dists
// in infoDirs (the ones the install step wrote) hold unchanged, and says so in the log.
func (e *engine) putBackBytecode(infoDirs []string, roots envroot.Roots) {
	if len(e.keptPycs) == 0 {
		return
	}
	began := time.Now()
	n := wheelinst.PutBackBytecode(e.keptPycs, infoDirs, roots)
	//i18n:raw the log, for support
	e.note(fmt.Sprintf("bytecode of %d unchanged modules put back, of %d set aside (Python need not compile them again): %.3f s", n, len(e.keptPycs), time.Since(began).Seconds()))
}
