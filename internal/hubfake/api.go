package hubfake

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// API is the handler of the API origin: listings, the tree, and the
// file addresses that redirect to the CDN.
func (f *Fake) API() http.Handler { return http.HandlerFunc(f.serveAPI) }

func (f *Fake) serveAPI(w http.ResponseWriter, r *http.Request) {
	f.hit(r)
	if !f.check(w, r, "API") {
		return
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		origin = "*"
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Set("Vary", "Origin")
	if f.opt.APIExpose != "-" {
		w.Header().Set("Access-Control-Expose-Headers", f.opt.APIExpose)
	}
	segs, err := segments(r.URL.EscapedPath())
	f.countKind(kindOf(segs))
	if f.limited(w) {
		return
	}
	switch {
	case err != nil:
		hubError(w, http.StatusBadRequest, "", "Invalid path")
	case len(segs) > 2 && segs[0] == "api" && segs[1] == "datasets":
		f.serveDatasetAPI(w, r, segs[2:])
	case len(segs) > 1 && segs[0] == "datasets":
		f.serveResolve(w, r, segs[1:])
	default:
		hubError(w, http.StatusNotFound, "", "Sorry, we can't find the page you are looking for.")
	}
}

// kindOf is the kind of an API-origin request for the path segs.
func kindOf(segs []string) Kind {
	last := segs[len(segs)-1]
	switch {
	case segs[0] == "datasets":
		return Resolve
	case len(segs) > 3 && segs[3] == "tree", len(segs) > 4 && segs[4] == "tree":
		return Tree
	case strings.HasSuffix(last, ".parquet"):
		return APIFile
	}
	return Listing
}

// segments splits an escaped path into unescaped segments
// ("refs%2Fconvert%2Fparquet" is one segment).
func segments(escaped string) ([]string, error) {
	parts := strings.Split(strings.Trim(escaped, "/"), "/")
	for i, p := range parts {
		s, err := url.PathUnescape(p)
		if err != nil {
			return nil, err
		}
		parts[i] = s
	}
	return parts, nil
}

// limited answers 429 past the rate limit and reports whether it did.
func (f *Fake) limited(w http.ResponseWriter) bool {
	if f.opt.RateLimit <= 0 {
		return false
	}
	f.mu.Lock()
	if !f.now.Before(f.windowStart.Add(f.opt.RateWindow)) {
		f.windowStart, f.windowCount = f.now, 0
	}
	f.windowCount++
	over := f.windowCount > f.opt.RateLimit
	left := int(math.Ceil(f.windowStart.Add(f.opt.RateWindow).Sub(f.now).Seconds()))
	if over {
		f.count(RateLimited)
	}
	f.mu.Unlock()
	if !over {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(left))
	w.Header().Set("RateLimit", fmt.Sprintf(`"api";r=0;t=%d`, left))
	w.Header().Set("RateLimit-Policy", fmt.Sprintf(`"fixed window";"api";q=%d;w=%d`, f.opt.RateLimit, int(f.opt.RateWindow.Seconds())))
	hubError(w, http.StatusTooManyRequests, "", "You have exceeded our rate limit of requests. Retry later.")
	return true
}

// hubError answers status with the Hub's JSON error body and headers.
func hubError(w http.ResponseWriter, status int, code, msg string) {
	if code != "" {
		w.Header().Set("X-Error-Code", code)
	}
	w.Header().Set("X-Error-Message", msg)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// lookup finds the dataset in segs: the segments before the first keyword
// after one or two segments. It answers the Hub's error and returns nil
// when the dataset may not be read.
func (f *Fake) lookup(w http.ResponseWriter, segs []string, keyword string) (*dataset, []string) {
	var id string
	var rest []string
	for _, k := range []int{2, 1} {
		if len(segs) > k && segs[k] == keyword {
			id, rest = strings.Join(segs[:k], "/"), segs[k+1:]
			f.mu.Lock()
			_, ok := f.datasets[id]
			f.mu.Unlock()
			if ok {
				break
			}
		}
	}
	f.mu.Lock()
	d := f.datasets[id]
	f.mu.Unlock()
	switch {
	case id == "":
		hubError(w, http.StatusNotFound, "", "Sorry, we can't find the page you are looking for.")
		return nil, nil
	case d == nil || d.access == Private:
		hubError(w, http.StatusUnauthorized, "RepoNotFound", "Repository not found")
		return nil, nil
	case d.access == Gated:
		w.Header().Set("WWW-Authenticate", `Bearer realm="Authentication required", charset="UTF-8"`)
		hubError(w, http.StatusUnauthorized, "GatedRepo", fmt.Sprintf("Access to dataset %s is restricted. You must have access to it and be authenticated to access it. Please log in.", id))
		return nil, nil
	}
	return d, rest
}

// serveDatasetAPI answers /api/datasets/<id>/....
func (f *Fake) serveDatasetAPI(w http.ResponseWriter, r *http.Request, segs []string) {
	kw := "parquet"
	for _, k := range []int{1, 2} {
		if len(segs) > k && segs[k] == "tree" {
			kw = "tree"
		}
	}
	d, rest := f.lookup(w, segs, kw)
	if d == nil {
		return
	}
	if kw == "tree" {
		f.serveTree(w, r, d, rest)
		return
	}
	switch len(rest) {
	case 0:
		out := orderedObject{}
		for _, c := range d.configs {
			out = append(out, member{c.Name, f.splitsObject(d, c)})
		}
		writeJSON(w, out)
	case 1:
		c, ok := d.config(rest[0])
		if !ok {
			hubError(w, http.StatusNotFound, "", fmt.Sprintf("Config %s not found", rest[0]))
			return
		}
		writeJSON(w, f.splitsObject(d, c))
	case 2:
		if _, ok := d.files[rest[0]+"\x00"+rest[1]]; !ok {
			hubError(w, http.StatusNotFound, "", fmt.Sprintf("Split %s/%s not found", rest[0], rest[1]))
			return
		}
		writeJSON(w, f.urls(d, rest[0], rest[1]))
	case 3:
		files := d.files[rest[0]+"\x00"+rest[1]]
		n, err := strconv.Atoi(strings.TrimSuffix(rest[2], ".parquet"))
		if err != nil || !strings.HasSuffix(rest[2], ".parquet") || n < 0 || n >= len(files) || rest[2] != strconv.Itoa(n)+".parquet" {
			hubError(w, http.StatusNotFound, "EntryNotFound", "Entry not found")
			return
		}
		http.Redirect(w, r, f.ResolveURL(d.id, rest[0], files[n].dir, n), http.StatusFound)
	default:
		hubError(w, http.StatusNotFound, "", "Sorry, we can't find the page you are looking for.")
	}
}

// countKind records a request of kind k.
func (f *Fake) countKind(k Kind) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count(k)
}

// config is the dataset's config named name.
func (d *dataset) config(name string) (Config, bool) {
	for _, c := range d.configs {
		if c.Name == name {
			return c, true
		}
	}
	return Config{}, false
}

// splitsObject is {"<split>": [urls], ...} of a config, in order.
func (f *Fake) splitsObject(d *dataset, c Config) orderedObject {
	out := orderedObject{}
	for _, s := range c.Splits {
		out = append(out, member{s.Name, f.urls(d, c.Name, s.Name)})
	}
	return out
}

// urls is the listing's addresses of a split's shards.
func (f *Fake) urls(d *dataset, config, split string) []string {
	out := []string{}
	for i := range d.files[config+"\x00"+split] {
		out = append(out, f.FileURL(d.id, config, split, i))
	}
	return out
}

// serveResolve answers /datasets/<id>/resolve/<rev>/<config>/<dir>/<file>
// with a redirect to a signed CDN address.
func (f *Fake) serveResolve(w http.ResponseWriter, r *http.Request, segs []string) {
	d, rest := f.lookup(w, segs, "resolve")
	if d == nil {
		return
	}
	if len(rest) != 4 || rest[0] != "refs/convert/parquet" {
		hubError(w, http.StatusNotFound, "EntryNotFound", "Entry not found")
		return
	}
	f.mu.Lock()
	e := f.cdnFiles["/repos/"+d.id+"/"+rest[1]+"/"+rest[2]+"/"+rest[3]]
	var to string
	if e != nil {
		to = f.signedURL(e)
	}
	f.mu.Unlock()
	if e == nil {
		hubError(w, http.StatusNotFound, "EntryNotFound", "Entry not found")
		return
	}
	w.Header().Set("X-Linked-Size", strconv.FormatInt(e.size, 10))
	w.Header().Set("X-Linked-ETag", e.etag)
	http.Redirect(w, r, to, http.StatusFound)
}

// treeEntry is an entry of the tree listing.
type treeEntry struct {
	Type string   `json:"type"`
	OID  string   `json:"oid"`
	Size int64    `json:"size"`
	Path string   `json:"path"`
	LFS  *treeLFS `json:"lfs,omitempty"`
}

type treeLFS struct {
	OID         string `json:"oid"`
	Size        int64  `json:"size"`
	PointerSize int    `json:"pointerSize"`
}

// serveTree answers /api/datasets/<id>/tree/refs%2Fconvert%2Fparquet/<config>/<dir>
// one page at a time (?cursor=<first entry>), with a Link to the next.
func (f *Fake) serveTree(w http.ResponseWriter, r *http.Request, d *dataset, rest []string) {
	if len(rest) != 3 || rest[0] != "refs/convert/parquet" {
		hubError(w, http.StatusNotFound, "EntryNotFound", "Entry not found")
		return
	}
	var files []*entry
	for _, list := range d.files {
		if len(list) > 0 && list[0].config == rest[1] && list[0].dir == rest[2] {
			files = list
		}
	}
	if files == nil {
		hubError(w, http.StatusNotFound, "EntryNotFound", fmt.Sprintf("%s/%s does not exist on \"refs/convert/parquet\"", rest[1], rest[2]))
		return
	}
	from := 0
	if c := r.URL.Query().Get("cursor"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > len(files) {
			hubError(w, http.StatusBadRequest, "", "Invalid cursor")
			return
		}
		from = n
	}
	to := min(from+f.opt.TreePage, len(files))
	out := []treeEntry{}
	for _, e := range files[from:to] {
		oid := strings.Trim(e.etag, `"`)
		out = append(out, treeEntry{Type: "file", OID: oid[:40], Size: e.size, Path: e.config + "/" + e.dir + "/" + e.name(),
			LFS: &treeLFS{OID: oid, Size: e.size, PointerSize: 134}})
	}
	if to < len(files) {
		next := *r.URL
		next.RawQuery = url.Values{"cursor": {strconv.Itoa(to)}}.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, f.APIURL(), next.RequestURI()))
	}
	writeJSON(w, out)
}

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(v)
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []member

type member struct {
	key   string
	value any
}

// MarshalJSON implements json.Marshaler.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
