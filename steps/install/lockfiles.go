package install

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// writeLockFiles writes requirements.lock (pip freeze of the new set) and constraints.txt pinning
// the framework build, so a later `pip install -r requirements.txt -c constraints.txt` can never
// swap it for a build from another index.
func (e *engine) writeLockFiles(ctx context.Context, s Step) error {
	out, err := e.capture(ctx, s.ID, s.Argv)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("# written by gpuwiz: pip freeze of %s after installing %s %s (%s)\n", e.plan.Venv, e.plan.Target.Framework, e.plan.Target.FrameworkVersion, e.plan.Target.Channel)
	if err := os.WriteFile(e.plan.LockFile, append([]byte(header), out...), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# written by gpuwiz: keeps the %s build that gpuwiz installed (%s from %s).\n", e.plan.Target.Framework, e.plan.Target.Channel, e.plan.IndexURL)
	b.WriteString("# Use it with every later install into this venv:\n")
	b.WriteString("#   pip install -r requirements.txt -c " + e.plan.ConstraintsFile + "\n")
	b.WriteString("# pip then refuses any other torch/paddle build instead of silently replacing this one.\n")
	for _, p := range e.pins {
		b.WriteString(p + "\n")
	}
	if err := os.WriteFile(e.plan.ConstraintsFile, []byte(b.String()), 0o644); err != nil {
		return err
	}
	e.out.LockFile, e.out.ConstraintsFile = e.plan.LockFile, e.plan.ConstraintsFile
	return nil
}
