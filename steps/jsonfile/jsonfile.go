// Package jsonfile reads JSON files that another gpuwiz version may have written: fields this
// version does not know are ignored and named, so the caller can warn once; a wrong type is still an
// error.
package jsonfile

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"gpuwiz/steps/i18n"
)

// Decode unmarshals data into v (a pointer) as encoding/json does, and returns the paths of the
// object keys that v's type has no field for, sorted: "gpu_count", "gpus[0].fan_speed".
func Decode(data []byte, v any) (unknown []string, err error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	walk(doc, reflect.TypeOf(v), "", &unknown)
	sort.Strings(unknown)
	return unknown, nil
}

// Warning is the one line that names the ignored fields of file ("" when there are none).
func Warning(file string, unknown []string) string {
	if len(unknown) == 0 {
		return ""
	}
	q := make([]string, len(unknown))
	for i, u := range unknown {
		q[i] = fmt.Sprintf("%q", u)
	}
	if len(unknown) > 1 {
		return i18n.T("venvs.jsonfile.ignored_fields", i18n.D{"File": file, "Fields": i18n.Join(q)})
	}
	return i18n.T("venvs.jsonfile.ignored_field", i18n.D{"File": file, "Field": q[0]})
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func walk(val any, t reflect.Type, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		if t.Implements(unmarshaler) {
			return
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return // the type reads itself: json.RawMessage, a custom format
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := val.(map[string]any)
		if !ok {
			return
		}
		fields := map[string]reflect.Type{}
		collectFields(t, fields)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				for name, typ := range fields { // encoding/json matches names case-insensitively
					if strings.EqualFold(name, k) {
						ft, ok = typ, true
						break
					}
				}
			}
			if !ok {
				*out = append(*out, path+k)
				continue
			}
			walk(obj[k], ft, path+k+".", out)
		}
	case reflect.Slice, reflect.Array:
		list, ok := val.([]any)
		if !ok {
			return
		}
		base := strings.TrimSuffix(path, ".")
		for i, e := range list {
			walk(e, t.Elem(), fmt.Sprintf("%s[%d].", base, i), out)
		}
	case reflect.Map:
		obj, ok := val.(map[string]any)
		if !ok {
			return
		}
		for k, e := range obj {
			walk(e, t.Elem(), path+k+".", out)
		}
	}
}

// collectFields maps the JSON names of t's fields to their types, with embedded structs' fields
// promoted as encoding/json does.
func collectFields(t reflect.Type, into map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				collectFields(ft, into)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = f.Type
	}
}
