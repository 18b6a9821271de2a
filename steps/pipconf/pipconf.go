// Package pipconf reads pip's configuration in Go, as `pip config list` reports it for one
// interpreter and one environment, without starting Python (pypa/pip
// src/pip/_internal/configuration.py, pip 20.x to 25.x):
//
//   - the files, in pip's order: global (XDG_CONFIG_DIRS or /etc/xdg, then /etc, each with
//     pip/pip.conf or pip.conf; %ProgramData%\pip\pip.ini on Windows; /Library/Application
//     Support/pip/pip.conf on macOS), user (~/.pip/pip.conf or ~\pip\pip.ini, then
//     $XDG_CONFIG_HOME/pip/pip.conf or ~/.config/pip/pip.conf, %APPDATA%\pip\pip.ini on Windows),
//     site (sys.prefix/pip.conf, pip.ini on Windows), and PIP_CONFIG_FILE (which, when it exists,
//     drops the user files, and when it is os.devnull drops every file);
//   - the PIP_* environment variables (":env:" in the list);
//   - later kinds beat earlier ones (global < user < site < PIP_CONFIG_FILE < PIP_*), a later file
//     of one kind beats an earlier one;
//   - each file read with configparser's rules (parse.go), names lower case with _ read as -.
//
// One difference: pip 23.0 to 23.1.0 also read sys.base_prefix/pip.conf (pip 23.1.1 dropped it).
package pipconf

import (
	"errors"
	"io/fs"
	"os"
	"os/user"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// FS reads the files pip would read.
type FS interface {
	ReadFile(path string) ([]byte, error)
	Stat(path string) (fs.FileInfo, error)
}

// OSFS is the machine's file system.
type OSFS struct{}

func (OSFS) ReadFile(p string) ([]byte, error)  { return os.ReadFile(p) }
func (OSFS) Stat(p string) (fs.FileInfo, error) { return os.Stat(p) }

// Source is what pip's configuration depends on.
type Source struct {
	// Prefix is the interpreter's sys.prefix (a venv's root): the site file's folder; "" none.
	Prefix string
	// Environ is the environment pip runs with ("KEY=value"; nil: this process's).
	Environ []string
	GOOS    string // "" runtime.GOOS
	FS      FS     // nil OSFS; a read through another FS is not cached
}

// Kinds of configuration, as pip names them (pip config debug).
const (
	KindGlobal = "global"
	KindUser   = "user"
	KindSite   = "site"
	KindEnv    = "env"     // the file PIP_CONFIG_FILE names
	KindEnvVar = "env-var" // a PIP_* variable
)

// overrideOrder is pip's OVERRIDE_ORDER: a later kind beats an earlier one.
var overrideOrder = []string{KindGlobal, KindUser, KindSite, KindEnv, KindEnvVar}

// EnvSection is the section `pip config list` gives the PIP_* variables.
const EnvSection = ":env:"

// File is one configuration file pip looks at.
type File struct {
	Kind   string
	Path   string
	Exists bool
}

// Setting is one name=value pip read, from a file's section or a PIP_* variable.
type Setting struct {
	Kind    string
	File    string // "" for a variable
	Var     string // the variable ("PIP_INDEX_URL"), "" for a file
	Section string // "global", "install", ":env:" for a variable
	Name    string // normalised: lower case, - for _ ("index-url")
	Value   string
}

// Key is the setting's name in `pip config list`: section.name.
func (s Setting) Key() string { return s.Section + "." + s.Name }

// Config is pip's configuration for one interpreter and environment.
type Config struct {
	Files []File // every file pip looks at, in the order pip reads them
	// Settings are every setting read, in override order: of two with one Key, the later wins.
	Settings []Setting
	// Err is a file pip cannot read as configuration (pip itself then fails on every command); the
	// settings of the other files are still here.
	Err error
}

// Items is what `pip config list` lists: each key (section.name) with the value that wins.
func (c Config) Items() map[string]string {
	out := map[string]string{}
	for _, s := range c.Settings {
		out[s.Key()] = s.Value
	}
	return out
}

// Winning is the setting that gives key its value, nil when none does.
func (c Config) Winning(key string) *Setting {
	for i := len(c.Settings) - 1; i >= 0; i-- {
		if c.Settings[i].Key() == key {
			return &c.Settings[i]
		}
	}
	return nil
}

// NormalizeName is pip's _normalize_name: lower case, _ read as -, a leading -- dropped.
func NormalizeName(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "_", "-")
	return strings.TrimPrefix(name, "--")
}

// ignoredVars are the PIP_* names pip's configuration skips (ENV_NAMES_IGNORED).
var ignoredVars = []string{"version", "help"}

// Read is pip's configuration for src. Reads through the machine's files are kept for the
// process's life per prefix and environment, and read again only when one of the files changed.
func Read(src Source) Config {
	if src.GOOS == "" {
		src.GOOS = runtime.GOOS
	}
	if src.Environ == nil {
		src.Environ = os.Environ()
	}
	env := environ(src.Environ, src.GOOS)
	if src.FS != nil {
		return read(src, env)
	}
	src.FS = OSFS{}
	key := cacheKey(src, env)
	cacheMu.Lock()
	e, ok := cache[key]
	cacheMu.Unlock()
	if ok && e.stamp.equal(stamp(src.FS, e.cfg.Files)) {
		return e.cfg
	}
	cfg := read(src, env)
	cacheMu.Lock()
	cache[key] = cached{cfg, stamp(src.FS, cfg.Files)}
	reads++
	cacheMu.Unlock()
	return cfg
}

var (
	cacheMu sync.Mutex
	cache   = map[string]cached{}
	reads   int // files parsed through the cache (tests)
)

type cached struct {
	cfg   Config
	stamp stamps
}

type fileStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

type stamps []fileStamp

func (a stamps) equal(b stamps) bool { return slices.Equal(a, b) }

func stamp(fsys FS, files []File) stamps {
	out := make(stamps, len(files))
	for i, f := range files {
		if fi, err := fsys.Stat(f.Path); err == nil {
			out[i] = fileStamp{true, fi.Size(), fi.ModTime()}
		}
	}
	return out
}

// cacheKey is what the configuration depends on besides the files' contents.
func cacheKey(src Source, env map[string]string) string {
	var b strings.Builder
	b.WriteString(src.GOOS + "\x00" + src.Prefix)
	keys := make([]string, 0, len(env))
	for k := range env {
		if strings.HasPrefix(k, "PIP_") || slices.Contains(pathVars, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString("\x00" + k + "=" + env[k])
	}
	return b.String()
}

// pathVars are the variables the files' paths come from.
var pathVars = []string{"HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "USERPROFILE", "HOMEDRIVE", "HOMEPATH", "APPDATA", "PROGRAMDATA"}

// environ is the environment as Python's os.environ holds it for a child started with env (the
// last of two equal names wins, as Go's os/exec passes it; names upper case on Windows).
func environ(env []string, goos string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" && goos != "windows" {
			continue
		}
		if goos == "windows" {
			k = strings.ToUpper(k)
		}
		out[k] = v
	}
	return out
}

func read(src Source, env map[string]string) Config {
	var c Config
	files, devnull := configFiles(src, env)
	c.Files = files
	perKind := map[string][]Setting{}
	if !devnull {
		for _, f := range files {
			if !f.Exists {
				continue
			}
			data, err := src.FS.ReadFile(f.Path)
			if err != nil {
				continue // configparser skips a file it cannot open
			}
			p, err := parse(data)
			if err != nil {
				c.Err = errors.Join(c.Err, &FileError{Path: f.Path, Err: err})
				continue
			}
			for _, s := range p.sections {
				for _, o := range p.items(s) {
					perKind[f.Kind] = append(perKind[f.Kind], Setting{Kind: f.Kind, File: f.Path, Section: s.name, Name: NormalizeName(o.name), Value: o.value})
				}
			}
		}
	}
	names := make([]string, 0, len(env))
	for k := range env {
		if strings.HasPrefix(k, "PIP_") {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		name := strings.ToLower(k[4:])
		if slices.Contains(ignoredVars, name) {
			continue
		}
		perKind[KindEnvVar] = append(perKind[KindEnvVar], Setting{Kind: KindEnvVar, Var: k, Section: EnvSection, Name: NormalizeName(name), Value: env[k]})
	}
	for _, k := range overrideOrder {
		c.Settings = append(c.Settings, perKind[k]...)
	}
	return c
}

// FileError is a configuration file pip cannot read (configparser's error).
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// DevNull is os.devnull on goos: PIP_CONFIG_FILE set to it drops every file.
func DevNull(goos string) string {
	if goos == "windows" {
		return "nul"
	}
	return "/dev/null"
}

// configFiles lists the files pip reads, in pip's order (iter_config_files), and whether
// PIP_CONFIG_FILE is os.devnull (no file is read at all).
func configFiles(src Source, env map[string]string) ([]File, bool) {
	goos := src.GOOS
	exists := func(p string) bool {
		if p == "" {
			return false
		}
		_, err := src.FS.Stat(p)
		return err == nil
	}
	var files []File
	add := func(kind string, paths ...string) {
		for _, p := range paths {
			files = append(files, File{Kind: kind, Path: p, Exists: exists(p)})
		}
	}
	envFile, hasEnvFile := env["PIP_CONFIG_FILE"]
	if hasEnvFile {
		add(KindEnv, envFile)
	}
	devnull := hasEnvFile && envFile == DevNull(goos)
	base := "pip.conf"
	if goos == "windows" {
		base = "pip.ini"
	}
	home := expandHome(env, goos)
	switch goos {
	case "windows":
		// pip asks Windows for these folders; the variables name the same ones
		if pd := env["PROGRAMDATA"]; pd != "" {
			add(KindGlobal, join(goos, pd, "pip", base))
		}
	case "darwin":
		add(KindGlobal, "/Library/Application Support/pip/"+base) //i18n:raw a path
	default:
		dirs := env["XDG_CONFIG_DIRS"]
		if strings.TrimSpace(dirs) == "" {
			dirs = "/etc/xdg"
		}
		for _, d := range strings.Split(dirs, ":") {
			add(KindGlobal, join(goos, expandUser(d, home), "pip", base))
		}
		add(KindGlobal, "/etc/"+base)
	}
	if !(envFile != "" && exists(envFile)) {
		legacy := join(goos, home, ".pip", base)
		var user string
		switch goos {
		case "windows":
			legacy = join(goos, home, "pip", base)
			if ad := env["APPDATA"]; ad != "" {
				user = join(goos, ad, "pip", base)
			}
		case "darwin":
			dir := join(goos, home, "Library/Application Support/pip") //i18n:raw a path
			if fi, err := src.FS.Stat(dir); err != nil || !fi.IsDir() {
				dir = join(goos, home, ".config/pip")
			}
			user = join(goos, dir, base)
		default:
			cfg := env["XDG_CONFIG_HOME"]
			if strings.TrimSpace(cfg) == "" {
				cfg = join(goos, home, ".config")
			}
			user = join(goos, cfg, "pip", base)
		}
		add(KindUser, legacy)
		if user != "" {
			add(KindUser, user)
		}
	}
	if src.Prefix != "" {
		add(KindSite, join(goos, src.Prefix, base))
	}
	// pip loads PIP_CONFIG_FILE's file first but ranks it after the site file: the order here is
	// the reading order; Read ranks by kind.
	return files, devnull
}

// expandHome is os.path.expanduser("~"): HOME (POSIX) or USERPROFILE, else HOMEDRIVE+HOMEPATH
// (Windows), else the account's home; "~" when none is known.
func expandHome(env map[string]string, goos string) string {
	if goos == "windows" {
		if h, ok := env["USERPROFILE"]; ok {
			return h
		}
		if hp, ok := env["HOMEPATH"]; ok {
			return join(goos, env["HOMEDRIVE"], hp)
		}
		return "~"
	}
	h, ok := env["HOME"]
	if !ok {
		u, err := user.Current()
		if err != nil {
			return "~"
		}
		h = u.HomeDir
	}
	if h = strings.TrimRight(h, "/"); h == "" {
		return "/"
	}
	return h
}

// expandUser is os.path.expanduser for a path that starts with ~ or ~/ (POSIX).
func expandUser(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return strings.TrimRight(home, "/") + p[1:]
	}
	return p
}

// join is os.path.join of two parts on goos: b absolute replaces a. On Windows the separator is
// \ unless a is written with / only (Windows reads both; a test on another system keeps its own).
func join(goos, a string, elems ...string) string {
	for _, b := range elems {
		a = join1(goos, a, b)
	}
	return a
}

func join1(goos, a, b string) string {
	if goos == "windows" {
		switch {
		case len(b) > 1 && b[1] == ':':
			return b
		case strings.HasPrefix(b, `\`) || strings.HasPrefix(b, "/"):
			if len(a) > 1 && a[1] == ':' {
				return a[:2] + b
			}
			return b
		case a == "" || strings.HasSuffix(a, `\`) || strings.HasSuffix(a, "/") || strings.HasSuffix(a, ":"):
			return a + b
		case strings.Contains(a, "/") && !strings.Contains(a, `\`):
			return a + "/" + b
		}
		return a + `\` + b
	}
	if strings.HasPrefix(b, "/") {
		return b
	}
	if a == "" || strings.HasSuffix(a, "/") {
		return a + b
	}
	return a + "/" + b
}

// Net is pip's network settings for gpuwiz's pip download and pip install steps.
type Net struct {
	Proxy, Cert, Timeout string // "" when not set
}

// Setting is the value pip's download and install steps take for option name: a PIP_* variable
// beats the files, a command's section ([install], then [download]) beats [global]; an empty value
// counts as none, as pip's option parser skips it.
func (c Config) Setting(name string) string {
	items := c.Items()
	for _, sect := range []string{EnvSection, "install", "download", "global"} {
		if v := items[sect+"."+name]; v != "" {
			return v
		}
	}
	return ""
}

// Net reads proxy, cert and timeout as the framework's pip steps take them (Setting).
func (c Config) Net() Net {
	return Net{Proxy: c.Setting("proxy"), Cert: c.Setting("cert"), Timeout: c.Setting("timeout")}
}

// NetOptions are pip's network options: what a pip run that reads no configuration file needs
// from the user's to reach the network as the user's own pip does.
var NetOptions = []string{"proxy", "cert", "client-cert", "timeout", "retries", "trusted-host"}

// EnvName is the PIP_* variable of pip's option name ("trusted-host": PIP_TRUSTED_HOST).
func EnvName(name string) string { return "PIP_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")) }

// NetEnviron is the user's network settings as PIP_* variables (NetOptions, by Setting), for a
// pip run with PIP_CONFIG_FILE set to the null device. A list value (trusted-host over several
// lines) becomes pip's space-separated variable form.
func (c Config) NetEnviron() []string {
	var out []string
	for _, name := range NetOptions {
		v := strings.TrimSpace(c.Setting(name))
		if name == "trusted-host" {
			v = strings.Join(strings.Fields(v), " ")
		}
		if v != "" {
			out = append(out, EnvName(name)+"="+v)
		}
	}
	return out
}
