package hubfake

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// browserHeaders are the request headers a browser's fetch without custom
// headers may carry: the ones it sets itself (forbidden request headers,
// Fetch standard §2.2.2, and the HTTP cache's validators), the
// CORS-safelisted ones it sends by default, and Range (checked apart).
var browserHeaders = map[string]bool{
	"Accept": true, "Accept-Language": true, "Content-Language": true, "Range": true,
	"Accept-Encoding": true, "Connection": true, "Host": true, "Origin": true, "Referer": true,
	"User-Agent": true, "Cache-Control": true, "Pragma": true, "Priority": true, "Dnt": true,
	"Te": true, "Keep-Alive": true, "Upgrade-Insecure-Requests": true, "Via": true,
	"If-None-Match": true, "If-Modified-Since": true, "If-Range": true,
}

// safeRange is a Range header value a browser sends without a preflight
// (Fetch standard, "CORS-safelisted request-header": a single range with
// a first position).
var safeRange = regexp.MustCompile(`^bytes=[0-9]+-[0-9]*$`)

// check refuses and reports a request a page's fetch of public files
// would never make (see the package doc); it reports whether the request
// may be answered.
func (f *Fake) check(w http.ResponseWriter, r *http.Request, origin string) bool {
	var why string
	switch {
	case r.Method == http.MethodOptions:
		why = fmt.Sprintf("a CORS preflight (OPTIONS %s, Access-Control-Request-Headers: %q)", r.URL.Path, r.Header.Get("Access-Control-Request-Headers"))
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		why = fmt.Sprintf("a %s request for %s", r.Method, r.URL.Path)
	default:
		for name := range r.Header {
			if !browserHeaders[name] && !strings.HasPrefix(name, "Sec-") {
				why = fmt.Sprintf("the request header %s: %q, which a page's fetch without custom headers does not send (for %s)", name, r.Header.Get(name), r.URL.Path)
				break
			}
		}
		if rg := r.Header.Values("Range"); why == "" && len(rg) > 0 && (len(rg) > 1 || !safeRange.MatchString(rg[0])) {
			why = fmt.Sprintf("the Range header %q (only one \"bytes=first-last\" or \"bytes=first-\" range is sent without a preflight) for %s", strings.Join(rg, ", "), r.URL.Path)
		}
	}
	if why == "" {
		return true
	}
	f.violate(origin + ": " + why)
	http.Error(w, "refused by hubfake: "+why, http.StatusForbidden)
	return false
}
