package matrix

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"gpuwiz/steps/i18n"
)

//go:embed matrix.toml
var embeddedTOML []byte

var embedded struct {
	once sync.Once
	m    *Matrix
	err  error
}

// Embedded returns the matrix compiled into the binary, parsed once.
func Embedded() (*Matrix, error) {
	embedded.once.Do(func() { embedded.m, embedded.err = Parse(embeddedTOML, "matrix.toml") })
	return embedded.m, embedded.err
}

// LoadFile reads and validates a matrix file (the --matrix flag).
func LoadFile(path string) (*Matrix, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", i18n.T("matrix.file.cannot_read"), err)
	}
	return Parse(data, path)
}

// Parse decodes data strictly (unknown keys are errors) and validates it. name is the file name that
// every error message starts with, followed by the line: "matrix.toml:42: unknown key 'pythn'".
func Parse(data []byte, name string) (*Matrix, error) {
	m := &Matrix{}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return nil, decodeError(name, err)
	}
	m.Name = name
	if err := m.validate(&lazyLines{data: data}); err != nil {
		return nil, err
	}
	m.prepare()
	return m, nil
}

// decodeError turns go-toml's errors into one "file:line: message" error.
func decodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		key := strings.Join(e.Key(), ".")
		k, more := lastPart(key), len(strict.Errors)-1
		i := strings.LastIndex(key, ".")
		var msg string
		switch {
		case i < 0 && more == 0:
			msg = i18n.T("matrix.file.unknown_key", i18n.D{"Key": k})
		case i < 0:
			msg = i18n.N("matrix.file.unknown_keys", more, i18n.D{"Key": k})
		case more == 0:
			msg = i18n.T("matrix.file.unknown_key_in", i18n.D{"Key": k, "Table": key[:i]})
		default:
			msg = i18n.N("matrix.file.unknown_keys_in", more, i18n.D{"Key": k, "Table": key[:i]})
		}
		return &Error{File: name, Line: row, Msg: msg}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return &Error{File: name, Line: row, Msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return &Error{File: name, Msg: err.Error()}
}

func lastPart(key string) string {
	if i := strings.LastIndex(key, "."); i >= 0 {
		return key[i+1:]
	}
	return key
}

// Error is a problem in a matrix file, at a line when known.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// EmbeddedTOML is the matrix file compiled into the binary, as written (comments included).
func EmbeddedTOML() []byte { return slices.Clone(embeddedTOML) }
