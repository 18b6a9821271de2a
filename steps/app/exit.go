package app

import (
	"errors"
	"fmt"
)

// Exit codes of every gpuwiz run, the commands and the wizard alike; README.md documents them.
const (
	ExitOK           = 0
	ExitFailure      = 1
	ExitUsage        = 2
	ExitIncompatible = 3
	ExitVerifyFailed = 4
	ExitProblems     = 5
	ExitInterrupted  = 130
)

// ExitError ends a run with a given exit code and message.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// Usagef is a bad-input error: exit code 2 with a message that says what to do.
func Usagef(format string, a ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

// Exitf ends the run with code and message.
func Exitf(code int, format string, a ...any) error {
	return &ExitError{Code: code, Err: fmt.Errorf(format, a...)}
}

// Silent ends the run with code and no further message (the front end already showed the outcome).
func Silent(code int) error { return &ExitError{Code: code} }

// CodeOf is the exit code an error carries; fallback when it carries none.
func CodeOf(err error, fallback int) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return fallback
}
