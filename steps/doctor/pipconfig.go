package doctor

import (
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/urls"
)

// indexKeys are the pip options that add or replace where packages come from.
var indexKeys = map[string]bool{"index-url": true, "extra-index-url": true, "find-links": true}

// indexSections are the pip config sections that apply to pip install.
var indexSections = map[string]bool{"global": true, "install": true, "download": true}

// indexSettingsOf lists every place in pip's configuration (pipconf: the files pip reads for the
// interpreter, and the PIP_* variables) that sets an index option for pip install: the variables
// first, then the files in pip's order, each value of a multi-value option on its own.
func indexSettingsOf(cfg pipconf.Config) []IndexSetting {
	var vars, files []IndexSetting
	for _, s := range cfg.Settings {
		if !indexKeys[s.Name] {
			continue
		}
		for _, v := range strings.Fields(s.Value) {
			switch {
			case s.Section == pipconf.EnvSection:
				vars = append(vars, IndexSetting{Where: i18n.T("doctor.pip_index.env_var", i18n.D{"Name": s.Var}), Key: s.Name, Value: v})
			case indexSections[s.Section]:
				files = append(files, IndexSetting{Where: s.File + " [" + s.Section + "]", Key: s.Name, Value: v})
			}
		}
	}
	return append(vars, files...)
}

// mergeIndexSettings keeps the first place each key=value was seen.
func mergeIndexSettings(lists ...[]IndexSetting) []IndexSetting {
	seen := map[string]bool{}
	var out []IndexSetting
	for _, l := range lists {
		for _, s := range l {
			k := s.Key + "=" + s.Value
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

func checkPipExtraIndex(e *Evidence) []Finding {
	if len(e.PipIndexes) == 0 {
		return nil
	}
	var ev []string
	extra := false
	for _, s := range e.PipIndexes {
		ev = append(ev, s.line())
		extra = extra || s.Key == "extra-index-url"
	}
	title := i18n.T("doctor.pip_index.title")
	if extra {
		title = i18n.T("doctor.pip_index.extra_title")
		ev = append(ev, i18n.T("doctor.pip_index.extra_why"))
	}
	return []Finding{{
		Code: CodePipExtraIndex, Severity: SeverityWarning,
		Title:    title,
		Evidence: ev,
		Fix:      i18n.T("doctor.pip_index.fix"),
	}}
}

// line is the setting as a finding's evidence shows it: where it is set, what it adds, its value.
func (s IndexSetting) line() string {
	v := urls.Redact(s.Value)
	switch s.Key {
	case "extra-index-url":
		return i18n.T("doctor.pip_index.set_extra", i18n.D{"Where": s.Where, "Value": v})
	case "find-links":
		return i18n.T("doctor.pip_index.set_links", i18n.D{"Where": s.Where, "Value": v})
	}
	return i18n.T("doctor.pip_index.set_index", i18n.D{"Where": s.Where, "Value": v})
}
