package fetch

import "gpuwiz/steps/i18n"

// sentinel is an error for errors.Is whose own words are looked up when they are read, so they
// follow the language chosen after start-up.
type sentinel struct{ text func() string }

func (s *sentinel) Error() string { return s.text() }

// kindError is a case of a sentinel (errors.Is(err, of) holds) with its own words.
type kindError struct {
	of  error
	msg string
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.of }

// unsupported is ErrUnsupported for the reason why (a catalog message).
func unsupported(why string) error {
	return &kindError{of: ErrUnsupported, msg: i18n.T("fetch.unsupported.err", i18n.D{"Why": why})}
}

// textError is an error whose words come from the catalog, wrapping the error it reports.
type textError struct {
	msg string
	err error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.err }

func wrap(err error, text string) error { return &textError{msg: text, err: err} }
