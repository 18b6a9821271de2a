package i18n

// Wrap is an error whose words are text (a catalog message that already names err where it should)
// and whose cause stays reachable by errors.Is and errors.As.
func Wrap(err error, text string) error { return &textError{text: text, err: err} }

type textError struct {
	text string
	err  error
}

func (e *textError) Error() string { return e.text }
func (e *textError) Unwrap() error { return e.err }

// Lazy is a sentinel error (compare it with errors.Is) whose words are looked up each time it is
// read, so they follow a language chosen after the variable was made.
func Lazy(text func() string) error { return &lazyError{text} }

type lazyError struct{ text func() string }

func (e *lazyError) Error() string { return e.text() }
