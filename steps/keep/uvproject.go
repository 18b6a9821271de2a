package keep

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/i18n"
)

// UVProject is what a uv project's pyproject.toml needs so that uv keeps an environment's GPU
// build: uv reads neither pip's configuration nor its constraints, only its own settings. As
// PyTorch's guide for uv does it: the framework's dists come from the channel's index only
// ([[tool.uv.index]] with explicit = true, and [tool.uv.sources]), and [tool.uv]
// constraint-dependencies hold the build's exact pins.
type UVProject struct {
	Path  string   `json:"path"`  // the pyproject.toml
	Pins  []string `json:"pins"`  // "torch==2.8.0+cu128"
	Index string   `json:"index"` // the index's name in the project: "pytorch-cu128"
	URL   string   `json:"url"`   // the channel's index
	Dists []string `json:"dists"` // the dists taken from it: torch, torchvision, torchaudio
}

// ErrUVProjectByHand is an edit gpuwiz does not make itself: the project already says something
// else for these settings, or says it in a shape a line-wise edit cannot keep exact.
var ErrUVProjectByHand = errors.New("pyproject.toml needs a change by hand") //i18n:raw errors.Is target; the message shown is keep.uv.by_hand

// Write edits the project file in place (every line the user wrote stays as it was; new lines go
// after a table's header or at the end) and checks the result reads back as those settings before
// it replaces the file. Nothing is written when the file already holds them.
func (u UVProject) Write() error {
	b, err := os.ReadFile(u.Path)
	if err != nil {
		return err
	}
	st, err := os.Stat(u.Path)
	if err != nil {
		return err
	}
	out, changed, err := u.Edit(string(b))
	if err != nil || !changed {
		return err
	}
	return atomicfile.Write(u.Path, []byte(out), st.Mode().Perm())
}

var (
	headerUV      = regexp.MustCompile(`^\s*\[\s*tool\s*\.\s*uv\s*\]\s*(#.*)?$`)
	headerSources = regexp.MustCompile(`^\s*\[\s*tool\s*\.\s*uv\s*\.\s*sources\s*\]\s*(#.*)?$`)
)

// Edit is Write's change to the file's text: the new text, and whether it differs.
func (u UVProject) Edit(text string) (string, bool, error) {
	var doc map[string]any
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		return "", false, fmt.Errorf("%w: %s: %v", ErrUVProjectByHand, u.Path, err)
	}
	uv := table(table(doc, "tool"), "uv")
	needConstraints, needIndex := true, true
	var needSources []string
	if have, ok := uv["constraint-dependencies"]; ok {
		if !holdsAll(have, u.Pins) {
			return "", false, u.byHand("constraint-dependencies")
		}
		needConstraints = false
	}
	if idx, ok := uv["index"].([]any); ok {
		for _, e := range idx {
			if m, ok := e.(map[string]any); ok && m["name"] == u.Index {
				if m["url"] != u.URL {
					return "", false, u.byHand("index " + u.Index)
				}
				needIndex = false
			}
		}
	} else if _, ok := uv["index"]; ok {
		return "", false, u.byHand("index")
	}
	sources := table(uv, "sources")
	for _, d := range u.Dists {
		s, ok := sources[d]
		if !ok {
			needSources = append(needSources, d)
			continue
		}
		if m, ok := s.(map[string]any); !ok || m["index"] != u.Index {
			return "", false, u.byHand("sources." + d)
		}
	}
	if !needConstraints && !needIndex && len(needSources) == 0 {
		return text, false, nil
	}
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.Split(text, "\n")
	insertAfter := func(re *regexp.Regexp, add []string) bool {
		for i, l := range lines {
			if re.MatchString(strings.TrimSuffix(l, "\r")) {
				for j := range add {
					add[j] += strings.TrimPrefix(nl, "\n")
				}
				lines = slices.Insert(lines, i+1, add...)
				return true
			}
		}
		return false
	}
	var tail []string
	quoted := make([]string, len(u.Pins))
	for i, p := range u.Pins {
		quoted[i] = strconv.Quote(p)
	}
	if needConstraints {
		line := "constraint-dependencies = [" + strings.Join(quoted, ", ") + "]"
		if !insertAfter(headerUV, []string{line}) {
			tail = append(tail, "", "[tool.uv]", line)
		}
	}
	if needIndex {
		tail = append(tail, "", "[[tool.uv.index]]", "name = "+strconv.Quote(u.Index), "url = "+strconv.Quote(u.URL), "explicit = true")
	}
	if len(needSources) > 0 {
		var add []string
		for _, d := range needSources {
			add = append(add, d+" = { index = "+strconv.Quote(u.Index)+" }")
		}
		if !insertAfter(headerSources, add) {
			tail = append(append(tail, "", "[tool.uv.sources]"), add...)
		}
	}
	out := strings.Join(lines, "\n")
	if len(tail) > 0 {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += nl
		}
		if strings.TrimSpace(out) != "" {
			out += nl
		}
		block := append([]string{"# " + i18n.T("keep.uv.comment")}, tail[1:]...) // tail[0] is the blank line before a block
		out += strings.Join(block, nl) + nl
	}
	// The edit must read back as exactly these settings, or nothing is written.
	var after map[string]any
	if err := toml.Unmarshal([]byte(out), &after); err != nil {
		return "", false, fmt.Errorf("%w: %s: %v", ErrUVProjectByHand, u.Path, err)
	}
	auv := table(table(after, "tool"), "uv")
	if !holdsAll(auv["constraint-dependencies"], u.Pins) {
		return "", false, u.byHand("constraint-dependencies")
	}
	for _, d := range u.Dists {
		if m, ok := table(auv, "sources")[d].(map[string]any); !ok || m["index"] != u.Index {
			return "", false, u.byHand("sources." + d)
		}
	}
	return out, true, nil
}

func (u UVProject) byHand(key string) error {
	return fmt.Errorf("%w: %s: [tool.uv] %s", ErrUVProjectByHand, u.Path, key)
}

func table(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	t, _ := m[key].(map[string]any)
	return t
}

func holdsAll(v any, pins []string) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, p := range pins {
		if !slices.Contains(list, any(p)) {
			return false
		}
	}
	return true
}

// UVLines are the settings in the project's own words, for the user to add by hand.
func (u UVProject) UVLines() string {
	quoted := make([]string, len(u.Pins))
	for i, p := range u.Pins {
		quoted[i] = strconv.Quote(p)
	}
	s := "[tool.uv]\nconstraint-dependencies = [" + strings.Join(quoted, ", ") + "]\n\n[[tool.uv.index]]\nname = " + strconv.Quote(u.Index) +
		"\nurl = " + strconv.Quote(u.URL) + "\nexplicit = true\n\n[tool.uv.sources]\n"
	for _, d := range u.Dists {
		s += d + " = { index = " + strconv.Quote(u.Index) + " }\n"
	}
	return s
}
