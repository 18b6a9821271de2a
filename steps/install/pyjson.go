package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"unicode/utf16"
)

// pythonJSON is the JSON value raw as Python's json.dumps(value, sort_keys=True) writes it (what
// pip writes to direct_url.json from the same dict its report holds): keys sorted, ", " and ": "
// between items, every character past ASCII escaped. nil when raw is not JSON.
func pythonJSON(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil
	}
	var b bytes.Buffer
	writePythonJSON(&b, v)
	return b.Bytes()
}

func writePythonJSON(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v)) // Python sorts str keys by code point; Go's string order is the same for valid UTF-8
		writePythonItems(b, '{', '}', len(keys), func(i int) {
			writePythonString(b, keys[i])
			b.WriteString(": ")
			writePythonJSON(b, v[keys[i]])
		})
	case []any:
		writePythonItems(b, '[', ']', len(v), func(i int) { writePythonJSON(b, v[i]) })
	case string:
		writePythonString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	}
}

// writePythonItems writes n items (item writes the i-th) between the brackets left and right,
// ", " between them, as json.dumps does for an object and a list.
func writePythonItems(b *bytes.Buffer, left, right byte, n int, item func(i int)) {
	b.WriteByte(left)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		item(i)
	}
	b.WriteByte(right)
}

// writePythonString is json.dumps's ensure_ascii string.
func writePythonString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7e && r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		case r >= 0x10000:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
