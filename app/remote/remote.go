package remote

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Request is one GET of a Fetcher: bytes Off to Off+N-1 of URL with a Range
// header, or from Off to the end ("bytes=Off-") when N < 0; or, with Head,
// a HEAD request without a Range header (for the file's Content-Length);
// or, with Get, a plain GET without any header (a listing, a list of links).
type Request struct {
	URL    string
	Off, N int64
	Head   bool
	Get    bool
}

// Header is the Range header value of the request ("" for none: send no
// header at all).
func (r Request) Header() string {
	if r.Head || r.Get {
		return ""
	}
	if r.N < 0 {
		return fmt.Sprintf("bytes=%d-", r.Off)
	}
	return fmt.Sprintf("bytes=%d-%d", r.Off, r.Off+r.N-1)
}

// Response is what a Fetcher returns: the status, the body (the caller
// closes it; closing early aborts the transfer) and the response headers the
// page can see. ContentLength is -1 when unknown; ContentRange is "" when
// absent or not exposed to the page. URL is the address that answered,
// after the redirects the Fetcher followed (the browser's response.url,
// net/http's resp.Request.URL); "" when the Fetcher does not know it.
// Header, when not nil, gives any other response header the page can see
// by name ("" when absent or not exposed), such as Link or Retry-After.
type Response struct {
	Status        int
	Body          io.ReadCloser
	ContentLength int64
	ContentRange  string
	ETag          string
	LastModified  string
	URL           string
	Header        func(name string) string
}

// Get is the response header name, "" when absent, not exposed or not
// known (Header nil).
func (r *Response) Get(name string) string {
	if r.Header == nil {
		return ""
	}
	return r.Header(name)
}

// A Fetcher performs one HTTP GET with a Range header (or one HEAD). An error is a
// network failure (including CORS refusals, which browsers do not tell apart
// from network errors); HTTP error statuses are Responses.
type Fetcher interface {
	Fetch(ctx context.Context, req Request) (*Response, error)
}

// ErrNoRange is the error of Open when the server answered the Range
// request with the whole file (200 OK): it, or a redirect on the way, does
// not honour HTTP Range. Open's Response is then the whole file's, for a
// streaming download.
var ErrNoRange = errors.New("the server does not honour HTTP Range requests (it answered 200 with the whole file)")

// ErrChanged is the error of a read whose response carries another ETag or
// Last-Modified than the first response: the file changed while it was
// being read, and the bytes read so far belong to another version.
var ErrChanged = errors.New("the file changed on the server while it was being read (its ETag or Last-Modified changed)")

// StatusError is an HTTP error status (or an unexpected success status)
// answered to a request.
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string {
	switch e.Status {
	case 404:
		return fmt.Sprintf("%s was not found on the server (HTTP 404)", e.URL)
	case 401, 403:
		return fmt.Sprintf("the server refused access to %s (HTTP %d): it may need a login, or a signed URL may have expired", e.URL, e.Status)
	case 416:
		return fmt.Sprintf("the server says the range asked of %s is not in the file (HTTP 416): the file may have changed", e.URL)
	}
	return fmt.Sprintf("the server answered HTTP %d for %s", e.Status, e.URL)
}

// Options tune a Reader.
type Options struct {
	// Block is the unit of caching and of coalesced requests, in bytes
	// (DefaultBlock when 0). Reads are rounded out to whole blocks.
	Block int64
	// Cache is how many bytes of blocks are kept (DefaultCache when 0),
	// least recently used first out.
	Cache int64
	// Probe is how many bytes of the start Open keeps from its first
	// response (DefaultBlock when 0).
	Probe int64
	// Exact is the size from which a read is exact (a quarter of Block
	// when 0, negative for never): its bytes not cached are fetched as
	// they are, not rounded out to blocks, and kept only while the cache
	// has room for them, first out when blocks need it (see
	// Reader.ReadAt). A read that large, rounded out to whole blocks,
	// would transfer up to three times its bytes: of a sort's run of a
	// column's buffers (240 KB a record batch), the two or three blocks
	// it touches.
	Exact int64
}

// Defaults of Options.
const (
	DefaultBlock = 256 << 10
	DefaultCache = 32 << 20
)

// Stats count what a Reader asked of the server.
type Stats struct {
	Requests int   // responses read (Open's included)
	Bytes    int64 // body bytes read from them
	Resolves int   // times the file's address was asked again after the address it redirected to refused a read
}

// Reader reads a remote file by range. It is safe for concurrent use;
// concurrent reads of the same block make one request.
//
// When the file's address redirects (a Hugging Face "resolve" address
// answers 302 to a signed, expiring address on its CDN), the redirect is
// followed once: later reads go straight to the address Open's response
// came from. When that address refuses a read (HTTP 400, 401, 403 or 410,
// or no answer: a signed address past its expiry), the read goes once more
// to the file's own address, which redirects to a fresh one; concurrent
// refused reads share that one re-resolution. A second failure is the
// read's error.
type Reader struct {
	url   string
	f     Fetcher
	size  int64
	etag  string
	mod   string
	block int64
	exact int64 // reads from this size are exact (0: none)

	ctx    context.Context
	cancel context.CancelFunc

	resolveMu sync.Mutex // held while the address is asked again

	mu      sync.Mutex
	final   string           // the address reads go to when the file's redirects ("": url)
	gen     int              // incremented each time final is set again
	blocks  map[int64]*block // by block number
	lru     []int64          // block numbers, least recent first
	cached  int64            // bytes held by blocks
	limit   int64
	stats   Stats
	changed bool
	pieces  []piece // small reads' bytes, oldest first
	runs    []piece // exact reads' bytes kept in the cache's free room, oldest first
	runHeld int64   // bytes held by runs
}

// block is one cached block, or one being fetched (done open).
type block struct {
	data []byte
	err  error
	done chan struct{}
}

// Open probes the file at url: it asks for its first Options.Probe bytes,
// keeps them, records the validators (ETag, Last-Modified) and takes the
// file's size from the 206 response's Content-Range when visible, else
// from a HEAD request's Content-Length, else from the Content-Length of a
// "bytes=0-" request whose body it does not read. It returns ErrNoRange, with
// the open 200 Response for the caller to download (size -1 when not
// known), when the server answers 200; a *StatusError for an HTTP error; the
// Fetcher's error for a network failure. ctx bounds Open's request only.
func Open(ctx context.Context, f Fetcher, url string, opt Options) (*Reader, *Response, error) {
	opt = opt.withDefaults()
	resp, err := f.Fetch(ctx, Request{URL: url, Off: 0, N: opt.Probe})
	if err != nil {
		return nil, nil, err
	}
	switch resp.Status {
	case 206:
	case 200:
		return nil, resp, ErrNoRange
	default:
		resp.Body.Close()
		return nil, nil, &StatusError{URL: url, Status: resp.Status}
	}
	defer resp.Body.Close()
	// The probe: up to opt.Probe bytes (fewer when the file is shorter).
	probe := make([]byte, opt.Probe)
	n, err := io.ReadFull(resp.Body, probe)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		probe = probe[:n]
	case err != nil:
		return nil, nil, fmt.Errorf("reading the start of %s: %w", url, err)
	}
	stats := Stats{Requests: 1, Bytes: int64(n)}
	size, ok := rangeTotal(resp.ContentRange)
	if !ok && int64(n) < opt.Probe {
		size, ok = int64(n), true // the whole file came with the probe
	}
	final := redirected(url, resp)
	if !ok {
		size, err = probeSize(ctx, f, cmp.Or(final, url))
		stats.Requests++
		if err != nil {
			return nil, nil, err
		}
	}
	if size < int64(len(probe)) {
		return nil, nil, fmt.Errorf("the server says %s is %d bytes but sent %d", url, size, len(probe))
	}
	rctx, cancel := context.WithCancel(context.Background())
	r := &Reader{url: url, f: f, size: size, etag: resp.ETag, mod: resp.LastModified, block: opt.Block, exact: opt.Exact,
		ctx: rctx, cancel: cancel, final: final, blocks: map[int64]*block{}, limit: opt.Cache, stats: stats}
	r.putProbe(probe)
	return r, nil, nil
}

// withDefaults returns opt with its zero or negative fields set as Options
// documents: DefaultBlock, DefaultCache, a probe of one block, and exact
// reads up to a quarter block (none when Exact is negative).
func (opt Options) withDefaults() Options {
	if opt.Block <= 0 {
		opt.Block = DefaultBlock
	}
	if opt.Cache <= 0 {
		opt.Cache = DefaultCache
	}
	if opt.Probe <= 0 {
		opt.Probe = opt.Block
	}
	switch {
	case opt.Exact == 0:
		opt.Exact = opt.Block / 4
	case opt.Exact < 0:
		opt.Exact = 0
	}
	return opt
}

// putProbe caches the whole blocks of probe, the file's first bytes, and
// its last, shorter block when probe holds the whole file.
func (r *Reader) putProbe(probe []byte) {
	for b := int64(0); b*r.block < int64(len(probe)); b++ {
		end := (b + 1) * r.block
		if end > int64(len(probe)) {
			if int64(len(probe)) < r.size {
				break
			}
			end = int64(len(probe))
		}
		r.put(b, probe[b*r.block:end])
	}
}

// redirected is the address resp came from when the Fetcher followed a
// redirect from url to it, else "".
func redirected(url string, resp *Response) string {
	if resp == nil || resp.URL == "" || resp.URL == url {
		return ""
	}
	return resp.URL
}

// probeSize asks for the size of the file at url when Content-Range is not
// visible: the Content-Length of a HEAD request, else that of a "bytes=0-"
// GET, whose body is closed unread.
func probeSize(ctx context.Context, f Fetcher, url string) (int64, error) {
	if resp, err := f.Fetch(ctx, Request{URL: url, Head: true}); err == nil {
		resp.Body.Close()
		if resp.Status == 200 && resp.ContentLength >= 0 {
			return resp.ContentLength, nil
		}
	}
	resp, err := f.Fetch(ctx, Request{URL: url, Off: 0, N: -1})
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	if (resp.Status == 206 || resp.Status == 200) && resp.ContentLength >= 0 {
		return resp.ContentLength, nil
	}
	return 0, fmt.Errorf("the server did not say how large %s is (no Content-Length, and Content-Range not exposed to this page)", url)
}

// rangeTotal reads the complete length of a Content-Range header
// ("bytes 0-99/1234"); ok is false when it is absent or "*".
func rangeTotal(h string) (int64, bool) {
	i := strings.LastIndexByte(h, '/')
	if !strings.HasPrefix(h, "bytes ") || i < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(h[i+1:], 10, 64)
	return n, err == nil && n >= 0
}

// Size is the file's length in bytes.
func (r *Reader) Size() int64 { return r.size }

// Stats returns the requests made and bytes received so far.
func (r *Reader) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// Close cancels the requests under way; later reads fail.
func (r *Reader) Close() { r.cancel() }

// ReadAt reads len(p) bytes at off (io.ReaderAt). By its size:
//   - a small read (up to SmallRead) whose blocks are not all cached
//     fetches its bytes rounded out to 4 KiB, kept among the last few such
//     pieces (a record batch's header, the footer);
//   - an exact read (from Options.Exact, a quarter block) takes what the
//     cache holds of it (blocks, or being fetched, earlier exact reads'
//     runs and small reads' pieces) from the cache, and fetches the rest
//     exactly, a request per stretch between them. What it fetched is kept as a run only
//     while the cache has room for it, and runs go first when blocks need
//     room: a scan over the file (a sort reading a column's buffers, batch
//     by batch) transfers the bytes it reads, not the blocks around them,
//     never evicts the blocks of the rows on screen, and, while the cache
//     holds it, is free to run again (a query run after another);
//   - other reads take whole blocks, from the cache or fetched, missing
//     neighbours in one request, and cache them.
//
// It returns io.EOF when the read reaches the end of the file, ErrChanged
// when the file changed on the server, a *StatusError or the Fetcher's
// error otherwise.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("remote: negative offset")
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), r.size-off)
	first, last := off/r.block, (off+want-1)/r.block
	if data := r.inRun(off, want); data != nil {
		n := copy(p, data)
		if int64(n) < int64(len(p)) {
			return n, io.EOF
		}
		return n, nil
	}
	if want <= SmallRead && !r.cachedBlocks(first, last) {
		// A small read (a record batch's header, while indexing; the
		// footer) fetches its bytes rounded out to pieceAlign, kept among
		// the last few pieces: blocks would cost a block each.
		data, err := r.piece(off, want)
		if err != nil {
			return 0, err
		}
		n := copy(p, data)
		if int64(n) < int64(len(p)) {
			return n, io.EOF
		}
		return n, nil
	}
	if r.exact > 0 && want >= r.exact && !r.cachedBlocks(first, last) {
		n, err := r.readExact(p[:want], off)
		if err == nil && int64(n) < int64(len(p)) {
			err = io.EOF
		}
		return n, err
	}
	n := 0
	for b := first; b <= last; {
		data, next, err := r.get(b, last)
		if err != nil {
			return n, err
		}
		// data holds blocks b..next-1 contiguously.
		start := max(off, b*r.block) - b*r.block
		end := min(off+want, next*r.block) - b*r.block
		if end > int64(len(data)) {
			return n, io.ErrUnexpectedEOF
		}
		n += copy(p[n:], data[start:end])
		b = next
	}
	if int64(n) < int64(len(p)) {
		return n, io.EOF
	}
	return n, nil
}

// SmallRead is the largest read that fetches only its own bytes when they
// are not cached, rather than whole blocks.
const SmallRead = 16 << 10

// pieceAlign is the alignment small reads are rounded out to, and
// maxPieces how many such pieces are kept.
const (
	pieceAlign = 4 << 10
	maxPieces  = 64
)

// piece returns bytes off to off+n-1 from a kept piece, or fetches them
// rounded out to pieceAlign and keeps that piece.
func (r *Reader) piece(off, n int64) ([]byte, error) {
	r.mu.Lock()
	if r.changed {
		r.mu.Unlock()
		return nil, ErrChanged
	}
	for _, pc := range r.pieces {
		if off >= pc.off && off+n <= pc.off+int64(len(pc.data)) {
			r.mu.Unlock()
			return pc.data[off-pc.off : off-pc.off+n], nil
		}
	}
	r.mu.Unlock()
	// Aligned, at least pieceAlign long, inside the file (near its end, the
	// piece reaches back: the footer's length is read before the footer).
	start := off / pieceAlign * pieceAlign
	end := max((off+n+pieceAlign-1)/pieceAlign*pieceAlign, start+pieceAlign)
	if end > r.size {
		end = r.size
		start = max(0, min(start, (end-pieceAlign)/pieceAlign*pieceAlign))
	}
	data, err := r.fetch(start, end-start)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.pieces = append(r.pieces, piece{start, data})
	if len(r.pieces) > maxPieces {
		r.pieces = r.pieces[1:]
	}
	r.mu.Unlock()
	return data[off-start : off-start+n], nil
}

// readExact reads len(p) bytes at off, all in the file: what cached (or
// being fetched) blocks, kept runs and pieces hold of them from those, each
// stretch between with one request for exactly its bytes, kept as a run
// when the cache has room.
func (r *Reader) readExact(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	first, last := off/r.block, (end-1)/r.block
	held, runs, err := r.heldFor(off, end)
	if err != nil {
		return 0, err
	}
	for pos := off; pos < end; {
		b := pos / r.block
		if blk := held[b-first]; blk != nil {
			<-blk.done
			if blk.err != nil {
				return int(pos - off), blk.err
			}
			to := min(end, (b+1)*r.block)
			if to-b*r.block > int64(len(blk.data)) {
				return int(pos - off), io.ErrUnexpectedEOF
			}
			copy(p[pos-off:], blk.data[pos-b*r.block:to-b*r.block])
			pos = to
			continue
		}
		from, reach, next := reachingRun(runs, pos, end)
		if reach > pos {
			to := min(end, reach)
			copy(p[pos-off:], from.data[pos-from.off:to-from.off])
			pos = to
			continue
		}
		for k := b + 1; k <= last && k*r.block < next; k++ {
			if held[k-first] != nil {
				next = k * r.block
				break
			}
		}
		data, err := r.fetch(pos, next-pos)
		if err != nil {
			return int(pos - off), err
		}
		copy(p[pos-off:], data)
		r.keepRun(pos, data)
		pos = next
	}
	return len(p), nil
}

// heldFor returns what the cache holds of the bytes off..end-1, taken under
// the lock: per block from off's to end-1's, the cached one (touched) or
// nil, and the kept runs and small pieces overlapping those bytes. It
// returns ErrChanged when the file has changed.
func (r *Reader) heldFor(off, end int64) (held []*block, runs []piece, err error) {
	first, last := off/r.block, (end-1)/r.block
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.changed {
		return nil, nil, ErrChanged
	}
	held = make([]*block, last-first+1)
	for b := first; b <= last; b++ {
		if blk, ok := r.blocks[b]; ok {
			held[b-first] = blk
			r.touch(b)
		}
	}
	for _, rn := range r.runs {
		if rn.off < end && rn.off+int64(len(rn.data)) > off {
			runs = append(runs, rn)
		}
	}
	for _, pc := range r.pieces {
		if pc.off < end && pc.off+int64(len(pc.data)) > off {
			runs = append(runs, pc)
		}
	}
	return held, runs, nil
}

// reachingRun returns, of runs, the one holding pos that reaches furthest
// and where it reaches (pos when none holds it), and the offset, at most
// end, where the next run after pos starts.
func reachingRun(runs []piece, pos, end int64) (from piece, reach, next int64) {
	next, reach = end, pos
	for _, rn := range runs {
		rEnd := rn.off + int64(len(rn.data))
		switch {
		case rn.off <= pos && rEnd > reach:
			from, reach = rn, rEnd
		case rn.off > pos:
			next = min(next, rn.off)
		}
	}
	return from, reach, next
}

// inRun returns the n bytes at off when a kept run holds them all.
func (r *Reader) inRun(off, n int64) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.changed {
		return nil // the read says ErrChanged
	}
	for _, rn := range r.runs {
		if off >= rn.off && off+n <= rn.off+int64(len(rn.data)) {
			return rn.data[off-rn.off : off-rn.off+n]
		}
	}
	return nil
}

// keepRun keeps an exact read's bytes when the cache has room for them.
func (r *Reader) keepRun(off int64, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cached+r.runHeld+int64(len(data)) <= r.limit {
		r.runs = append(r.runs, piece{off, data})
		r.runHeld += int64(len(data))
	}
}

// piece is the bytes of a small read, from off.
type piece struct {
	off  int64
	data []byte
}

// cachedBlocks reports whether blocks first to last are all cached (or
// being fetched).
func (r *Reader) cachedBlocks(first, last int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for b := first; b <= last; b++ {
		if _, ok := r.blocks[b]; !ok {
			return false
		}
	}
	return true
}

// get returns block b and, when they are missing too, the following ones up
// to last, fetched in one request; next is the first block not included.
func (r *Reader) get(b, last int64) (data []byte, next int64, err error) {
	r.mu.Lock()
	if r.changed {
		r.mu.Unlock()
		return nil, 0, ErrChanged
	}
	if blk, ok := r.blocks[b]; ok {
		r.touch(b)
		r.mu.Unlock()
		<-blk.done
		if blk.err != nil {
			return nil, 0, blk.err
		}
		return blk.data, b + 1, nil
	}
	// A run of missing blocks: claim them all, fetch them in one request.
	end := b + 1
	for end <= last {
		if _, ok := r.blocks[end]; ok {
			break
		}
		end++
	}
	claimed := make([]*block, 0, end-b)
	for k := b; k < end; k++ {
		blk := &block{done: make(chan struct{})}
		r.blocks[k] = blk
		claimed = append(claimed, blk)
	}
	r.mu.Unlock()

	off := b * r.block
	n := min(end*r.block, r.size) - off
	data, err = r.fetch(off, n)
	r.mu.Lock()
	for i, blk := range claimed {
		k := b + int64(i)
		if err != nil {
			blk.err = err
			delete(r.blocks, k) // a later read tries again
		} else {
			blk.data = data[int64(i)*r.block : min(int64(i+1)*r.block, int64(len(data)))]
			r.cached += int64(len(blk.data))
			r.lru = append(r.lru, k)
		}
		close(blk.done)
	}
	r.evict()
	r.mu.Unlock()
	if err != nil {
		return nil, 0, err
	}
	return data, end, nil
}

// fetch reads bytes off to off+n-1 in one request.
func (r *Reader) fetch(off, n int64) ([]byte, error) {
	r.mu.Lock()
	changed := r.changed
	r.mu.Unlock()
	if changed {
		return nil, ErrChanged
	}
	resp, err := r.send(Request{Off: off, N: n})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.Status == 200:
		return nil, fmt.Errorf("the server stopped honouring HTTP Range for %s (it answered 200 to a range request, as some redirects do)", r.url)
	case resp.Status != 206:
		return nil, &StatusError{URL: r.url, Status: resp.Status}
	case (r.etag != "" && resp.ETag != r.etag) || (r.mod != "" && resp.LastModified != r.mod):
		r.mu.Lock()
		r.changed = true
		r.mu.Unlock()
		return nil, ErrChanged
	}
	if total, ok := rangeTotal(resp.ContentRange); ok && total != r.size {
		r.mu.Lock()
		r.changed = true
		r.mu.Unlock()
		return nil, ErrChanged
	}
	if resp.ContentRange != "" && !strings.HasPrefix(resp.ContentRange, fmt.Sprintf("bytes %d-", off)) {
		return nil, fmt.Errorf("the server answered the range of bytes %d-%d of %s with %q", off, off+n-1, r.url, resp.ContentRange)
	}
	data := make([]byte, n)
	got, err := io.ReadFull(resp.Body, data)
	r.mu.Lock()
	r.stats.Requests++
	r.stats.Bytes += int64(got)
	r.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("reading bytes %d-%d of %s: %w", off, off+n-1, r.url, err)
	}
	return data, nil
}

// send makes req (its URL set here) to the address the file redirected to,
// or to the file's own address. When the redirect's address refuses it
// (refused), it asks the file's own address once, whose redirect becomes
// the address of later reads, unless another read did so meanwhile: then
// it asks the address that one found. A failure then is the answer.
func (r *Reader) send(req Request) (*Response, error) {
	r.mu.Lock()
	target, gen := r.final, r.gen
	r.mu.Unlock()
	if target == "" {
		req.URL = r.url
		resp, err := r.f.Fetch(r.ctx, req)
		r.follow(resp, err, gen)
		return resp, err
	}
	req.URL = target
	resp, err := r.f.Fetch(r.ctx, req)
	if !r.refused(resp, err) {
		return resp, err
	}
	if resp != nil {
		resp.Body.Close()
	}
	r.resolveMu.Lock()
	defer r.resolveMu.Unlock()
	r.mu.Lock()
	cur, curGen := r.final, r.gen
	r.mu.Unlock()
	if curGen != gen {
		req.URL = cmp.Or(cur, r.url)
		return r.f.Fetch(r.ctx, req)
	}
	req.URL = r.url
	resp, err = r.f.Fetch(r.ctx, req)
	r.mu.Lock()
	r.stats.Resolves++
	r.mu.Unlock()
	r.follow(resp, err, gen)
	return resp, err
}

// follow makes the address a successful response to the file's own
// address came from the address of later reads (none when it did not
// redirect), unless another read set it since generation gen.
func (r *Reader) follow(resp *Response, err error, gen int) {
	if err != nil || (resp.Status != 206 && resp.Status != 200) {
		return
	}
	final := redirected(r.url, resp)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen == gen && r.final != final {
		r.final = final
		r.gen++
	}
}

// refused reports whether the address a redirect led to refused a request
// as an expired signed address does: HTTP 400, 401, 403 or 410, or no
// answer (a CDN's error response without CORS headers is a network error
// to a page). Not when the Reader is closed.
func (r *Reader) refused(resp *Response, err error) bool {
	if r.ctx.Err() != nil {
		return false
	}
	if err != nil {
		return true
	}
	switch resp.Status {
	case 400, 401, 403, 410:
		return true
	}
	return false
}

// put caches block b.
func (r *Reader) put(b int64, data []byte) {
	blk := &block{data: data, done: make(chan struct{})}
	close(blk.done)
	r.blocks[b] = blk
	r.lru = append(r.lru, b)
	r.cached += int64(len(data))
}

// touch makes block b the most recently used. Call with r.mu held.
func (r *Reader) touch(b int64) {
	for i, k := range r.lru {
		if k == b {
			copy(r.lru[i:], r.lru[i+1:])
			r.lru[len(r.lru)-1] = b
			return
		}
	}
}

// evict drops kept runs, oldest first, then least recently used blocks
// past the cache limit. Call with r.mu held.
func (r *Reader) evict() {
	for r.cached+r.runHeld > r.limit && len(r.runs) > 0 {
		r.runHeld -= int64(len(r.runs[0].data))
		r.runs = r.runs[1:]
	}
	for r.cached > r.limit && len(r.lru) > 0 {
		k := r.lru[0]
		r.lru = r.lru[1:]
		if blk, ok := r.blocks[k]; ok {
			r.cached -= int64(len(blk.data))
			delete(r.blocks, k)
		}
	}
}
