package doctor

import (
	"bufio"
	"bytes"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// indexKeys are the pip options that add or replace where packages come from.
var indexKeys = map[string]bool{"index-url": true, "extra-index-url": true, "find-links": true}

// indexSections are the pip config sections that apply to pip install.
var indexSections = map[string]bool{"global": true, "install": true, "download": true}

// pipConfigFiles lists pip's config files in pip's own load order: global, user, site (the venv).
func pipConfigFiles(goos string, env Environ, venv string) []string {
	var files []string
	if goos == "windows" {
		if pd := getenv(env, "ProgramData"); pd != "" {
			files = append(files, joinFor(goos, pd, "pip", "pip.ini"))
		}
		if h := getenv(env, "HOME"); h != "" {
			files = append(files, joinFor(goos, h, "pip", "pip.ini"))
		}
		if ad := getenv(env, "APPDATA"); ad != "" {
			files = append(files, joinFor(goos, ad, "pip", "pip.ini"))
		}
		if venv != "" {
			files = append(files, joinFor(goos, venv, "pip.ini"))
		}
		return files
	}
	dirs := pathList(goos, getenv(env, "XDG_CONFIG_DIRS"))
	if len(dirs) == 0 {
		dirs = []string{"/etc/xdg"}
	}
	for _, d := range dirs {
		files = append(files, joinFor(goos, d, "pip", "pip.conf"))
	}
	files = append(files, "/etc/pip.conf")
	if h := getenv(env, "HOME"); h != "" {
		files = append(files, joinFor(goos, h, ".pip", "pip.conf"))
	}
	if x := getenv(env, "XDG_CONFIG_HOME"); x != "" {
		files = append(files, joinFor(goos, x, "pip", "pip.conf"))
	} else if h := getenv(env, "HOME"); h != "" {
		files = append(files, joinFor(goos, h, ".config", "pip", "pip.conf"))
	}
	if venv != "" {
		files = append(files, joinFor(goos, venv, "pip.conf"))
	}
	return files
}

// indexSettingsInConfig reads the index options of one pip config file (INI, configparser rules:
// "key = value" or "key: value", indented lines continue a multi-value option, # and ; comment).
func indexSettingsInConfig(where string, data []byte) []IndexSetting {
	var out []IndexSetting
	section, key := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			if key != "" && indexSections[section] && indexKeys[key] {
				out = append(out, IndexSetting{Where: where, Key: key, Value: line})
			}
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section, key = strings.ToLower(strings.TrimSpace(line[1:len(line)-1])), ""
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i < 0 {
			key = ""
			continue
		}
		key = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(line[:i])), "_", "-")
		value := strings.TrimSpace(line[i+1:])
		if value != "" && indexSections[section] && indexKeys[key] {
			for _, v := range strings.Fields(value) {
				out = append(out, IndexSetting{Where: where + " [" + section + "]", Key: key, Value: v})
			}
		}
	}
	return out
}

// indexSettingsInEnv reads the PIP_* variables that change indexes.
func indexSettingsInEnv(env Environ) []IndexSetting {
	var out []IndexSetting
	for _, k := range []struct{ env, key string }{{"PIP_INDEX_URL", "index-url"}, {"PIP_EXTRA_INDEX_URL", "extra-index-url"}, {"PIP_FIND_LINKS", "find-links"}} {
		if v := strings.TrimSpace(getenv(env, k.env)); v != "" {
			for _, f := range strings.Fields(v) {
				out = append(out, IndexSetting{Where: i18n.T("doctor.pip_index.env_var", i18n.D{"Name": k.env}), Key: k.key, Value: f})
			}
		}
	}
	return out
}

// indexSettingsInPipConfigList reads `pip config list` output: section.key='value' per line.
func indexSettingsInPipConfigList(out string) []IndexSetting {
	var res []IndexSetting
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		i := strings.Index(line, "=")
		if i < 0 {
			continue
		}
		name, value := line[:i], strings.Trim(strings.TrimSpace(line[i+1:]), `'"`)
		dot := strings.LastIndex(name, ".")
		if dot < 0 {
			continue
		}
		section, key := strings.TrimPrefix(name[:dot], ":"), strings.ReplaceAll(name[dot+1:], "_", "-")
		if !indexKeys[key] || !(indexSections[section] || section == "env" || section == "env-var") {
			continue
		}
		for _, v := range strings.Fields(strings.ReplaceAll(value, `\n`, " ")) {
			//i18n:raw where the setting came from: the command and the setting's name
			res = append(res, IndexSetting{Where: "pip config list (" + name + ")", Key: key, Value: v})
		}
	}
	return res
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
