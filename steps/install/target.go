// Package install plans and runs the safe uninstall-then-install of a framework build into a venv:
// every wheel is staged before anything is removed, the dists about to go are backed up, and any
// failure after the uninstall puts the old set back, so the venv always holds the new set or the old.
package install

import (
	"gpuwiz/steps/pipcmd"
	"os"
	"path/filepath"

	"gpuwiz/matrix"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pyenv"
)

// Target is the build to install.
type Target struct {
	Framework        string           `json:"framework"` // "torch" or "paddle"
	FrameworkVersion string           `json:"framework_version"`
	Channel          string           `json:"channel"` // "cu126", "cpu"
	CUDA             string           `json:"cuda,omitempty"`
	IndexURL         string           `json:"index_url"`
	Packages         []matrix.Package `json:"packages"`
	Mirror           string           `json:"mirror,omitempty"` // Paddle only: serves paddlepaddle-gpu's dependencies
}

// TargetOf is the target for a matrix candidate.
func TargetOf(c matrix.Candidate) Target {
	return Target{
		Framework: c.Framework, FrameworkVersion: c.FrameworkVersion, Channel: c.Channel,
		CUDA: c.CUDA, IndexURL: c.IndexURL, Packages: append([]matrix.Package(nil), c.Packages...),
	}
}

// Options say what to install where.
type Options struct {
	Venv             pyenv.Venv
	Python           string // interpreter that creates the venv when it does not exist yet
	Target           Target
	IndexURLOverride string            // replaces Target.IndexURL (a local mirror of the channel, a test index)
	Mirror           string            // Paddle: index for the ordinary dependencies; also where pip upgrades itself from
	FindLinks        string            // a flat page of the framework's wheels (pip --find-links); dependencies come from the index
	SourceWhy        string            // why the index is the one to use ("recorded in the venv's lock"), for the plan
	LockHashes       map[string]string // wheel file → sha256 the venv's lock recorded: cached wheels copied from elsewhere are checked against it
	CacheDir         string            // wheel cache; default os.UserCacheDir()/gpuwiz/wheels
	LogPath          string            // where the runner's log goes (reported in the Outcome)
	NoPipUpgrade     bool              // keep the venv's pip even when it is older than 25.1 (offline machines)
	// Environ is the environment pip would see without gpuwiz (nil: os.Environ()); the child
	// environment is built from it with the index settings overridden.
	Environ []string
	// Net is the run's proxy rules (netproxy.ForPip for the venv's Python), whose client asks the
	// index; nil: ForPip for the venv's sys.prefix in the child environment.
	Net *netproxy.Resolver
	// VerifyMatrixN is the side of the verification matmul (0: verify's default).
	VerifyMatrixN int
	// ReinstallDists are dists outside the framework's family that the run removes and installs again
	// from the staged build although their version stays: a CUDA library whose files are missing. Each
	// must be among the wheels the build stages, else the run stops before changing anything.
	ReinstallDists []string
	// FixPth: the user agreed that an embedded Python's ._pth gets `import site` (its site-packages
	// is off sys.path without it); the run writes that line first.
	FixPth bool

	newPythonVersion string     // the version of Python, when a new venv is made from it (Prepare reads it)
	pip              pipcmd.Pip // how pip runs against the venv (Prepare asks pipcmd.For); zero: the venv's own pip
}

// pipFor is the pip the plan runs against the venv: the one Prepare found, else the venv's own.
func (o Options) pipFor() pipcmd.Pip {
	if o.pip.Python != "" {
		return o.pip
	}
	return pipcmd.Pip{Python: o.Venv.Python()}
}

// CacheDirEnv names a wheel cache elsewhere (another drive) for every run that is not given --cache-dir.
const CacheDirEnv = "GPUWIZ_CACHE_DIR"

// DefaultCacheDir is $GPUWIZ_CACHE_DIR when set, else os.UserCacheDir()/gpuwiz/wheels, or a temp dir
// when there is no user cache.
func DefaultCacheDir() string {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gpuwiz", "wheels")
	}
	return filepath.Join(os.TempDir(), "gpuwiz-wheels")
}

func (o Options) indexURL() string {
	if o.IndexURLOverride != "" {
		return o.IndexURLOverride
	}
	return o.Target.IndexURL
}

func (o Options) environ() []string {
	if o.Environ != nil {
		return o.Environ
	}
	return os.Environ()
}
