package remote

// Prefetch is a request web/boot.js made before the app started, held for
// the app to take instead of making it again: a GET of URL with Range
// (a single "bytes=a-b"; "" for a plain GET without any header, such as a
// dataset's listing). Final is the address the response came from after
// redirects, when known ("" otherwise).
type Prefetch struct {
	ID    int
	URL   string
	Final string
	Range string
}

// Serves reports whether p answers req as req's own request would: a GET
// (never a HEAD) with the same Range header ("" for none), to the address p
// was sent to or to the one it was redirected to. The validators (ETag,
// Last-Modified) of a response taken so are checked as those of any other.
func (p Prefetch) Serves(req Request) bool {
	if req.Head || req.URL == "" || req.Header() != p.Range {
		return false
	}
	return req.URL == p.URL || (p.Final != "" && req.URL == p.Final)
}

// Match returns the first of held that serves req (Prefetch.Serves), or
// false.
func Match(held []Prefetch, req Request) (Prefetch, bool) {
	for _, p := range held {
		if p.Serves(req) {
			return p, true
		}
	}
	return Prefetch{}, false
}
