package matrix

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// lineIndex maps a value's path ("torch[2].build[1].index_url", "torch[2]") to its line, so validation
// errors can point at the line a person must edit.
type lineIndex map[string]int

// indexLines walks the document once with go-toml's parser. The document already decoded, so parse
// errors cannot happen here; a partial index only costs line numbers.
func indexLines(data []byte) lineIndex {
	idx := lineIndex{}
	counts := map[string]int{}
	// Offsets of line starts: a node's line is a binary search away (Parser.Shape rescans from the start).
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineAt := func(r unstable.Range) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > int(r.Offset) })
	}
	var p unstable.Parser
	p.Reset(data)
	current := ""
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.ArrayTable, unstable.Table:
			current = tablePath(n.Key(), counts, n.Kind == unstable.ArrayTable)
			if it := n.Key(); it.Next() {
				idx[current] = lineAt(it.Node().Raw)
			}
		case unstable.KeyValue:
			var parts []string
			it := n.Key()
			line := 0
			for it.Next() {
				k := it.Node()
				parts = append(parts, string(k.Data))
				if line == 0 {
					line = lineAt(k.Raw)
				}
			}
			path := strings.Join(parts, ".")
			if current != "" {
				path = current + "." + path
			}
			idx[path] = line
		}
	}
	return idx
}

// tablePath names an [[a.b]] header by its occurrence: a[i].b[j], counting b within the latest a[i].
func tablePath(key unstable.Iterator, counts map[string]int, array bool) string {
	path := ""
	var parts []string
	for key.Next() {
		parts = append(parts, string(key.Node().Data))
	}
	for i, part := range parts {
		if path != "" {
			path += "."
		}
		path += part
		last := i == len(parts)-1
		if last && array {
			counts[path]++
		}
		if (last && !array) || counts[path] == 0 {
			continue
		}
		path += "[" + strconv.Itoa(counts[path]-1) + "]"
	}
	return path
}

// lazyLines builds the line index on the first lookup: a valid file (the common case) never needs it,
// and building it is a second parse of the whole document.
type lazyLines struct {
	data []byte
	idx  lineIndex
}

func (l *lazyLines) line(path string) int {
	if l.idx == nil {
		l.idx = indexLines(l.data)
	}
	return l.idx.line(path)
}

// line returns the line of path, falling back to its enclosing tables.
func (l lineIndex) line(path string) int {
	for path != "" {
		if n, ok := l[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}
