// Package i18n is gpuwiz's one catalog of user-facing text, in English and Simplified Chinese.
//
// Every sentence a user reads (wizard screens, CLI messages and --help, doctor findings, verdicts,
// plan steps, errors and hints) is a message in locales/*.en.toml and locales/*.zh-CN.toml, looked up
// by id with T (or N for a count) in the current language. Messages are go-i18n templates:
// {{.Name}} takes a value from D, and N's count is {{.Count}}. Machine-readable output (JSON keys,
// finding codes, exit codes) never goes through here.
//
// The package imports nothing of gpuwiz, so matrix/ (pure), steps/ and ui/ can all use it.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync/atomic"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2"
)

// Lang is a language gpuwiz speaks.
type Lang string

const (
	English Lang = "en"
	Chinese Lang = "zh-CN" // Simplified Chinese
)

// Langs are the languages every message has, English first (the fallback).
var Langs = []Lang{English, Chinese}

// D is the data a message's placeholders take: D{"Driver": "560.94"} fills {{.Driver}}.
type D map[string]any

//go:embed locales/*.toml
var locales embed.FS

var current atomic.Value // Lang

// langCatalogs are the languages' message files. A language's files are read on the first message
// asked of it, and then only the files its id's first word names (see catalog.lookup): a run in English
// never reads the Chinese files, and `gpuwiz gpu --json` reads the cli and gpu files, not the wizard's.
var langCatalogs = map[Lang]*catalog{English: newCatalog(English), Chinese: newCatalog(Chinese)}

func init() { current.Store(English) }

// Set makes l the language of every message from now on.
func Set(l Lang) { current.Store(l) }

// Current is the language messages are in now.
func Current() Lang { return current.Load().(Lang) }

// IsChinese says whether messages are in Chinese now (for the few layouts that differ).
func IsChinese() bool { return Current() == Chinese }

// Local is text a data file gives in English and, where it has one, in Simplified Chinese (a
// matrix row's note, a source's name): zh in Chinese when there is one, else en.
func Local(en, zh string) string {
	if zh != "" && IsChinese() {
		return zh
	}
	return en
}

// Words names the values of one kind (a step, a severity, a kind of environment) in the current
// language: each value's catalog call, made when the value is said, so that the words follow a
// change of language. One table holds every value's words; Say looks one up.
type Words[K comparable] map[K]func() string

// Say is v's words; other when the table does not name v.
func (w Words[K]) Say(v K, other string) string {
	if say, ok := w[v]; ok {
		return say()
	}
	return other
}

// Said is text as a line gpuwiz itself prints among other programs' lines: "gpuwiz: text", with
// the interface language's colon.
func Said(text any) string { return T("lang.said", D{"Text": fmt.Sprint(text)}) }

// T is message id in the current language, its placeholders filled from data (at most one D).
func T(id string, data ...D) string { return In(Current(), id, data...) }

// N is message id for a count: its "one"/"other" forms are chosen by n, which fills {{.Count}}.
func N(id string, n int, data ...D) string { return NIn(Current(), id, n, data...) }

// In is T in language l.
func In(l Lang, id string, data ...D) string { return localize(l, id, nil, data) }

// NIn is N in language l.
func NIn(l Lang, id string, n int, data ...D) string { return localize(l, id, n, data) }

func localize(l Lang, id string, count any, data []D) string {
	c := langCatalogs[l]
	if c == nil {
		c = langCatalogs[English]
	}
	var td D
	if len(data) > 0 || count != nil {
		td = D{}
		for _, d := range data {
			for k, v := range d {
				td[k] = v
			}
		}
		if count != nil {
			td["Count"] = count
		}
	}
	var m map[string]any
	if td != nil {
		m = map[string]any(td)
	}
	s, err := c.localize(id, count, m)
	if err != nil {
		// A missing message is a bug the catalog tests catch; the user still gets the id, not a panic.
		return "[" + id + "]"
	}
	return s
}

// Message is one catalog entry in one language: its plural forms ("other" always, "one" for counts).
type Message struct {
	ID    string
	Forms map[string]string
}

// Catalog lists every message of language l as the message files hold it, sorted by id; an error
// names the file that does not parse. The catalog tests use it.
func Catalog(l Lang) ([]Message, error) {
	files, err := fs.Glob(locales, "locales/*."+string(l)+".toml")
	if err != nil {
		return nil, err
	}
	var out []Message
	seen := map[string]string{}
	for _, f := range files {
		b, err := locales.ReadFile(f)
		if err != nil {
			return nil, err
		}
		mf, err := goi18n.ParseMessageFileBytes(b, f, map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Base(f), err)
		}
		for _, m := range mf.Messages {
			if other, dup := seen[m.ID]; dup {
				return nil, fmt.Errorf("%s and %s both define %q", path.Base(other), path.Base(f), m.ID) //i18n:raw for developers
			}
			seen[m.ID] = f
			forms := map[string]string{}
			for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
				if v != "" {
					forms[k] = v
				}
			}
			out = append(out, Message{ID: m.ID, Forms: forms})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Join puts parts together the way the current language lists things: "a, b" or "a、b".
func Join(parts []string) string { return JoinIn(Current(), parts) }

// JoinClauses puts clauses (reasons, errors, what was tried) in one line the current language's
// way: "a; b" in English, "a；b" in Chinese, where a part that already ends a sentence ("。")
// needs no separator.
func JoinClauses(parts []string) string {
	if Current() != Chinese {
		return strings.Join(parts, "; ")
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && !strings.HasSuffix(parts[i-1], "。") {
			b.WriteString("；")
		}
		b.WriteString(p)
	}
	return b.String()
}

// JoinIn is Join in language l.
func JoinIn(l Lang, parts []string) string {
	if l == Chinese {
		return strings.Join(parts, "、")
	}
	return strings.Join(parts, ", ")
}
