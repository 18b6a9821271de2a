package app

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/verify"
)

// Verify runs the verification checks in the environment at root: framework "" is the one it holds,
// channel "" the one its constraints.txt pins. The report's checks carry their ids; the front ends
// word them. Bad input (no framework there, an unknown one) is a usage error.
func Verify(ctx context.Context, root, framework, channel string) (verify.Report, error) {
	v := pyenv.Venv{Root: root}
	r := runner.New(nil)
	if framework == "" {
		in, err := pyenv.Inspect(ctx, r, v.Python())
		if err != nil {
			return verify.Report{}, Exitf(ExitFailure, "%s", i18n.T("cli.verify.inspect_failed", i18n.D{"Path": root, "Err": err}))
		}
		switch {
		case len(in.TorchFamily) > 0:
			framework = "torch"
		case len(in.PaddleDists) > 0:
			framework = "paddle"
		default:
			return verify.Report{}, Usagef("%s", i18n.T("cli.verify.no_framework", i18n.D{"Path": root}))
		}
	}
	if framework != "torch" && framework != "paddle" {
		return verify.Report{}, Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(framework)}))
	}
	if channel == "" {
		channel = constraintsChannel(filepath.Join(root, "constraints.txt"), framework)
	}
	rep, err := verify.Run(ctx, r, v.Python(), framework, channel)
	if err != nil {
		return rep, Usagef("%v", err)
	}
	return rep, nil
}

// constraintsChannel reads the torch pin's label from a constraints.txt gpuwiz wrote ("" when none).
func constraintsChannel(path, framework string) string {
	f, err := os.Open(path)
	if err != nil || framework != "torch" {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "torch=="); ok {
			if _, label := pep.SplitLocal(v); label != "" {
				return label
			}
		}
	}
	return ""
}
