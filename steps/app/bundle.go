package app

import (
	"bytes"
	"context"
	"runtime"

	"gpuwiz/steps/doctor"
	"gpuwiz/steps/runner"
)

// ActiveEnv is the environment active in this process's environment (VIRTUAL_ENV, CONDA_PREFIX),
// "" when none is.
func ActiveEnv() string {
	_, venv := doctor.ActiveEnv(nil, runtime.GOOS, doctor.OSEnviron{})
	return venv
}

// WriteBundle writes the support bundle of a diagnosis to path: the report, the GPU's, the
// environment's variables, gpuwiz's logs for the venv, and the commands run (cmdLog, which holds the
// diagnosis's commands; the bundle's own commands are added to it).
func (e *Env) WriteBundle(ctx context.Context, path string, rep doctor.Report, cmdLog *bytes.Buffer) error {
	g, _ := e.GPUReport(ctx)
	in := doctor.BundleInput{Report: rep, GPU: g, Runner: runner.New(cmdLog), Env: doctor.OSEnviron{}, LogDirs: doctor.LogDirs(rep.Venv), CommandLog: cmdLog.Bytes()}
	return doctor.WriteBundle(ctx, path, in)
}
