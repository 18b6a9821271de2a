// Package app is gpuwiz's application layer: what both front ends (the wizard in ui/ and the
// commands in steps/cli) stand on. It owns the environment every run shares (the matrix, the list of
// package sources, the GPU report, from the global flags), the exit codes and typed results, and the
// sessions: plan and run an install, diagnose and repair an environment, verify, ask whether an index
// serves a build, and record the environment on the list of venvs, each with its log file.
//
// Data flows one way: front end → app → steps (install, doctor, indexcheck, pyenv, ...) → matrix.
// A front end asks a session, gets values back (results, checks, findings, activation commands) and
// puts them into words; it neither assembles a session nor writes a file itself. Nothing in steps/
// below this package imports it or the front ends (TestLayering).
package app
