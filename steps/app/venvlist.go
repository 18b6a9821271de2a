package app

import (
	"context"

	"gpuwiz/steps/install"
	"gpuwiz/steps/venvs"
)

// VenvList is the list of venvs gpuwiz worked on (`gpuwiz venvs --json`), or with all every
// environment found too.
type VenvList struct {
	List    string        `json:"list"` // the file the list is kept in
	Venvs   []venvs.Found `json:"venvs"`
	Warning string        `json:"warning,omitempty"`
}

// ListVenvs reads the list of venvs, each with what it holds, a run that stopped half-way and its
// state folder; all adds the environments found around (venvs.Find). A list that cannot be opened or
// read is a failure; one entry it could not read, the warning.
func ListVenvs(ctx context.Context, all bool) (VenvList, error) {
	store, err := venvs.Default()
	if err != nil {
		return VenvList{}, Exitf(ExitFailure, "%v", err)
	}
	rep := VenvList{List: store.Path, Venvs: []venvs.Found{}}
	if all {
		found, warning := venvs.Find(ctx, venvs.FindOptions{Store: store})
		rep.Venvs, rep.Warning = append(rep.Venvs, found...), warning
	} else {
		list, warning, err := store.List(ctx)
		if err != nil {
			return VenvList{}, Exitf(ExitFailure, "%v", err)
		}
		rep.Warning = warning
		for i := range list {
			rep.Venvs = append(rep.Venvs, venvs.Found{Path: list[i].Path, Source: venvs.SourceKnown, Known: &list[i], Holds: venvs.Read(list[i].Path, ""),
				Interrupted: install.FindInterrupted(list[i].Path)}) // as Find names it
		}
	}
	for i := range rep.Venvs {
		rep.Venvs[i].State = venvs.ReadState(rep.Venvs[i].Path)
	}
	return rep, nil
}
