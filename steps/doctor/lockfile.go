package doctor

import (
	"gpuwiz/steps/pep"
	"regexp"
	"strings"
	"sync"
)

// lockFileNames are the files gpuwiz's install engine writes into the venv, newest convention first.
var lockFileNames = []string{"requirements.lock", "constraints.txt"}

// lockDirs are where, relative to the venv root, the lock files are looked for.
var lockDirs = [][]string{{}, {".gpuwiz"}}

var (
	lockPin = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)\s*===?\s*([0-9][0-9A-Za-z.!]*)(\+[0-9A-Za-z.]+)?`)
	})
	lockIndex = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:--index-url|-i)[ =]\s*(\S+)`) })
	lockNote  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(framework|channel)\s*[=:]\s*([A-Za-z0-9._-]+)`)
	})
)

// readLock finds and parses the first lock file in the venv.
func readLock(fsys FS, goos, venv string) *LockedBuild {
	for _, dir := range lockDirs {
		for _, name := range lockFileNames {
			p := joinFor(goos, venv, append(append([]string{}, dir...), name)...)
			data, err := fsys.ReadFile(p)
			if err != nil {
				continue
			}
			if l := parseLock(p, string(data)); l != nil {
				return l
			}
		}
	}
	return nil
}

// parseLock reads a pip requirements/constraints file: the framework pin (torch==2.8.0+cu126 or
// paddlepaddle-gpu==3.0.0), the --index-url (its last path part is the channel), and "# channel=cu126" notes.
func parseLock(file, text string) *LockedBuild {
	l := &LockedBuild{File: file}
	indexChannel, noteChannel := "", ""
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			for _, m := range lockNote().FindAllStringSubmatch(line, -1) {
				switch strings.ToLower(m[1]) {
				case "framework":
					if l.Framework == "" {
						l.Framework = m[2]
					}
				case "channel":
					noteChannel = m[2]
				}
			}
			continue
		}
		if m := lockIndex().FindStringSubmatch(line); m != nil {
			parts := strings.Split(strings.TrimRight(m[1], "/"), "/")
			indexChannel = parts[len(parts)-1]
			continue
		}
		m := lockPin().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch pep.Normalize(m[1]) {
		case "torch":
			l.Framework, l.Package, l.Version, l.Label = "torch", "torch", m[2], m[3]
		case "paddlepaddle-gpu", "paddlepaddle":
			if l.Package != "torch" {
				l.Framework, l.Package, l.Version, l.Label = "paddle", pep.Normalize(m[1]), m[2], m[3]
			}
		}
	}
	if l.Package == "" {
		return nil
	}
	switch {
	case l.Label != "":
		l.Channel = pep.Channel(l.Label)
	case noteChannel != "":
		l.Channel = noteChannel
	case indexChannel != "":
		l.Channel = indexChannel
	}
	return l
}
