package fetch

import "gpuwiz/steps/i18n"

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
