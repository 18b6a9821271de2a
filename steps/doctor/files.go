package doctor

import "gpuwiz/steps/pyenv"

// FS reads the machine's files by their OS paths (PATH directories, pip config files, the lock
// file): what pyenv reads to tell an environment's layout apart, so doctor hands it the same files.
type FS = pyenv.FileReader

// OSFS is the real filesystem.
type OSFS = pyenv.OSFiles
