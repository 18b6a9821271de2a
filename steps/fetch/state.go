package fetch

import (
	"gpuwiz/steps/atomicfile"

	"encoding/json"
	"os"
	"strings"
)

// state is a partial download's progress, kept next to it as NAME.part.json: which byte ranges
// of NAME.part are written. It is tied to the file's sha256, not to a URL, so a later run
// continues it from any index or mirror that serves the same file.
type state struct {
	SHA256 string      `json:"sha256"`
	Size   int64       `json:"size"`
	Parts  []statePart `json:"parts"`
}

type statePart struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"` // exclusive
	Done  int64 `json:"done"`
}

// loadState reads the state of an earlier run's partial file; one that does not fit this file
// (another sha256, bad ranges, a partial file shorter than it claims) is thrown away with it.
func (j *job) loadState() {
	b, err := os.ReadFile(j.path + StateSuffix)
	if err != nil {
		removePartial(j.path)
		return
	}
	var st state
	info, ierr := os.Stat(j.path + PartSuffix)
	if json.Unmarshal(b, &st) != nil || ierr != nil || !st.valid(strings.ToLower(j.SHA256), info.Size()) ||
		j.Size > 0 && st.Size != j.Size {
		removePartial(j.path)
		return
	}
	j.st = &st
}

func (st *state) valid(sha string, partSize int64) bool {
	if st.SHA256 != sha || st.Size <= 0 || len(st.Parts) == 0 {
		return false
	}
	var next int64
	for _, p := range st.Parts {
		if p.Start != next || p.End <= p.Start || p.Done < 0 || p.Start+p.Done > p.End {
			return false
		}
		if p.Done > 0 && p.Start+p.Done > partSize {
			return false
		}
		next = p.End
	}
	return next == st.Size
}

// saveState writes the parts' progress (write, then rename: never a half-written record). Only
// bytes already written to the partial file are counted, so the record never claims more.
func (j *job) saveState() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.st == nil || j.parts == nil {
		return nil
	}
	st := state{SHA256: j.st.SHA256, Size: j.st.Size}
	for i, p := range j.parts {
		sp := j.st.Parts[i]
		sp.Done = p.done.Load()
		st.Parts = append(st.Parts, sp)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return atomicfile.Write(j.path+StateSuffix, b, 0o644)
}
