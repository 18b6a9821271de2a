package install

import (
	"bufio"
	"context"
	"fmt"
	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/urls"
	"os"
	"path/filepath"
	"strings"
)

// noteInstalledWheel keeps the wheel file of a "Processing /cache/…/torch-….whl" line of pip install.
func (e *engine) noteInstalledWheel(line string) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Processing ")
	if !ok {
		return
	}
	if i := strings.Index(rest, ".whl"); i > 0 {
		e.installedWheels = append(e.installedWheels, filepath.Base(rest[:i+4]))
	}
}

// writeLockFiles writes requirements.lock (pip freeze of the new set, with where the build came
// from and the sha256 of every wheel the install used) and constraints.txt pinning the framework
// build, so a later `pip install -r requirements.txt -c constraints.txt` can never swap it for a
// build from another index, and a repair can take the same wheels from the cache or the same source.
func (e *engine) writeLockFiles(ctx context.Context, s Step) error {
	var out []byte
	var err error
	if e.lockFreeze != nil {
		out, err = e.lockFreeze.wait()
	} else {
		out, err = e.freezeLock(ctx, s.ID, pipArgv(e.plan.pip, *s.Pip))
	}
	if err != nil {
		return err
	}
	rec := readWheelRecord(e.plan.StageDir)
	byDist := map[string][2]string{} // normalised name==version → wheel file, sha256
	for _, f := range e.installedWheels {
		if name, version, ok := parseWheelName(f); ok {
			byDist[name+"=="+version] = [2]string{f, rec.Wheels[f].SHA256}
		}
	}
	var b strings.Builder
	//i18n:raw requirements.lock's comments: a file format, the same in every language
	fmt.Fprintf(&b, "# written by gpuwiz: pip freeze of %s after installing %s %s (%s)\n", e.plan.Venv, e.plan.Target.Framework, e.plan.Target.FrameworkVersion, e.plan.Target.Channel)
	//i18n:raw requirements.lock's comments: a file format
	b.WriteString("# where the build came from (a repair takes the same wheels from the cache, else from here; credentials are not kept):\n")
	fmt.Fprintf(&b, "# index-url: %s\n", urls.Strip(e.plan.IndexURL))
	if e.plan.FindLinks != "" {
		fmt.Fprintf(&b, "# find-links: %s\n", urls.Strip(e.plan.FindLinks))
	}
	if m := e.plan.Target.Mirror; m != "" {
		fmt.Fprintf(&b, "# mirror: %s\n", urls.Strip(m))
	}
	if e.out.Source != "" {
		fmt.Fprintf(&b, "# staged from: %s\n", urls.Strip(e.out.Source)) //i18n:raw requirements.lock: a file format
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		name, version, ok := strings.Cut(line, "==")
		if w, found := byDist[pep.Normalize(name)+"=="+version]; ok && found && w[1] != "" {
			line += "  # sha256=" + w[1] + " " + w[0]
		}
		b.WriteString(line + "\n")
	}
	if err := atomicfile.Write(e.plan.LockFile, []byte(b.String()), 0o644); err != nil {
		return err
	}
	b.Reset()
	// Written while the build is verified, so it says what the file is for, not whether the venv
	// keeps this build: the protection is set (or taken away) once the check has answered.
	//i18n:raw constraints.txt's comments: a file format, the same in every language
	fmt.Fprintf(&b, "# written by gpuwiz: pins the %s build that gpuwiz installed (%s from %s).\n", e.plan.Target.Framework, e.plan.Target.Channel, urls.Strip(e.plan.IndexURL))
	//i18n:raw constraints.txt: a file format
	fmt.Fprintf(&b, "# When %s names this file, pip refuses another torch/paddle build there instead of\n", keep.ConfigFile(e.plan.Venv, hostGOOS()))
	b.WriteString("# silently replacing this one (gpuwiz names it after the build passes its check). Elsewhere:\n") //i18n:raw constraints.txt: a file format
	b.WriteString("#   " + shellquote.Command(hostGOOS(), "pip", "install", "-r", "requirements.txt", "-c", e.plan.ConstraintsFile) + "\n")
	for _, p := range e.pins {
		b.WriteString(p + "\n")
	}
	if err := atomicfile.Write(e.plan.ConstraintsFile, []byte(b.String()), 0o644); err != nil {
		return err
	}
	e.out.LockFile, e.out.ConstraintsFile = e.plan.LockFile, e.plan.ConstraintsFile
	return nil
}

// protect has the venv defend a build that passed its check from now on: its own pip
// configuration names constraints.txt. A build that failed the check is not defended: a
// protection an earlier build left there is taken away (constraints.txt now pins this build).
func (e *engine) protect() {
	if _, verified := e.plan.Step(StepVerify); verified && (e.out.Verify == nil || !e.out.Verify.OK) {
		// The front ends say the venv does not keep this build; a line that could not go is a warning.
		if st, err := keep.Unprotect(e.plan.Venv, hostGOOS()); err != nil {
			e.out.Warnings = append(e.out.Warnings, i18n.T("install.warn.not_unprotected", i18n.D{"File": st.File, "Err": err}))
		}
		return
	}
	st, err := keep.Protect(e.plan.Venv, e.plan.ConstraintsFile, hostGOOS())
	if err != nil {
		e.out.Warnings = append(e.out.Warnings, i18n.T("install.warn.not_protected", i18n.D{"File": st.File, "Err": err}))
		return
	}
	e.out.Protected = st.File
}

// LockSources is what requirements.lock says about where a venv's build came from.
type LockSources struct {
	Framework string            `json:"framework,omitempty"`
	Version   string            `json:"version,omitempty"`
	Channel   string            `json:"channel,omitempty"`
	IndexURL  string            `json:"index_url,omitempty"`
	FindLinks string            `json:"find_links,omitempty"`
	Mirror    string            `json:"mirror,omitempty"`
	Hashes    map[string]string `json:"hashes,omitempty"` // wheel file → sha256
}

// ReadLockSources reads the sources and wheel hashes gpuwiz wrote into venv/requirements.lock
// (zero when there is no such file, or it is an older one without them).
func ReadLockSources(venv string) LockSources {
	var l LockSources
	f, err := os.Open(filepath.Join(venv, "requirements.lock"))
	if err != nil {
		return l
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if _, what, ok := strings.Cut(line, " after installing "); ok && strings.HasPrefix(line, "# written by gpuwiz:") {
			// "torch 2.6.0 (cu126)"
			if f := strings.Fields(what); len(f) == 3 {
				l.Framework, l.Version, l.Channel = f[0], f[1], strings.Trim(f[2], "()")
			}
		}
		for key, dst := range map[string]*string{"# index-url:": &l.IndexURL, "# find-links:": &l.FindLinks, "# mirror:": &l.Mirror} {
			if v, ok := strings.CutPrefix(line, key); ok {
				*dst = strings.TrimSpace(v)
			}
		}
		if _, c, ok := strings.Cut(line, "# sha256="); ok && !strings.HasPrefix(line, "#") {
			if sum, file, ok := strings.Cut(strings.TrimSpace(c), " "); ok {
				if l.Hashes == nil {
					l.Hashes = map[string]string{}
				}
				l.Hashes[strings.TrimSpace(file)] = sum
			}
		}
	}
	return l
}
