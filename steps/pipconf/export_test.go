package pipconf

// Reads is how many times Read parsed the machine's files (its cache missed).
func Reads() int {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	return reads
}
