package pyget

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// OfficialBase is where python.org keeps its release files: VERSION/FILE under it.
const OfficialBase = "https://www.python.org/ftp/python/"

// Mirrors that carry python.org's files in the same VERSION/FILE layout (for the help text and
// the wizard; any such URL works).
var Mirrors = []string{
	"https://mirrors.huaweicloud.com/python/",
	"https://registry.npmmirror.com/-/binary/python/",
}

// Methods: values of Plan.Method, the same in every language (--json); MethodName says them in words.
const (
	MethodWinget    = "winget"
	MethodInstaller = "python.org installer" //i18n:raw a --json value; MethodName has the words
	MethodDistro    = "distribution package" //i18n:raw a --json value; MethodName has the words
)

// MethodName is a method in words, in the current language.
func MethodName(method string) string { return methodNames.Say(method, method) }

var methodNames = i18n.Words[string]{
	MethodWinget:    func() string { return i18n.T("pyget.method.winget") },
	MethodInstaller: func() string { return i18n.T("pyget.method.installer") },
	MethodDistro:    func() string { return i18n.T("pyget.method.distro") },
}

// ErrBadInput marks a request that cannot be planned (an unknown version, a bad mirror URL). Its own
// words are for errors.Is and the CLI, which strips them ("bad input: ") before showing the rest.
var ErrBadInput = errors.New("bad input") //i18n:raw a sentinel: the CLI strips it, the rest comes from the catalog

// badInput is an ErrBadInput whose words come from the catalog: "bad input: why" in English, the
// reason alone in Chinese.
type badInput struct{ why string }

func (e *badInput) Error() string { return i18n.T("pyget.bad_input", i18n.D{"Why": e.why}) }
func (e *badInput) Unwrap() error { return ErrBadInput }

func errBadInput(why string) error { return &badInput{why} }

// Options say which Python to get and how; zero fields take the real machine's.
type Options struct {
	Version  string // "3.12" or "3.12.10"
	GOOS     string
	Mirror   string // a copy of python.org's ftp/python tree; implies the installer over winget
	Official string // default OfficialBase (tests point it at a loopback server)
	SHA256   string // the installer's SHA-256 when gpuwiz does not carry it and nothing publishes it
	Env      func(string) string
	LookPath func(string) (string, error)
	Run      runner.Runner
	Client   *http.Client // the run's client (netproxy.ForPip); nil: ForPip("", nil)'s
	CacheDir string       // where installers are kept; default os.UserCacheDir()/gpuwiz/python
	Distro   *pyenv.Distro
	OnEvent  func(Event)
}

func (o Options) withDefaults() Options {
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Env == nil {
		o.Env = os.Getenv
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Run == nil {
		o.Run = runner.New(io.Discard)
	}
	if o.Client == nil {
		o.Client = netproxy.ForPip("", nil).Client()
	}
	if o.Client.Timeout == 0 { // the run's shared client, with a bound on the whole download
		c := *o.Client
		c.Timeout = 30 * time.Minute
		o.Client = &c
	}
	if o.Official == "" {
		o.Official = OfficialBase
	}
	if o.CacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			o.CacheDir = filepath.Join(d, "gpuwiz", "python")
		} else {
			o.CacheDir = filepath.Join(os.TempDir(), "gpuwiz-python")
		}
	}
	if o.Distro == nil {
		d := pyenv.Distro{}
		if o.GOOS == "linux" && runtime.GOOS == "linux" {
			d = pyenv.ReadDistro()
		}
		o.Distro = &d
	}
	if o.OnEvent == nil {
		o.OnEvent = func(Event) {}
	}
	return o
}

// Plan is what gpuwiz python install will do; nothing has run yet.
type Plan struct {
	Minor        string           `json:"minor"`             // "3.12"
	Version      string           `json:"version,omitempty"` // "3.12.10"; empty when winget picks the newest of the minor
	Method       string           `json:"method"`
	Command      []string         `json:"command,omitempty"` // winget's or the installer's command line
	URL          string           `json:"url,omitempty"`
	SHA256       string           `json:"sha256,omitempty"`
	ChecksumFrom string           `json:"checksum_from,omitempty"` // where the expected SHA-256 comes from
	Size         int64            `json:"size,omitempty"`
	Installer    string           `json:"installer,omitempty"` // where the installer is kept
	InstallLog   string           `json:"install_log,omitempty"`
	Target       string           `json:"target,omitempty"` // the python.exe it makes
	Fix          *pyenv.SystemFix `json:"distro_command,omitempty"`
	Notes        []string         `json:"notes,omitempty"`

	sigstoreURLs []string
	undo         []string
}

// MakePlan chooses the method and the files. It reaches no network.
func MakePlan(o Options) (Plan, error) {
	o = o.withDefaults()
	minor, full, err := parseVersion(o.Version)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Minor: minor, Version: full}
	if o.GOOS != "windows" {
		p.Method = MethodDistro
		if f, ok := pyenv.PythonInstallFix(*o.Distro, minor); ok {
			p.Fix = &f
			p.Notes = append(p.Notes, f.Note)
		} else {
			p.Notes = append(p.Notes, i18n.T("pyget.note.unknown_distro", i18n.D{"Minor": minor}))
		}
		p.Notes = append(p.Notes, i18n.T("pyget.note.no_root"))
		return p, nil
	}
	local := o.Env("LOCALAPPDATA")
	if local == "" {
		return Plan{}, errBadInput(i18n.T("pyget.error.no_localappdata"))
	}
	p.Target = filepath.Join(local, "Programs", "Python", "Python"+strings.ReplaceAll(minor, ".", ""), "python.exe")
	if o.Mirror != "" {
		if _, err := urls.Check(o.Mirror); err != nil {
			return Plan{}, errBadInput(i18n.T("pyget.error.mirror", i18n.D{"Err": err, "Official": OfficialBase}))
		}
	}
	if winget, err := o.LookPath("winget"); err == nil && o.Mirror == "" && o.SHA256 == "" {
		p.Method = MethodWinget
		p.Command = []string{winget, "install", "--id", "Python.Python." + minor, "-e", "--scope", "user", "--silent",
			"--accept-package-agreements", "--accept-source-agreements"}
		if full != "" {
			p.Command = append(p.Command, "--version", full)
		}
		p.undo = []string{winget, "uninstall", "--id", "Python.Python." + minor, "-e", "--scope", "user", "--silent"}
		p.Notes = append(p.Notes, i18n.T("pyget.note.winget"))
		return p, nil
	}
	p.Method = MethodInstaller
	rel, ok := known(full)
	if full == "" {
		if !ok {
			rel, ok = known(minor)
		}
		if !ok {
			return Plan{}, errBadInput(i18n.T("pyget.error.unknown_version", i18n.D{"Minor": minor}))
		}
		full = rel.Version
	}
	p.Version = full
	file := "python-" + full + "-amd64.exe"
	base := o.Official
	if o.Mirror != "" {
		base = o.Mirror
	}
	p.URL = strings.TrimRight(base, "/") + "/" + full + "/" + file
	switch {
	case ok && rel.Version == full:
		p.SHA256, p.Size = rel.SHA256, rel.Size
		p.ChecksumFrom = i18n.T("pyget.checksum.carried", i18n.D{"File": file})
	case o.SHA256 != "":
		p.SHA256 = strings.ToLower(strings.TrimSpace(o.SHA256))
		if len(p.SHA256) != 64 || strings.Trim(p.SHA256, "0123456789abcdef") != "" {
			return Plan{}, errBadInput(i18n.T("pyget.error.bad_sha256", i18n.D{"SHA256": strconv.Quote(o.SHA256)}))
		}
		p.ChecksumFrom = "--sha256"
	default:
		// Only python.org's own bundle: a mirror's copy would come from the same place as the file it
		// is meant to check. When python.org cannot be reached, --sha256 is the way (the error says so).
		official := strings.TrimRight(o.Official, "/") + "/" + full + "/" + file + ".sigstore"
		p.sigstoreURLs = []string{official}
		p.ChecksumFrom = official
	}
	p.Installer = filepath.Join(o.CacheDir, file)
	p.InstallLog = filepath.Join(o.CacheDir, "python-"+full+"-install.log")
	// InstallLauncherAllUsers=0: the launcher's default is all users, which would ask for administrator rights.
	p.Command = []string{p.Installer, "/quiet", "InstallAllUsers=0", "Include_launcher=1", "InstallLauncherAllUsers=0",
		"PrependPath=0", "Include_test=0", "/log", p.InstallLog}
	p.undo = []string{p.Installer, "/quiet", "/uninstall", "/log", p.InstallLog + ".undo"}
	return p, nil
}

// parseVersion takes "3.12" or "3.12.10" (a leading "python" or "py" is allowed).
func parseVersion(v string) (minor, full string, err error) {
	v = strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(v)), "python"), "py")
	if v == "" {
		return "", "", errBadInput(i18n.T("pyget.error.no_version"))
	}
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "3" {
		return "", "", errBadInput(i18n.T("pyget.error.bad_version", i18n.D{"Version": strconv.Quote(v)}))
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return "", "", errBadInput(i18n.T("pyget.error.bad_version", i18n.D{"Version": strconv.Quote(v)}))
		}
	}
	minor = parts[0] + "." + parts[1]
	if len(parts) == 3 {
		full = v
	}
	return minor, full, nil
}
