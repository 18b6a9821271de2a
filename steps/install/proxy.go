package install

import (
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

// proxyVars are the variables pip (and gpuwiz's own downloads) take a proxy from, in the order
// they win.
var proxyVars = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}

// proxyNote says whether the environment sets a proxy (credentials redacted), for a message about
// an index that could not be reached: the first question is whether the request went through one.
func proxyNote(env []string) string {
	var set []string
	noProxy := ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if v == "" {
			continue
		}
		for _, name := range proxyVars {
			if k == name {
				set = append(set, k+"="+runner.Redact(v))
			}
		}
		if k == "NO_PROXY" || k == "no_proxy" {
			noProxy = v
		}
	}
	if len(set) == 0 {
		return i18n.T("install.proxy.none")
	}
	if noProxy != "" {
		return i18n.T("install.proxy.through_except", i18n.D{"Proxies": i18n.Join(set), "NoProxy": noProxy})
	}
	return i18n.T("install.proxy.through", i18n.D{"Proxies": i18n.Join(set)})
}
