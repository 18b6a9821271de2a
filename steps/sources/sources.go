// Package sources lists where a framework build's packages can come from (the channel's official
// index, known public mirrors, a URL the user types) and probes them all at once: does each answer,
// does it carry this exact build, how long did it take. It proposes the fastest one that has it.
package sources

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// Kinds of candidate: how a source is used by the install.
const (
	KindOfficial = "official" // the channel's own index (the matrix's index_url): the whole family
	KindIndex    = "index"    // a PEP 503 mirror of the channel: the whole family
	KindFlat     = "flat"     // a flat page of the framework's wheels (pip --find-links) + a PyPI-style index for the rest
	KindDeps     = "deps"     // the framework from the official index, its dependencies from a PyPI mirror
	KindCustom   = "custom"   // a URL the user typed: the probe finds out whether it is an index or a flat page
)

// Entry is one [[source]] of the list.
type Entry struct {
	ID         string   `toml:"id"`
	Name       string   `toml:"name"`
	Frameworks []string `toml:"frameworks"`
	Layout     string   `toml:"layout"`     // "index", "flat" or "deps"
	URL        string   `toml:"url"`        // may hold {channel}
	DepsIndex  string   `toml:"deps_index"` // flat only: where the dependencies come from
	Seen       string   `toml:"seen"`
	Note       string   `toml:"note"`
	NameZh     string   `toml:"name_zh"` // name in Simplified Chinese ("" none: name is shown)
	NoteZh     string   `toml:"note_zh"` // note in Simplified Chinese ("" none: note is shown)
}

// LocalName is the entry's name in the current language (the English name when it has no Chinese one).
func (e Entry) LocalName() string { return i18n.Local(e.Name, e.NameZh) }

// LocalNote is the entry's note in the current language (the English note when it has no Chinese one).
func (e Entry) LocalNote() string { return i18n.Local(e.Note, e.NoteZh) }

// List is the decoded sources file.
type List struct {
	Name    string  `toml:"-"`
	Schema  int     `toml:"schema"`
	Sources []Entry `toml:"source"`
}

// Candidate is one place the packages of a build can come from, resolved for a channel.
type Candidate struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// IndexURL is the PEP 503 index the framework's wheels come from (official, index and deps
	// kinds; for a custom URL once the probe found it to be an index).
	IndexURL string `json:"index_url,omitempty"`
	// FindLinks is the flat page of the framework's wheels (flat kind).
	FindLinks string `json:"find_links,omitempty"`
	// Mirror is the PyPI-style index the dependencies come from (flat and deps kinds).
	Mirror string `json:"mirror,omitempty"`
	// URL is what the user typed (custom kind).
	URL  string `json:"url,omitempty"`
	Seen string `json:"seen,omitempty"`
	Note string `json:"note,omitempty"`
}

// Where is the candidate's URLs in one line, credentials redacted.
func (c Candidate) Where() string {
	var parts []string
	switch {
	case c.Kind == KindCustom && c.IndexURL == "" && c.FindLinks == "":
		parts = append(parts, c.URL)
	case c.FindLinks != "":
		parts = append(parts, i18n.T("sources.where.wheels", i18n.D{"URL": urls.Redact(c.FindLinks)}))
	case c.IndexURL != "":
		parts = append(parts, c.IndexURL)
	}
	if c.Mirror != "" {
		parts = append(parts, i18n.T("sources.where.deps", i18n.D{"URL": urls.Redact(c.Mirror)}))
	}
	return urls.Redact(strings.Join(parts, " + "))
}

//go:embed sources.toml
var embeddedTOML []byte

// Embedded is the list compiled into the binary.
func Embedded() (*List, error) { return Parse(embeddedTOML, "sources.toml") }

// LoadFile reads a sources file (the --sources flag); "" means the embedded list.
func LoadFile(path string) (*List, error) {
	if path == "" {
		return Embedded()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", i18n.T("sources.file.cannot_read"), err)
	}
	return Parse(data, path)
}

// Parse decodes data strictly (an unknown key is an error) and checks every entry.
func Parse(data []byte, name string) (*List, error) {
	l := &List{}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(l); err != nil {
		return nil, decodeError(name, err)
	}
	l.Name = name
	if l.Schema != 1 {
		return nil, fmt.Errorf("%s: %s", name, i18n.T("sources.file.schema", i18n.D{"Schema": l.Schema}))
	}
	seen := map[string]bool{}
	for i, e := range l.Sources {
		where := i18n.T("sources.file.entry", i18n.D{"File": name, "N": i + 1})
		if e.ID != "" {
			where = i18n.T("sources.file.entry_id", i18n.D{"File": name, "N": i + 1, "ID": e.ID})
		}
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if seen[e.ID] {
			return nil, fmt.Errorf("%s: %s", where, i18n.T("sources.file.duplicate_id", i18n.D{"ID": e.ID}))
		}
		seen[e.ID] = true
	}
	return l, nil
}

func decodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		return fmt.Errorf("%s:%d: %s", name, row, i18n.T("sources.file.unknown_key", i18n.D{"Key": strings.Join(e.Key(), ".")}))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return fmt.Errorf("%s:%d: %s", name, row, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return fmt.Errorf("%s: %v", name, err)
}

func (e Entry) check() error {
	switch {
	case e.ID == "":
		return errors.New(i18n.T("sources.check.no_id"))
	case strings.TrimSpace(e.Name) == "":
		return errors.New(i18n.T("sources.check.no_name"))
	case len(e.Frameworks) == 0:
		return errors.New(i18n.T("sources.check.no_frameworks"))
	}
	for _, f := range e.Frameworks {
		if f != "torch" && f != "paddle" {
			return errors.New(i18n.T("sources.check.framework", i18n.D{"Framework": f}))
		}
	}
	switch e.Layout {
	case KindIndex:
	case KindFlat:
		if e.DepsIndex == "" {
			return errors.New(i18n.T("sources.check.flat_needs_deps"))
		}
	case KindDeps:
		for _, f := range e.Frameworks {
			if f != "paddle" {
				return errors.New(i18n.T("sources.check.deps_paddle_only"))
			}
		}
	default:
		return errors.New(i18n.T("sources.check.layout", i18n.D{"Layout": e.Layout}))
	}
	if e.Layout != KindFlat && e.DepsIndex != "" {
		return errors.New(i18n.T("sources.check.deps_index_flat_only"))
	}
	if err := checkTemplate(e.URL); err != nil {
		return fmt.Errorf("url: %w", err)
	}
	if e.DepsIndex != "" {
		if err := checkTemplate(e.DepsIndex); err != nil {
			return fmt.Errorf("deps_index: %w", err)
		}
	}
	return nil
}

func checkTemplate(s string) error {
	rest := strings.ReplaceAll(s, "{channel}", "cu126")
	if strings.ContainsAny(rest, "{}") {
		return errors.New(i18n.T("sources.check.placeholder", i18n.D{"URL": urls.Redact(s)}))
	}
	_, err := urls.Check(rest)
	return err
}

// For is the candidates for a build of framework on channel: the official index first, then every
// entry of the list that serves that framework, in the list's order.
func (l *List) For(framework, channel, officialIndex string) []Candidate {
	name := i18n.T("sources.name.official", i18n.D{"Channel": channel})
	if urls.OnLoopback(officialIndex) { // a matrix pointing at this computer: named as what it is
		name = i18n.T("sources.name.loopback", i18n.D{"Channel": channel})
	}
	out := []Candidate{{ID: "official", Name: name, Kind: KindOfficial, IndexURL: officialIndex,
		Seen: i18n.T("sources.seen.matrix")}}
	for _, e := range l.Sources {
		if !contains(e.Frameworks, framework) {
			continue
		}
		u := strings.ReplaceAll(e.URL, "{channel}", channel)
		c := Candidate{ID: e.ID, Name: e.LocalName(), Kind: e.Layout, Seen: e.Seen, Note: e.LocalNote()}
		switch e.Layout {
		case KindIndex:
			c.IndexURL = u
		case KindFlat:
			c.FindLinks, c.Mirror = u, strings.ReplaceAll(e.DepsIndex, "{channel}", channel)
		case KindDeps:
			c.IndexURL, c.Mirror = officialIndex, u
		}
		out = append(out, c)
	}
	return out
}

// Custom is the candidate for a URL the user typed.
func Custom(u string) (Candidate, error) {
	u = strings.TrimSpace(u)
	if _, err := urls.Check(u); err != nil {
		return Candidate{}, err
	}
	return Candidate{ID: "custom", Name: i18n.T("sources.name.custom"), Kind: KindCustom, URL: u}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
