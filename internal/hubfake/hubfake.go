package hubfake

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Access is who may read a dataset.
type Access int

// Accesses of a dataset.
const (
	Public  Access = iota
	Gated          // 401 GatedRepo to everything of it (no login is ever sent)
	Private        // 401 RepoNotFound, as a dataset that does not exist
)

// File is one Parquet shard: Data, or the file at Path.
type File struct {
	Data []byte
	Path string
}

// Split is a split's shards, in order. Partial stores them under
// "partial-<Name>" (a partial conversion); the listing still says Name.
type Split struct {
	Name    string
	Files   []File
	Partial bool
}

// Config is a config (a subset) and its splits, in listing order.
type Config struct {
	Name   string
	Splits []Split
}

// Dataset is a dataset's Parquet conversion.
type Dataset struct {
	Configs []Config
	Access  Access
}

// Kind is a kind of request, for Count.
type Kind int

// Kinds of requests.
const (
	Listing     Kind = iota // /api/datasets/<id>/parquet[/<config>[/<split>]]
	Tree                    // /api/datasets/<id>/tree/...
	APIFile                 // /api/datasets/<id>/parquet/<config>/<split>/<n>.parquet (302 to Resolve)
	Resolve                 // /datasets/<id>/resolve/... (302 to the CDN)
	CDN                     // any request to the CDN, served or refused
	Expired                 // a CDN request refused because its address had expired
	RateLimited             // a 429
	nKinds
)

// The Access-Control-Expose-Headers of the Hub's origins as observed:
// huggingface.co's (its responses as logged by clients in 2025–2026) and
// its file CDN's (as a datasets client logged them, January 2026). Neither exposes
// Retry-After: a page does not see it.
const (
	APIExposeHeaders = "X-Repo-Commit,X-Request-Id,X-Error-Code,X-Error-Message,X-Total-Count,ETag,Link,Accept-Ranges,Content-Range,X-Linked-Size,X-Linked-ETag,X-Xet-Hash"
	CDNExposeHeaders = "Accept-Ranges, Content-Range, Content-Type, Content-Disposition, ETag, X-Cache"
)

// Options tune a Fake. Zero values are the defaults.
type Options struct {
	// Expiry is how long a signed CDN address is valid (1 hour).
	Expiry time.Duration
	// RateLimit is how many API-origin requests are answered per
	// RateWindow before 429s (0: no limit); RateWindow is 5 minutes (the
	// Hub's "fixed window" of 300 s).
	RateLimit  int
	RateWindow time.Duration
	// TreePage is how many entries a page of the tree listing holds (1000).
	TreePage int
	// APIExpose and CDNExpose replace the exposed headers of each origin
	// (APIExposeHeaders, CDNExposeHeaders); "-" exposes none.
	APIExpose, CDNExpose string
	// CDNErrorsWithoutCORS leaves the CORS headers out of the CDN's 403s,
	// so that a browser sees an expired address as a network error.
	CDNErrorsWithoutCORS bool
	// Fail is called with each violation (see Violations); Start sets it
	// to the test's Errorf.
	Fail func(msg string)
	// Start is the clock's start (2026-01-01 00:00 UTC).
	Start time.Time
}

// Fake is an emulated Hub. Its methods are safe for concurrent use.
type Fake struct {
	opt Options
	key []byte

	mu          sync.Mutex
	api, cdn    string // origins (scheme://host[:port]), no trailing slash
	datasets    map[string]*dataset
	cdnFiles    map[string]*entry // by the CDN path (unescaped)
	now         time.Time
	windowStart time.Time
	windowCount int
	counts      [nKinds]int
	hits        map[string]int
	violations  []string
}

// dataset is a registered Dataset.
type dataset struct {
	id      string
	access  Access
	configs []Config
	files   map[string][]*entry // by config + "\x00" + split
}

// entry is one registered shard.
type entry struct {
	file          File
	size          int64
	etag          string // quoted
	id            string
	config, split string
	dir           string // split or partial-split
	index         int
}

// name is the shard's file name in the conversion: 0000.parquet.
func (e *entry) name() string { return fmt.Sprintf("%04d.parquet", e.index) }

// New returns a Fake with no origins yet: mount API and CDN on two
// servers and call SetOrigins (or use Start).
func New(opt Options) *Fake {
	if opt.Expiry <= 0 {
		opt.Expiry = time.Hour
	}
	if opt.RateWindow <= 0 {
		opt.RateWindow = 5 * time.Minute
	}
	if opt.TreePage <= 0 {
		opt.TreePage = 1000
	}
	if opt.APIExpose == "" {
		opt.APIExpose = APIExposeHeaders
	}
	if opt.CDNExpose == "" {
		opt.CDNExpose = CDNExposeHeaders
	}
	if opt.Start.IsZero() {
		opt.Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	key := make([]byte, 32)
	rand.Read(key)
	return &Fake{opt: opt, key: key, datasets: map[string]*dataset{}, cdnFiles: map[string]*entry{},
		now: opt.Start, windowStart: opt.Start, hits: map[string]int{}}
}

// TB is what Start needs of a test (testing.TB has it).
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Start starts the Fake's two origins as httptest servers, closed when the
// test ends; violations fail the test unless opt.Fail is set.
func Start(t TB, opt Options) *Fake {
	t.Helper()
	if opt.Fail == nil {
		opt.Fail = func(msg string) { t.Errorf("hubfake: %s", msg) }
	}
	f := New(opt)
	api := httptest.NewServer(f.API())
	cdn := httptest.NewServer(f.CDN())
	t.Cleanup(api.Close)
	t.Cleanup(cdn.Close)
	f.SetOrigins(api.URL, cdn.URL)
	return f
}

// SetOrigins tells the Fake where its API and CDN handlers are served, as
// scheme://host:port: the addresses it lists and redirects to.
func (f *Fake) SetOrigins(api, cdn string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.api, f.cdn = strings.TrimSuffix(api, "/"), strings.TrimSuffix(cdn, "/")
}

// APIURL is the API origin, the hub= of a page (like https://huggingface.co).
func (f *Fake) APIURL() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.api
}

// CDNURL is the CDN origin.
func (f *Fake) CDNURL() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cdn
}

// idPattern is a dataset id the Hub accepts: name or owner/name.
var idPattern = regexp.MustCompile(`^([A-Za-z0-9_.-]+/)?[A-Za-z0-9_.-]+$`)

// Add registers (or replaces) the dataset id ("owner/name" or "name").
// Files given by path are read at each request; their size is taken now.
func (f *Fake) Add(id string, d Dataset) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("hubfake: %q is not a dataset id", id)
	}
	ds := &dataset{id: id, access: d.Access, configs: d.Configs, files: map[string][]*entry{}}
	var entries []*entry
	for _, c := range d.Configs {
		for _, s := range c.Splits {
			dir := s.Name
			if s.Partial {
				dir = "partial-" + s.Name
			}
			for i, file := range s.Files {
				e := &entry{file: file, id: id, config: c.Name, split: s.Name, dir: dir, index: i}
				if err := e.describe(); err != nil {
					return err
				}
				ds.files[c.Name+"\x00"+s.Name] = append(ds.files[c.Name+"\x00"+s.Name], e)
				entries = append(entries, e)
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.datasets[id] = ds
	for _, e := range entries {
		f.cdnFiles[e.cdnPath()] = e
	}
	return nil
}

// describe sets the entry's size and ETag (a hash of the bytes, or of the
// path, size and modification time of a file on disk).
func (e *entry) describe() error {
	h := sha256.New()
	if e.file.Path != "" {
		st, err := os.Stat(e.file.Path)
		if err != nil {
			return fmt.Errorf("hubfake: %w", err)
		}
		e.size = st.Size()
		fmt.Fprintf(h, "%s %d %d", e.file.Path, st.Size(), st.ModTime().UnixNano())
	} else {
		e.size = int64(len(e.file.Data))
		h.Write(e.file.Data)
	}
	e.etag = `"` + hex.EncodeToString(h.Sum(nil)) + `"`
	return nil
}

// cdnPath is the entry's path on the CDN, unescaped.
func (e *entry) cdnPath() string {
	return "/repos/" + e.id + "/" + e.config + "/" + e.dir + "/" + e.name()
}

// escapeID escapes a dataset id's segments for a URL path.
func escapeID(id string) string {
	owner, name, ok := strings.Cut(id, "/")
	if !ok {
		return url.PathEscape(id)
	}
	return url.PathEscape(owner) + "/" + url.PathEscape(name)
}

// ListingURL is the address of the dataset's listing of Parquet URLs.
func (f *Fake) ListingURL(id string) string {
	return f.APIURL() + "/api/datasets/" + escapeID(id) + "/parquet"
}

// FileURL is the address the listing gives for shard n of a split (it
// redirects to ResolveURL).
func (f *Fake) FileURL(id, config, split string, n int) string {
	return fmt.Sprintf("%s/api/datasets/%s/parquet/%s/%s/%d.parquet", f.APIURL(), escapeID(id), url.PathEscape(config), url.PathEscape(split), n)
}

// ResolveURL is the Hub's resolve address of a shard (dir is the split, or
// "partial-" and the split): it redirects to a signed CDN address.
func (f *Fake) ResolveURL(id, config, dir string, n int) string {
	return fmt.Sprintf("%s/datasets/%s/resolve/refs%%2Fconvert%%2Fparquet/%s/%s/%04d.parquet", f.APIURL(), escapeID(id), url.PathEscape(config), url.PathEscape(dir), n)
}

// signedURL is the CDN address of e, valid until now + Expiry. Call with
// f.mu held.
func (f *Fake) signedURL(e *entry) string {
	expires := f.now.Add(f.opt.Expiry).Unix()
	p := e.cdnPath()
	u := url.URL{Path: p}
	return fmt.Sprintf("%s%s?Expires=%d&Signature=%s", f.cdn, u.EscapedPath(), expires, f.sign(p, expires))
}

// sign is the signature of a CDN path valid until expires.
func (f *Fake) sign(path string, expires int64) string {
	m := hmac.New(sha256.New, f.key)
	fmt.Fprintf(m, "%s\n%d", path, expires)
	return hex.EncodeToString(m.Sum(nil))
}

// Advance moves the Fake's clock (signed addresses' expiry, the rate
// limit's window) by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// Now is the Fake's clock.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Count is how many requests of kind k were made, whatever the answer (a
// 429 counts as its kind and as RateLimited).
func (f *Fake) Count(k Kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[k]
}

// Hits is how many requests were made for path (unescaped, without the
// query), on either origin.
func (f *Fake) Hits(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[path]
}

// ResetCounts sets Count and Hits back to zero (not the rate limit's window).
func (f *Fake) ResetCounts() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts = [nKinds]int{}
	f.hits = map[string]int{}
}

// Violations are the requests a browser's fetch of public files would
// never have made, one sentence each.
func (f *Fake) Violations() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.violations...)
}

// count records a request of kind k. Call with f.mu held.
func (f *Fake) count(k Kind) { f.counts[k]++ }

// violate records a violation and reports it to Options.Fail.
func (f *Fake) violate(msg string) {
	f.mu.Lock()
	f.violations = append(f.violations, msg)
	f.mu.Unlock()
	if f.opt.Fail != nil {
		f.opt.Fail(msg)
	}
}

// hit records a request for r's path.
func (f *Fake) hit(r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hits[r.URL.Path]++
}
