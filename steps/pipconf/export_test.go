package pipconf

// Reads is how many times Read parsed the machine's files (its cache missed).
func Reads() int {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	return reads
}

// Value is the value pip's command uses for option name ("proxy", "index-url"): from the PIP_*
// variable, else the command's section ("install", "download"), else [global]; an empty value is
// ignored, as pip's option parser ignores it. ok is false when none sets it.
func (c Config) Value(command, name string) (value string, ok bool) {
	items := c.Items()
	for _, sect := range []string{EnvSection, command, "global"} {
		if v := items[sect+"."+name]; v != "" && sect != "" {
			return v, true
		}
	}
	return "", false
}
