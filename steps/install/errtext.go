package install

// reasonError is a sentinel's case with its own words: errors.Is(err, of) holds and Error() is
// the message (without the sentinel's words in front); why is the reason alone.
type reasonError struct {
	of  error
	msg string
	why string
	err error
}

func (e *reasonError) Error() string        { return e.msg }
func (e *reasonError) Unwrap() error        { return e.err }
func (e *reasonError) Is(target error) bool { return target == e.of }

// indexUnreachable marks a pip failure whose output says the package index could not be reached
// (its text already says so and what to do).
type indexUnreachable struct{ error }

func (e indexUnreachable) Unwrap() error { return e.error }
