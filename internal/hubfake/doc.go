// Package hubfake emulates the Hugging Face Hub for tests: the Hub's API
// and file addresses on one origin, its file CDN on another, with net/http
// only. Tests register datasets (Parquet shards as bytes or as paths), then
// read them as a page would, and assert on what was asked (Count, Hits) and
// on what a browser would have refused (Violations, Options.Fail).
//
// Entry points: Start (two httptest servers, closed at the test's end) or
// New with API and CDN (handlers to mount yourself, told their origins by
// SetOrigins); Fake.Add registers a dataset; Fake.Advance moves the clock
// signed addresses expire by; Fake.Count, Fake.Hits and Fake.Violations.
//
// What it answers, on the API origin (formats from the dataset viewer's
// documentation, "List Parquet files", section "Using the Hugging Face Hub
// API": huggingface/dataset-viewer docs/source/parquet.md):
//
//	GET /api/datasets/<id>/parquet
//	    {"<config>": {"<split>": ["<api>/api/datasets/<id>/parquet/<config>/<split>/0.parquet", ...]}}
//	GET /api/datasets/<id>/parquet/<config>
//	    {"<split>": [...]}
//	GET /api/datasets/<id>/parquet/<config>/<split>
//	    ["<api>/api/datasets/<id>/parquet/<config>/<split>/0.parquet", ...]
//	GET /api/datasets/<id>/parquet/<config>/<split>/<n>.parquet
//	    302 to <api>/datasets/<id>/resolve/refs%2Fconvert%2Fparquet/<config>/<split>/<nnnn>.parquet
//	    ("redirects to" in the same documentation)
//	GET /datasets/<id>/resolve/refs%2Fconvert%2Fparquet/<config>/<split>/<nnnn>.parquet
//	    302 to <cdn>/repos/<id>/<config>/<split>/<nnnn>.parquet?Expires=<unix>&Signature=<hmac>
//	GET /api/datasets/<id>/tree/refs%2Fconvert%2Fparquet/<config>/<split>[?cursor=<c>]
//	    [{"type":"file","oid":…,"size":…,"path":"<config>/<split>/0000.parquet","lfs":{…}}, ...]
//	    paged by a Link: <…?cursor=…>; rel="next" header (the tree listing
//	    @huggingface/hub's listFiles pages through)
//
// A split converted partly is stored under "partial-<split>" (parquet.md,
// "Partially converted datasets"). Errors are the Hub's: a JSON body
// {"error": "…"} with X-Error-Code and X-Error-Message headers; a dataset
// that does not exist or is private answers 401 RepoNotFound to a request
// without a login, a gated one 401 GatedRepo (huggingface_hub's
// hf_raise_for_status: "401 is misleading as it is returned for private
// and gated repos if user is not authenticated, missing repos"); a missing
// config or split 404; past Options.RateLimit requests in a window, 429
// with Retry-After and the RateLimit headers the Hub sends. The API origin
// allows the request's origin (Access-Control-Allow-Origin echoes Origin)
// and exposes the headers huggingface.co exposes (APIExposeHeaders).
//
// On the CDN origin: the bytes with http.ServeContent (single Range → 206),
// an ETag, Access-Control-Allow-Origin: * and the exposed headers observed
// on the Hub's CDN (CDNExposeHeaders, as a datasets client logged them); a
// signed address past its expiry, or with a wrong signature, answers 403.
//
// Both origins refuse, and report as a violation, what a page's fetch of a
// public file must never cause: a CORS preflight (OPTIONS), a method other
// than GET or HEAD, a Range header that is not one "bytes=a-b" or "bytes=a-"
// (a suffix or several ranges), and any request header a browser would not
// add by itself to a fetch without custom headers (Authorization, Cookie,
// X-…). The answer then has no CORS headers, as a browser would see it.
package hubfake
