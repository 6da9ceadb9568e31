package remote

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"strings"
)

// ErrNoURL is the error of CheckURL for an empty address.
var ErrNoURL = errors.New("no URL given")

// MixedContentError is the error of CheckURL for an http: file asked by an
// https: page, which browsers block (Mixed Content, W3C; localhost is
// exempt as a potentially trustworthy origin).
type MixedContentError struct{ URL string }

func (e *MixedContentError) Error() string {
	return fmt.Sprintf("%s is an http: address and this page is https:, so the browser blocks it (mixed content): serve the file over https:", e.URL)
}

// CORSError is a request the browser refused to hand to the page because
// the file's server does not allow the page's origin (Fetch standard, CORS
// protocol): the server must answer with Access-Control-Allow-Origin.
type CORSError struct {
	URL    string
	Origin string // the page's origin, as the server must allow it
}

func (e *CORSError) Error() string {
	host := e.URL
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		host = u.Host
	}
	return fmt.Sprintf("the server %s does not let this page (%s) read %s: it must send the header "+
		"Access-Control-Allow-Origin: %s (or *) with the file (CORS). To notice a file that changes while "+
		"it is read, also Access-Control-Expose-Headers: ETag", host, e.Origin, e.URL, e.Origin)
}

// NetworkError is a request that did not reach the server or got no answer.
type NetworkError struct {
	URL     string
	Offline bool   // the browser says it is offline
	Reason  string // the browser's words
}

func (e *NetworkError) Error() string {
	if e.Offline {
		return fmt.Sprintf("could not fetch %s: the browser is offline", e.URL)
	}
	return fmt.Sprintf("could not fetch %s: the server did not answer (%s); check the address and the network", e.URL, e.Reason)
}

// CheckURL resolves raw (absolute, or relative to the page's address page)
// and checks the page may fetch it: http: or https: only (no data:, file:,
// blob: or javascript: addresses), and no http: file from an https: page
// except on localhost. The fragment is dropped.
func CheckURL(raw, page string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, ErrNoURL
	}
	base, err := url.Parse(page)
	if err != nil {
		return nil, fmt.Errorf("the page's own address %q is not a URL: %w", page, err)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %w", raw, err)
	}
	u := base.ResolveReference(ref)
	u.Fragment, u.RawFragment = "", ""
	switch u.Scheme {
	case "https":
	case "http":
		if base.Scheme == "https" && !isLocalhost(u.Hostname()) {
			return nil, &MixedContentError{URL: u.String()}
		}
	default:
		return nil, fmt.Errorf("%q is not an http: or https: address", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%q has no host", raw)
	}
	return u, nil
}

func isLocalhost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// FileName is the name to show for a file at u: the last segment of its
// path (unescaped), else its host.
func FileName(u *url.URL) string {
	if base := path.Base(u.Path); base != "/" && base != "." && base != "" {
		return base
	}
	return u.Host
}
