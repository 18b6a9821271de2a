package jsonfile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name string `json:"name"`
	Skip string `json:"-"`
}

type Base struct {
	Kind string `json:"kind"`
}

type doc struct {
	Base
	Available bool             `json:"available"`
	Items     []inner          `json:"items"`
	ByName    map[string]inner `json:"by_name"`
	Ptr       *inner           `json:"ptr"`
	Raw       json.RawMessage  `json:"raw"`
	Plain     int
}

func TestDecodeNamesEveryUnknownField(t *testing.T) {
	data := `{"kind":"k","available":true,"extra":1,"PLAIN":3,"Skip":"x",
		"items":[{"name":"a"},{"name":"b","colour":"red"}],
		"by_name":{"x":{"name":"x","size":2}},
		"ptr":{"name":"p","deep":{"a":1}},
		"raw":{"anything":true}}`
	var d doc
	unknown, err := Decode([]byte(data), &d)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Skip", "by_name.x.size", "extra", "items[1].colour", "ptr.deep"}
	if !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown = %q, want %q", unknown, want)
	}
	if d.Kind != "k" || !d.Available || d.Plain != 3 || len(d.Items) != 2 || d.Ptr.Name != "p" {
		t.Errorf("known fields not read: %+v", d)
	}
	w := Warning("rig.json", unknown)
	if !strings.HasPrefix(w, "rig.json: ignoring fields this gpuwiz does not know") || !strings.Contains(w, `"items[1].colour"`) {
		t.Errorf("warning %q", w)
	}
	if Warning("rig.json", nil) != "" {
		t.Error("a warning with nothing unknown")
	}
}

func TestDecodeStillRefusesWrongTypes(t *testing.T) {
	var d doc
	if _, err := Decode([]byte(`{"available":"yes"}`), &d); err == nil || !strings.Contains(err.Error(), "available") {
		t.Errorf("a string for a bool: err = %v", err)
	}
	if _, err := Decode([]byte(`{"items":[{"name":3}]}`), &d); err == nil {
		t.Error("a number for a string passed")
	}
	if _, err := Decode([]byte(`not json`), &d); err == nil {
		t.Error("not JSON passed")
	}
}
