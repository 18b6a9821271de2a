package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2/unstable"
)

// catalog is one language's messages, read as they are needed. A message "P.rest" lives in
// locales/P.<lang>.toml or locales/P-*.<lang>.toml (TestEveryMessageIsInItsFile keeps it so), so
// the first message with the word P reads those files only. Each message becomes a go-i18n template
// the first time it is asked for; go-i18n parses it once and fills its placeholders.
//
// Reading a file is go-toml's parser walking its key/value pairs. go-i18n's own loader (the TOML
// decoded into maps, then into messages, then a template for every message of every file) was the
// larger part of a `gpuwiz gpu --json`'s start-up, for a catalog it used a tenth of (docs/benchmarks.md).
type catalog struct {
	lang Lang

	mu        sync.Mutex
	files     []string                   // this language's files, sorted
	read      map[string]bool            // files already read
	raw       map[string]*goi18n.Message // id → forms, from the files read so far
	templates map[string]*goi18n.MessageTemplate
	err       error // the catalog is broken (a file does not parse)
}

func newCatalog(l Lang) *catalog { return &catalog{lang: l} }

// template is message id's template, nil for an id no file has. The lock is not held while a
// template runs: a value it prints may be an error whose words come from the catalog too.
func (c *catalog) template(id string) *goi18n.MessageTemplate {
	c.mu.Lock()
	defer c.mu.Unlock()
	if mt, ok := c.templates[id]; ok {
		return mt
	}
	if c.read == nil {
		c.read, c.raw, c.templates = map[string]bool{}, map[string]*goi18n.Message{}, map[string]*goi18n.MessageTemplate{}
		c.files, c.err = fs.Glob(locales, "locales/*."+string(c.lang)+".toml")
	}
	if _, ok := c.raw[id]; !ok {
		word, _, _ := strings.Cut(id, ".")
		c.readFiles(func(f string) bool {
			base := path.Base(f)
			return strings.HasPrefix(base, word+".") || strings.HasPrefix(base, word+"-")
		})
		if _, ok := c.raw[id]; !ok {
			c.readFiles(func(string) bool { return true }) // not where it should be: look everywhere
		}
	}
	if c.err != nil {
		panic("i18n: the catalog does not load: " + c.err.Error()) //i18n:raw a broken build, for its developers (the catalog tests catch it first)
	}
	var mt *goi18n.MessageTemplate
	if m, ok := c.raw[id]; ok {
		mt = goi18n.NewMessageTemplate(m) // nil for a message without text
	}
	c.templates[id] = mt
	return mt
}

// localize is message id with data; count (an int, or nil) picks the plural form: English has "one"
// for exactly 1 and "other" for any other count (CLDR), Chinese has "other" only. A form a message
// lacks falls back to "other", as go-i18n's Localize does.
func (c *catalog) localize(id string, count any, data map[string]any) (string, error) {
	mt := c.template(id)
	if mt == nil {
		return "", fmt.Errorf("no message %q in %s", id, c.lang) //i18n:raw for developers; the caller shows [id]
	}
	if n, ok := count.(int); ok && n == 1 && c.lang == English {
		if s, err := mt.Execute("one", data, nil); err == nil {
			return s, nil
		}
	}
	return mt.Execute("other", data, nil)
}

func (c *catalog) readFiles(want func(string) bool) {
	for _, f := range c.files {
		if c.err != nil || c.read[f] || !want(f) {
			continue
		}
		c.read[f] = true
		b, err := locales.ReadFile(f)
		if err == nil {
			err = parseMessages(b, func(m *goi18n.Message) {
				if _, dup := c.raw[m.ID]; !dup {
					c.raw[m.ID] = m
				}
			})
		}
		if err != nil {
			c.err = fmt.Errorf("%s: %w", path.Base(f), err)
		}
	}
}

// parseMessages reads a message file: each line is "id" = "text", or "id" = { one = "…", other = "…" }
// for a message with plural forms (go-i18n's TOML layout, which Catalog reads with go-i18n itself).
func parseMessages(b []byte, add func(*goi18n.Message)) error {
	var p unstable.Parser
	p.Reset(b)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.KeyValue {
			return fmt.Errorf("line %d: only \"id\" = … lines are messages", p.Shape(e.Raw).Start.Line) //i18n:raw for developers
		}
		m := &goi18n.Message{ID: keyOf(e)}
		v := e.Value()
		switch v.Kind {
		case unstable.String:
			m.Other = string(v.Data)
		case unstable.InlineTable:
			forms := map[string]*string{"zero": &m.Zero, "one": &m.One, "two": &m.Two, "few": &m.Few, "many": &m.Many, "other": &m.Other}
			for it := v.Children(); it.Next(); {
				kv := it.Node()
				form, text := keyOf(kv), kv.Value()
				if text.Kind != unstable.String {
					return fmt.Errorf("%s.%s is not a string", m.ID, form) //i18n:raw for developers
				}
				field, ok := forms[form]
				if !ok {
					return fmt.Errorf("%s: %q is no plural form", m.ID, form) //i18n:raw for developers
				}
				*field = string(text.Data)
			}
		default:
			return fmt.Errorf("%s is neither a string nor a table of plural forms", m.ID) //i18n:raw for developers
		}
		add(m)
	}
	return p.Error()
}

// keyOf is a key/value's key; a dotted key's parts joined by "." as go-i18n joins nested tables.
func keyOf(kv *unstable.Node) string {
	var parts []string
	for it := kv.Key(); it.Next(); {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}
