package indexcheck

import (
	"context"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
)

// Verdict is the check of the one build about to be installed, for this machine's OS and Python.
type Verdict struct {
	Result
	// NextBest is the first other compatible build of the selection the index serves, when the chosen
	// one is not served; nil when there is none or the chosen one is fine.
	NextBest *matrix.Candidate `json:"next_best,omitempty"`
}

// Refused reports whether the install must not go on: a declared wheel is missing. An index that
// could not be read refuses nothing (the download will say more).
func (v Verdict) Refused() bool { return v.Status == Phantom }

// Message is the refusal in plain words, with the next-best build when there is one.
func (v Verdict) Message() string {
	if !v.Refused() {
		return ""
	}
	if n := v.NextBest; n != nil {
		return i18n.T("indexcheck.refused_next_best", i18n.D{"Framework": v.Framework, "Version": v.Version, "Channel": v.Channel, "Reason": v.Reason(),
			"NextFramework": n.Framework, "NextVersion": n.FrameworkVersion, "NextChannel": n.Channel})
	}
	return i18n.T("indexcheck.refused", i18n.D{"Framework": v.Framework, "Version": v.Version, "Channel": v.Channel, "Reason": v.Reason()})
}

// CheckBuild asks the index whether build c has its wheels for goos and python ("3.12"), before
// anything changes. When it has not, the compatible candidates of others (in their order, c left out)
// are asked in turn and the first served is the next best.
func CheckBuild(ctx context.Context, f *Fetcher, src Source, c matrix.Candidate, goos, python string, others []matrix.Candidate) Verdict {
	v := Verdict{Result: Check(ctx, f, src, c, []string{goos}, []string{python})}
	if !v.Refused() {
		return v
	}
	for i := range others {
		o := others[i]
		if !o.Compatible || (o.FrameworkVersion == c.FrameworkVersion && o.Channel == c.Channel) {
			continue
		}
		if r := Check(ctx, f, src, o, []string{goos}, []string{python}); r.Status == Served {
			v.NextBest = &o
			break
		}
	}
	return v
}
