// Package remote reads a file served over HTTP as an io.ReaderAt, with
// HTTP Range requests (RFC 9110 §14: "Range: bytes=first-last", answered by
// 206 Partial Content), so that the lazy decoder reads a multi-GB file on a
// static host by transferring little more than its footer and the record
// batches in view. It is pure Go: the transport is a Fetcher (the browser's
// fetch in the page, net/http natively and in tests).
//
// Entry points: Open (probe the file: size, Range support, validators),
// Reader.ReadAt (range reads: small ones in cached 4 KiB pieces, medium
// ones in cached, coalesced blocks, big ones exact, kept only in the
// cache's free room, so that a scan over the file transfers its bytes and
// never evicts the blocks on screen), Reader.Stats, and the errors a page shows (ErrNoRange,
// ErrChanged, *StatusError).
//
// Every request is a GET with one "Range: bytes=first-last" header and no
// other (no suffix ranges, no multiple ranges, no custom headers), or the
// HEAD and "bytes=0-" of Open's size probe (Request.Get, a GET without any
// header, is for other packages' listings).
//
// A file whose address redirects (a Hugging Face "resolve" address answers
// 302 to a signed CDN address valid about an hour) is read at the address
// Open's response came from (Response.URL); when that address refuses a
// read (400, 401, 403, 410, or no answer), the file's own address is asked
// once more for a fresh one (Stats.Resolves), and a second failure is the
// read's error.
//
// Facts it relies on (checked in browsers; see the README's section on
// files by URL): a single-range Range request header is CORS-safelisted (no
// preflight); a cross-origin response's Content-Range is invisible unless
// the server exposes it (Access-Control-Expose-Headers), but Content-Length
// is always visible. So Open asks for the first block; when the 206's
// Content-Range is not visible, the file's size comes from the
// Content-Length of a HEAD request (HEAD is a CORS-safelisted method), or,
// where HEAD fails (URLs signed for GET only), from a "bytes=0-" request
// whose body is dropped after its headers. Some servers and redirects drop
// Range and answer 200: Open reports ErrNoRange and the caller downloads the
// file whole instead.
package remote
