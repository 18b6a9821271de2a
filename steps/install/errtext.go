package install

// textError is an error whose words come from the catalog, wrapping the error it reports (nil
// when none), so errors.Is and errors.As still see the cause.
type textError struct {
	msg string
	err error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.err }

// wrap is err with text (a catalog message that already names err where it should).
func wrap(err error, text string) error { return &textError{msg: text, err: err} }

// sentinel is an error for errors.Is whose own words are looked up when they are read, so they
// follow the language chosen after start-up.
type sentinel struct{ text func() string }

func (s *sentinel) Error() string { return s.text() }

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
