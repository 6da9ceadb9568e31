package corsfetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/tensorview/tensorview/app/remote"
)

// DefaultOrigin is the page's origin when Fetcher.Origin is empty.
const DefaultOrigin = "http://page.test"

// safelisted are the CORS-safelisted response headers, visible without
// being exposed (Fetch standard).
var safelisted = map[string]bool{
	"Cache-Control": true, "Content-Language": true, "Content-Length": true, "Content-Type": true,
	"Expires": true, "Last-Modified": true, "Pragma": true,
}

// Fetcher is remote.Fetcher as a page at Origin sees it. Requests counts
// the requests sent, redirects included.
type Fetcher struct {
	Origin   string
	Requests atomic.Int64
}

// errCORS marks a redirect refused by the CORS check.
var errCORS = errors.New("CORS")

// Fetch implements remote.Fetcher.
func (f *Fetcher) Fetch(ctx context.Context, req remote.Request) (*remote.Response, error) {
	origin := f.Origin
	if origin == "" {
		origin = DefaultOrigin
	}
	method := "GET"
	if req.Head {
		method = "HEAD"
	}
	hr, err := http.NewRequestWithContext(ctx, method, req.URL, nil)
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Origin", origin)
	if h := req.Header(); h != "" {
		hr.Header.Set("Range", h)
	}
	client := &http.Client{CheckRedirect: func(next *http.Request, via []*http.Request) error {
		if len(via) >= 20 {
			return errors.New("too many redirects")
		}
		prev := via[len(via)-1]
		if !allows(next.Response, prev.Header.Get("Origin")) {
			return errCORS
		}
		if originOf(next.URL) != originOf(prev.URL) && originOf(prev.URL) != origin {
			next.Header.Set("Origin", "null")
		}
		f.Requests.Add(1)
		return nil
	}}
	f.Requests.Add(1)
	resp, err := client.Do(hr)
	if errors.Is(err, errCORS) {
		return nil, &remote.CORSError{URL: req.URL, Origin: origin}
	}
	if err != nil {
		return nil, &remote.NetworkError{URL: req.URL, Reason: err.Error()}
	}
	if !allows(resp, resp.Request.Header.Get("Origin")) {
		resp.Body.Close()
		return nil, &remote.CORSError{URL: req.URL, Origin: origin}
	}
	visible := exposed(resp.Header.Get("Access-Control-Expose-Headers"))
	header := func(name string) string {
		name = http.CanonicalHeaderKey(name)
		if safelisted[name] || visible[name] || visible["*"] {
			return resp.Header.Get(name)
		}
		return ""
	}
	return &remote.Response{
		Status:        resp.StatusCode,
		Body:          resp.Body,
		ContentLength: resp.ContentLength,
		ContentRange:  header("Content-Range"),
		ETag:          header("ETag"),
		LastModified:  header("Last-Modified"),
		URL:           resp.Request.URL.String(),
		Header:        header,
	}, nil
}

// allows reports whether resp lets a page of origin read it
// (Access-Control-Allow-Origin "*" or the origin).
func allows(resp *http.Response, origin string) bool {
	if resp == nil {
		return false
	}
	acao := resp.Header.Get("Access-Control-Allow-Origin")
	return acao == "*" || (acao != "" && acao == origin)
}

// exposed is the set of header names of an Access-Control-Expose-Headers.
func exposed(list string) map[string]bool {
	out := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out[http.CanonicalHeaderKey(name)] = true
		}
	}
	return out
}

// originOf is scheme://host of u.
func originOf(u *url.URL) string { return u.Scheme + "://" + u.Host }
