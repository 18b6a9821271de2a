package words

import "gpuwiz/steps/i18n"

// NoteCode is what a note of the application layer says; Note's fields hold the facts it names.
type NoteCode string

const (
	// The facts a command's flags left out, as learned from this machine.
	NoteSimulatedOS       NoteCode = "simulated_os"        // OS: the --simulate report's
	NoteNoGPUCaps         NoteCode = "no_gpu_caps"         // --no-gpu with --compute-cap
	NoteNoComputeCap      NoteCode = "no_compute_cap"      // Index, Name: a card that gave none
	NoteCardWithoutDriver NoteCode = "card_without_driver" // Card: a card the PCI bus lists, no driver answered
	NoteNoPython          NoteCode = "no_python"           // no interpreter found
	NotePython            NoteCode = "python"              // Version, Bits, Path: the interpreter the facts take
	// The build an install takes.
	NoteUnverifiedAsked NoteCode = "unverified_asked" // Framework, Version, Channel, Why: an unverified build asked for by its channel
	NoteForced          NoteCode = "forced"           // Framework, Version, Channel, Reasons: --force on a build that does not fit
	// A diagnosis.
	NoteNoMatrix NoteCode = "no_matrix" // Err: the matrix could not be read
	// NoteSaid is a step's own note, already in its words (Said): the matrix's.
	NoteSaid NoteCode = "said"
)

// Note is something a session notes about its result, as a value: what (Code) and the facts it
// names. Text words it.
type Note struct {
	Code                             NoteCode
	OS, Card, Name, Path             string
	Framework, Version, Channel, Why string
	Index, Bits                      int
	Reasons                          []string // why a build does not fit, each in the matrix's words
	Err                              error
	Said                             string // NoteSaid's words
}

// Text is the note in words.
func (n Note) Text() string {
	switch n.Code {
	case NoteSimulatedOS:
		return i18n.T("cli.channels.note.simulated_os", i18n.D{"OS": n.OS})
	case NoteNoGPUCaps:
		return i18n.T("cli.channels.note.no_gpu_caps")
	case NoteNoComputeCap:
		return i18n.T("cli.channels.note.no_compute_cap", i18n.D{"Index": n.Index, "Name": n.Name})
	case NoteCardWithoutDriver:
		return i18n.T("cli.channels.note.card_without_driver", i18n.D{"Card": n.Card})
	case NoteNoPython:
		return i18n.T("cli.channels.note.no_python")
	case NotePython:
		return i18n.T("cli.channels.note.python", i18n.D{"Version": n.Version, "Bits": n.Bits, "Path": n.Path})
	case NoteUnverifiedAsked:
		return i18n.T("cli.install.unverified_asked", i18n.D{"Framework": n.Framework, "Version": n.Version, "Channel": n.Channel, "Why": n.Why})
	case NoteForced:
		return i18n.T("cli.install.force_note", i18n.D{"Framework": n.Framework, "Version": n.Version, "Channel": n.Channel, "Reasons": i18n.JoinClauses(n.Reasons)})
	case NoteNoMatrix:
		return i18n.T("cli.doctor.no_matrix", i18n.D{"Err": n.Err})
	}
	return n.Said
}

// Texts are the notes in words, in their order.
func Texts(notes []Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.Text()
	}
	return out
}
