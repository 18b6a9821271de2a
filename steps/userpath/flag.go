package userpath

// Flag is a pflag.Value for a path flag: what is given is normalised when it is set, so a bad one
// (an unset variable) stops the command before it does anything, with exit 2.
type Flag struct{ p *string }

// NewFlag is a flag value that stores the normalised path in *p.
func NewFlag(p *string) *Flag { return &Flag{p: p} }

func (f *Flag) String() string {
	if f == nil || f.p == nil {
		return ""
	}
	return *f.p
}

func (f *Flag) Set(s string) error {
	v, err := Clean(s)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}

// Type is "string", as for any text flag: help and usage errors read as before.
func (f *Flag) Type() string { return "string" }
