package install

import (
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
)

// pipOlderThan reports whether pip version v is older than min; an unknown version counts as old.
func pipOlderThan(v, min string) bool {
	have, err := version.NewVersion(v)
	if err != nil {
		return true
	}
	return have.LessThan(version.Must(version.NewVersion(min)))
}

// progressFlag is pip's raw progress (parsed for a real bar) where the pip has it (24.1+), else off.
func progressFlag(pipVersion string) [2]string {
	if pipOlderThan(pipVersion, rawProgressFrom) {
		return [2]string{"--progress-bar", "off"}
	}
	return [2]string{"--progress-bar", "raw"}
}

// overriddenPipVars are the pip settings that could pull the framework from another index or put
// it somewhere else; the framework's pip steps never inherit them.
var overriddenPipVars = map[string]string{
	"PIP_INDEX_URL":       "",
	"PIP_EXTRA_INDEX_URL": "",
	"PIP_FIND_LINKS":      "",
	"PIP_NO_INDEX":        "0",
	"PIP_USER":            "0",
	"PIP_TARGET":          "",
	"PIP_PREFIX":          "",
	// Not empty: pip ignores an empty setting, and the venv's own pip configuration names the
	// constraints that keep the build, which gpuwiz's own switch or repair must not be held to.
	// An empty constraints file (the null device) overrides it.
	"PIP_CONSTRAINT":     os.DevNull,
	"PIP_REQUIREMENT":    "",
	"PIP_NO_BINARY":      "",
	"PIP_ONLY_BINARY":    "",
	"PIP_NO_DEPS":        "0",
	"PIP_REQUIRE_HASHES": "0",
}

// droppedVars would make the venv's Python see packages from elsewhere.
var droppedVars = []string{"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "VIRTUAL_ENV", "PYTHONSTARTUP"}

// frameworkEnv is the child environment of the framework's pip steps: environ with every index
// setting overridden and no pip configuration file read (PIP_CONFIG_FILE is the null device: pip
// skips an empty variable, so an extra-index-url or find-links in pip.ini/pip.conf could not be
// cancelled otherwise), while the user's network settings (conf.NetEnviron: proxy, certificates,
// timeout, retries, trusted hosts, from the files or the variables) are handed on as variables.
func frameworkEnv(environ []string, indexURL string, conf pipconf.Config) []string {
	net := conf.NetEnviron()
	out := make([]string, 0, len(environ)+len(overriddenPipVars)+len(net)+3)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		ku := strings.ToUpper(k)
		if _, ok := overriddenPipVars[ku]; ok || slices.Contains(droppedVars, ku) || ku == "PYTHONNOUSERSITE" || ku == "PIP_CONFIG_FILE" || isNetVar(ku) {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range sortedKeys(overriddenPipVars) {
		v := overriddenPipVars[k]
		if k == "PIP_INDEX_URL" {
			v = indexURL
		}
		out = append(out, k+"="+v)
	}
	out = append(out, "PIP_CONFIG_FILE="+pipconf.DevNull(hostGOOS()))
	out = append(out, net...)
	// A torch in the user's site-packages would shadow the venv's for the verify script.
	return append(out, "PYTHONNOUSERSITE=1", "PYTHONIOENCODING=utf-8")
}

// isNetVar is a PIP_* variable of pip's network options, which frameworkEnv sets itself.
func isNetVar(k string) bool {
	return slices.ContainsFunc(pipconf.NetOptions, func(name string) bool { return pipconf.EnvName(name) == k })
}

// envInterference names the user's environment settings that would have changed where pip looks.
func envInterference(environ []string) []string {
	var out []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		ku := strings.ToUpper(k)
		switch {
		case ku == "PIP_CONFIG_FILE" && v != "":
			out = append(out, i18n.T("install.warn.pip_config_file", i18n.D{"Value": v}))
		case ku == "PYTHONPATH" && v != "":
			out = append(out, i18n.T("install.warn.pythonpath", i18n.D{"Value": v}))
		default:
			if _, ok := overriddenPipVars[ku]; ok && v != "" && ku != "PIP_NO_INDEX" && ku != "PIP_USER" && ku != "PIP_NO_DEPS" && ku != "PIP_REQUIRE_HASHES" || ok && isTrue(v) {
				out = append(out, i18n.T("install.warn.pip_var", i18n.D{"Var": k, "Value": v}))
			}
		}
	}
	return out
}

func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on", "y":
		return true
	}
	return false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
