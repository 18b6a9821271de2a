package dllver

// Dir is a folder the Windows loader searches, with where it comes from ("framework", "python",
// "System32", "PATH").
type Dir struct{ Path, From string }

// Copy is one file of the name searched for, with its file version.
type Copy struct {
	Path    string `json:"path"`
	Version string `json:"version,omitempty"` // "14.36.32532.0"; "" when unreadable
	From    string `json:"from"`
	Loads   bool   `json:"loads"` // the first found: the copy the loader takes
	Error   string `json:"error,omitempty"`
}

// FindCopies looks for name in dirs, in the loader's order, reading each copy's version; the first
// found is the one that loads. join builds a path the way the target system does; read reads a file.
func FindCopies(name string, dirs []Dir, join func(dir, name string) string, read func(string) ([]byte, error)) []Copy {
	var out []Copy
	seen := map[string]bool{}
	for _, d := range dirs {
		key := fold(d.Path)
		if d.Path == "" || seen[key] {
			continue
		}
		seen[key] = true
		p := join(d.Path, name)
		data, err := read(p)
		if err != nil {
			continue
		}
		c := Copy{Path: p, From: d.From, Loads: len(out) == 0}
		if v, err := Read(data); err == nil {
			c.Version = v.String()
		} else {
			c.Error = err.Error()
		}
		out = append(out, c)
	}
	return out
}

// fold is a Windows path compared without case or trailing separators, / and \ alike.
func fold(p string) string {
	b := []byte(p)
	for i, c := range b {
		switch {
		case c == '\\':
			b[i] = '/'
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	for len(b) > 1 && b[len(b)-1] == '/' {
		b = b[:len(b)-1]
	}
	return string(b)
}
