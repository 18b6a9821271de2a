// Package envroot is the one rule for every file gpuwiz removes, moves or writes in a Python
// environment: the path, resolved, must lie inside the environment's own roots (its prefix and the
// scheme paths its interpreter reports). A RECORD, a backup manifest or a journal is input written
// by whatever installer or run came before, so a path it names is checked, never trusted.
//
// pip keeps the same rule for its uninstall: in a virtual environment it removes only paths under
// sys.prefix and lists the others as skipped (pypa/pip, src/pip/_internal/req/req_uninstall.py,
// UninstallPathSet._permitted and is_local in src/pip/_internal/utils/misc.py).
package envroot

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Roots is an environment's own folders. The zero value holds none: nothing is inside it.
type Roots struct {
	roots []string // each resolved and as the file system compares names
	cache *sync.Map
}

// New is the roots given (empty strings are skipped): the environment's prefix first, then the
// scheme paths its interpreter reports (site-packages, the scripts folder, include, data).
func New(paths ...string) Roots {
	r := Roots{cache: &sync.Map{}}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		res, ok := r.resolve(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			res, ok = real, true // a root named through a link is the folder it points to
		}
		if ok {
			r.roots = append(r.roots, key(res))
		}
	}
	return r
}

// Has reports whether r holds any root.
func (r Roots) Has() bool { return len(r.roots) > 0 }

// Inside reports whether path lies inside one of the roots and is none of them, after taking
// off Windows' \\?\ prefix, cleaning .. away and following every symlink in its folders. The last
// element is not followed: removing, moving or writing it acts on the link itself.
func (r Roots) Inside(path string) bool {
	// a root is never a file to remove, move or write
	return r.insideBut(path, func(k, root string) bool { return k == root })
}

// Removable reports whether a whole folder may go: it lies inside a root and is neither a root
// nor a folder above one (the environment's prefix, site-packages, Scripts or bin, include).
func (r Roots) Removable(dir string) bool {
	// the folder is a root or holds one
	return r.insideBut(dir, func(k, root string) bool { return within(root, k) })
}

// insideBut reports whether path, resolved, lies inside one of the roots, and refused (asked of
// its key with every root) holds for none of them.
func (r Roots) insideBut(path string, refused func(k, root string) bool) bool {
	res, ok := r.resolve(path)
	if !ok {
		return false
	}
	k := key(res)
	inside := false
	for _, root := range r.roots {
		if refused(k, root) {
			return false
		}
		inside = inside || within(k, root)
	}
	return inside
}

// Join is a path a RECORD names, relative to base (the folder above the .dist-info) or absolute,
// as the file system will act on it; ok is false when that path lies outside the roots, or when
// the line cannot name one place for certain (a drive-relative C:x, a rooted \x without a drive, a
// path with a NUL).
func (r Roots) Join(base, rel string) (path string, ok bool) {
	p, certain := join(base, rel)
	if !certain {
		return p, false
	}
	return p, r.Inside(p)
}

// join is rel from a RECORD line against base; certain is false when the line has no one meaning.
func join(base, rel string) (string, bool) {
	if strings.ContainsRune(rel, 0) {
		return rel, false
	}
	p := filepath.FromSlash(rel)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if filepath.VolumeName(p) != "" || strings.HasPrefix(p, string(filepath.Separator)) || strings.HasPrefix(p, "/") {
		// C:x is relative to that drive's current folder, \x to the current drive's root: where
		// they point depends on the process, not on the environment.
		return p, false
	}
	return filepath.Join(base, p), true
}

// resolve is path absolute and clean, without a \\?\ prefix, with the symlinks of its folders
// followed (through the deepest folder that exists; below it nothing can be a link yet).
func (r Roots) resolve(path string) (string, bool) {
	p := stripLong(path)
	if !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
		return "", false
	}
	p = filepath.Clean(p)
	dir, base := filepath.Dir(p), filepath.Base(p)
	if dir == p { // a volume's root
		return p, true
	}
	return filepath.Join(r.folder(dir), base), true
}

// folder is dir with its symlinks followed, remembered per folder (an uninstall asks about the
// same few hundred folders for thousands of files): each folder costs one Lstat once its parent is
// known, and a link (a symlink or a Windows junction), or a Windows short name, is resolved by the
// operating system. A link that cannot be resolved makes a path that lies in no root.
func (r Roots) folder(dir string) string {
	if r.cache != nil {
		if v, ok := r.cache.Load(dir); ok {
			return v.(string)
		}
	}
	res := dir
	if parent := filepath.Dir(dir); parent != dir {
		res = filepath.Join(r.folder(parent), filepath.Base(dir))
		if st, err := os.Lstat(res); err == nil && (st.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || shortName(res)) {
			real, err := filepath.EvalSymlinks(res)
			if err != nil {
				real = unresolved + res
			}
			res = real
		}
	} else if real, err := filepath.EvalSymlinks(dir); err == nil {
		res = real // a volume's root as the system spells it
	}
	if r.cache != nil {
		r.cache.Store(dir, res)
	}
	return res
}

// unresolved marks a path behind a link the system could not follow: no root starts with it.
const unresolved = "\x00"

// shortName reports a Windows 8.3 name (PROGRA~1), which the system expands to the folder's name.
func shortName(p string) bool {
	return runtime.GOOS == "windows" && strings.Contains(filepath.Base(p), "~")
}

// stripLong takes off the Win32 file namespace prefix: \\?\C:\x is C:\x, \\?\UNC\host\share\x is
// \\host\share\x (and the NT \??\ spelling likewise).
func stripLong(p string) string {
	if runtime.GOOS != "windows" {
		return p
	}
	for _, pre := range []string{`\\?\`, `\??\`, `//?/`} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			if unc, ok := cutFold(rest, `UNC\`); ok {
				return `\\` + unc
			}
			return rest
		}
	}
	return p
}

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// key is a resolved path as the file system compares it: Windows ignores case.
func key(p string) string {
	if runtime.GOOS == "windows" {
		return strings.ToLower(p)
	}
	return p
}

// within reports whether p is root or lies below it.
func within(p, root string) bool {
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}
