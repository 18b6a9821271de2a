package install

import (
	"runtime"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
)

// proxyNote says which proxy pip's requests go through by the run's rules r (pip's own setting, else
// the environment's variables, else the Windows system proxy; credentials redacted), for a message
// about an index that could not be reached: the first question is whether the request went through one.
func proxyNote(r *netproxy.Resolver) string {
	switch {
	case !r.Configured() && runtime.GOOS == "windows":
		return i18n.T("install.proxy.none_windows")
	case !r.Configured(): // the system proxy is Windows's: named only there
		return i18n.T("install.proxy.none")
	case r.NoProxy() != "":
		return i18n.T("install.proxy.through_except", i18n.D{"Proxies": r.Settings(), "NoProxy": r.NoProxy()})
	}
	return i18n.T("install.proxy.through", i18n.D{"Proxies": r.Settings()})
}
