package ui

// logRing keeps the last lines of the install's output: memory stays bounded however much pip
// prints, and a frame renders only the lines that fit.
type logRing struct {
	lines []string
	start int // index of the oldest line
	n     int
	total int // lines ever added, for "N earlier lines in the log file"
}

func newLogRing(capacity int) *logRing { return &logRing{lines: make([]string, capacity)} }

func (r *logRing) Add(line string) {
	r.total++
	if r.n < len(r.lines) {
		r.lines[(r.start+r.n)%len(r.lines)] = line
		r.n++
		return
	}
	r.lines[r.start] = line
	r.start = (r.start + 1) % len(r.lines)
}

func (r *logRing) Len() int { return r.n }

// Tail returns up to k lines ending skip lines before the newest.
func (r *logRing) Tail(k, skip int) []string {
	end := max(r.n-skip, 0)
	begin := max(end-k, 0)
	out := make([]string, 0, end-begin)
	for i := begin; i < end; i++ {
		out = append(out, r.lines[(r.start+i)%len(r.lines)])
	}
	return out
}
