package pyenv

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/runner"
)

// What `pip freeze --all` prints, read from the environment's *.dist-info folders in Go: pip's own
// steps (its importlib.metadata backend, pip/_internal/operations/freeze.py) restated for the cases
// where every byte of the answer is certain. Anything else is NotExact, and the caller runs pip.

// NotExact says why the Go reader cannot state pip's answer exactly (the caller runs pip then).
type NotExact struct{ Why string }

func (e *NotExact) Error() string { return "not read in Go: " + e.Why } //i18n:raw the log, for support

func notExact(format string, a ...any) error { return &NotExact{Why: fmt.Sprintf(format, a...)} }

// PathFacts is what the Go reader needs from the interpreter: the sys.path pip would search (the
// working folder's entry, which pip drops, left out), the Python version and whether pip there
// reads installed dists with importlib.metadata (pip's _should_use_importlib_metadata).
type PathFacts struct {
	Path        []string `json:"path"`
	Version     [2]int   `json:"version"`
	Importlib   bool     `json:"importlib"`
	EnvOverride bool     `json:"env_override"` // _PIP_USE_IMPORTLIB_METADATA is set: pip decides by it
}

//go:embed syspath.py
var sysPathScript string

// AskPathFacts starts python once (no pip, a few milliseconds) in env for PathFacts.
func AskPathFacts(ctx context.Context, r runner.Runner, python string, env []string) (PathFacts, error) {
	var out bytes.Buffer
	res := r.Run(ctx, runner.Cmd{Name: "sys.path", Argv: []string{python, "-c", sysPathScript}, Env: env, Stdout: &out}, nil) //i18n:raw the step's label in the log
	if res.Err != nil {
		return PathFacts{}, fmt.Errorf("%w: %s", res.Err, strings.Join(res.Tail, " "))
	}
	var f PathFacts
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		return PathFacts{}, err
	}
	return f, nil
}

// FreezeAll is `pip freeze --all` of the environment whose interpreter gave facts, read from its
// dist-info folders, or a *NotExact error saying why not.
func FreezeAll(facts PathFacts) ([]byte, error) {
	reqs, err := frozen(facts)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, r := range reqs {
		b.WriteString(r.line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// Freeze is `pip freeze` (without --all): pip leaves out itself, and on Python before 3.12 also
// setuptools, distribute and wheel.
func Freeze(facts PathFacts) ([]byte, error) {
	reqs, err := frozen(facts)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{"pip": true}
	if facts.Version[0] == 3 && facts.Version[1] < 12 {
		skip["setuptools"], skip["distribute"], skip["wheel"] = true, true, true
	}
	var b bytes.Buffer
	for _, r := range reqs {
		if !skip[r.canonical] {
			b.WriteString(r.line)
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}

type frozenReq struct{ name, canonical, line string }

// pip's valid project name (base.py's iter_all_distributions: an invalid one is ignored with a warning).
var validProject = regexp.MustCompile(`(?i)^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$`)

func frozen(facts PathFacts) ([]frozenReq, error) {
	if facts.EnvOverride {
		return nil, notExact("_PIP_USE_IMPORTLIB_METADATA is set") //i18n:raw why the Go reader left the freeze to pip, in the log
	}
	if !facts.Importlib {
		// pip's pkg_resources backend (Python before 3.11) spells names and versions its own way.
		return nil, notExact("pip reads this Python's dists with pkg_resources") //i18n:raw why the Go reader left the freeze to pip, in the log
	}
	seen := map[string]bool{}
	var out []frozenReq
	for _, loc := range facts.Path {
		st, err := os.Stat(loc)
		if err != nil {
			continue // pip finds nothing in a path that is not there
		}
		if !st.IsDir() {
			if isZip(loc) {
				return nil, notExact("%s is a zip on sys.path", loc) //i18n:raw why the Go reader left the freeze to pip, in the log
			}
			continue
		}
		entries, err := os.ReadDir(loc)
		if err != nil {
			return nil, notExact("%v", err)
		}
		for _, en := range entries {
			name := en.Name()
			low := strings.ToLower(name)
			switch {
			case strings.HasSuffix(low, ".egg-info"), strings.HasSuffix(low, ".egg"), strings.HasSuffix(low, ".egg-link"):
				return nil, notExact("%s: egg metadata", filepath.Join(loc, name)) //i18n:raw why the Go reader left the freeze to pip, in the log
			case !strings.HasSuffix(low, ".dist-info"):
				continue
			}
			if !strings.HasSuffix(name, ".dist-info") || !en.IsDir() {
				return nil, notExact("%s: unusual dist-info", filepath.Join(loc, name)) //i18n:raw why the Go reader left the freeze to pip, in the log
			}
			dir := filepath.Join(loc, name)
			if !validProject.MatchString(pep.Normalize(strings.SplitN(strings.TrimSuffix(name, ".dist-info"), "-", 2)[0])) {
				return nil, notExact("%s: a name pip ignores", dir) //i18n:raw why the Go reader left the freeze to pip, in the log
			}
			if _, err := os.Lstat(filepath.Join(dir, "direct_url.json")); err == nil {
				return nil, notExact("%s: direct_url.json", dir) // a URL or editable form: pip's own words
			}
			raw, version, err := metadataNameVersion(filepath.Join(dir, "METADATA"))
			if err != nil {
				return nil, notExact("%s: %v", dir, err)
			}
			c := pep.Normalize(raw)
			if seen[c] {
				return nil, notExact("two dists named %s", c) //i18n:raw why the Go reader left the freeze to pip, in the log
			}
			seen[c] = true
			out = append(out, frozenReq{name: raw, canonical: c, line: raw + "==" + version})
		}
	}
	// freeze.py: sorted(installations.values(), key=lambda x: x.name.lower()); names are ASCII here.
	slices.SortStableFunc(out, func(a, b frozenReq) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	return out, nil
}

func isZip(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	return n == 4 && string(head) == "PK\x03\x04"
}

var (
	asciiName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	// PEP 440's normal form, as packaging's str(Version) prints it: no 0! epoch, no leading zeros,
	// lower case, the short spellings (a, b, rc, .post, .dev).
	normalVersion = regexp.MustCompile(`^(?:[1-9][0-9]*!)?(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*` +
		`(?:(?:a|b|rc)(?:0|[1-9][0-9]*))?(?:\.post(?:0|[1-9][0-9]*))?(?:\.dev(?:0|[1-9][0-9]*))?` +
		`(?:\+(?:0|[1-9][0-9]*|[a-z0-9]*[a-z][a-z0-9]*)(?:\.(?:0|[1-9][0-9]*|[a-z0-9]*[a-z][a-z0-9]*))*)?$`)
)

// metadataNameVersion reads Name and Version from METADATA's header block as Python's email parser
// does (compat32: the first of each, leading blanks and the line end stripped), when both are plain:
// an ASCII name and a version already in PEP 440's normal form (what pip would print unchanged).
func metadataNameVersion(path string) (name, version string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	got := map[string]string{}
	var last string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			break // the body
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last == "name" || last == "version" {
				return "", "", errors.New("a folded Name or Version") //i18n:raw why the Go reader left the freeze to pip, in the log
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return "", "", errors.New("a header line without a colon") //i18n:raw why the Go reader left the freeze to pip, in the log
		}
		last = strings.ToLower(k)
		if last != "name" && last != "version" {
			continue
		}
		if _, dup := got[last]; !dup {
			got[last] = strings.TrimLeft(v, " \t")
		}
	}
	name, version = got["name"], got["version"]
	if !asciiName.MatchString(name) || !validProject.MatchString(name) {
		return "", "", fmt.Errorf("Name %q", name)
	}
	if !normalVersion.MatchString(version) {
		return "", "", fmt.Errorf("Version %q is not in its normal form", version) //i18n:raw why the Go reader left the freeze to pip, in the log
	}
	return name, version, nil
}
