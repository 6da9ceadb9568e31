package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeFetcher serves data from memory as a Range server does (206 with
// Content-Range and an ETag of the version), or whole with 200 once
// ignoreRange is set, and records the requests.
type fakeFetcher struct {
	data        []byte
	version     atomic.Int32
	ignoreRange atomic.Bool

	mu   sync.Mutex
	reqs []Request
}

func (f *fakeFetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	etag := fmt.Sprintf(`"v%d"`, f.version.Load())
	size := int64(len(f.data))
	if f.ignoreRange.Load() || req.Head {
		return &Response{Status: 200, Body: io.NopCloser(bytes.NewReader(f.data)), ContentLength: size, ETag: etag}, nil
	}
	end := size
	if req.N >= 0 {
		end = min(size, req.Off+req.N)
	}
	if req.Off >= size {
		return &Response{Status: 416, Body: io.NopCloser(strings.NewReader("")), ContentLength: 0}, nil
	}
	return &Response{Status: 206, Body: io.NopCloser(bytes.NewReader(f.data[req.Off:end])), ContentLength: end - req.Off,
		ContentRange: fmt.Sprintf("bytes %d-%d/%d", req.Off, end-1, size), ETag: etag}, nil
}

// since returns the requests made after the first k.
func (f *fakeFetcher) since(k int) []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs[k:]...)
}

func (f *fakeFetcher) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// cachedBlockNumbers lists the blocks r holds, in LRU order.
func cachedBlockNumbers(r *Reader) []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int64(nil), r.lru...)
}

// TestExactReads: with the default options, a read of a quarter block or
// more fetches exactly the bytes it does not find in cached blocks, kept
// runs or small reads' pieces, one request per stretch between them, caches no block and
// keeps what it fetched as a run (the cache has room); smaller reads keep
// the block cache (and the small pieces).
func TestExactReads(t *testing.T) {
	const B = DefaultBlock
	data := testFile(3<<20 + 12345)
	size := int64(len(data))
	f := &fakeFetcher{data: data}
	r, _, err := Open(context.Background(), f, "https://example.org/f.arrow", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type req struct{ off, n int64 }
	for _, c := range []struct {
		what    string
		off, n  int64
		reqs    []req   // the requests the read makes
		blocks  []int64 // the blocks cached after it, in LRU order
		wantEOF bool
	}{
		{"a column's run (240 KB) across blocks 3 and 4: exactly its bytes", 3*B + 100_000, 243_776,
			[]req{{3*B + 100_000, 243_776}}, []int64{0}, false},
		{"the same run again: kept, no request", 3*B + 100_000, 243_776,
			nil, []int64{0}, false},
		{"a small read in the run: no request", 3*B + 200_000, 100,
			nil, []int64{0}, false},
		{"a small read: a 4 KiB piece", 2*B + 10, 100,
			[]req{{2 * B, 4 << 10}}, []int64{0}, false},
		{"a 30 KiB read: its block, cached", 5*B + 1000, 30 << 10,
			[]req{{5 * B, B}}, []int64{0, 5}, false},
		{"the 30 KiB read again: no request", 5*B + 1000, 30 << 10,
			nil, []int64{0, 5}, false},
		{"a big read inside cached block 5: no request", 5*B + 10, 100 << 10,
			nil, []int64{0, 5}, false},
		{"a big read over cached block 0 and block 1: block 1's part only", 200_000, 300_000,
			[]req{{B, 500_000 - B}}, []int64{5, 0}, false},
		{"a big read from inside the run, around cached block 5: the stretches after each", 4*B + 7, 2*B + 50,
			[]req{{3*B + 343_776, 2*B - 343_776}, {6 * B, 57}}, []int64{0, 5}, false},
		{"a big read over the end of one run and the start of the next: no request", 3*B + 300_000, 200_000,
			nil, []int64{0, 5}, false},
		{"a big read over the small read's piece: the stretches around it", 2*B - 1000, 80_000,
			[]req{{2*B - 1000, 1000}, {2*B + 4<<10, 80_000 - 1000 - 4<<10}}, []int64{0, 5}, false},
		{"a big read past the end: the bytes there are, io.EOF", size - 70_000, 100_000,
			[]req{{size - 70_000, 70_000}}, []int64{0, 5}, true},
	} {
		k := f.count()
		p := make([]byte, c.n)
		n, err := r.ReadAt(p, c.off)
		wantN := min(c.n, size-c.off)
		if int64(n) != wantN || (err == io.EOF) != c.wantEOF || (err != nil && err != io.EOF) || !bytes.Equal(p[:n], data[c.off:c.off+wantN]) {
			t.Errorf("%s: ReadAt(%d bytes at %d) = %d, %v; equal %v", c.what, c.n, c.off, n, err, bytes.Equal(p[:n], data[c.off:c.off+wantN]))
		}
		var got []req
		for _, q := range f.since(k) {
			got = append(got, req{q.Off, q.N})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.reqs) {
			t.Errorf("%s: requests %v, want %v", c.what, got, c.reqs)
		}
		if b := cachedBlockNumbers(r); fmt.Sprint(b) != fmt.Sprint(c.blocks) {
			t.Errorf("%s: blocks cached %v, want %v", c.what, b, c.blocks)
		}
	}
	// Every request is one single range "bytes=a-b": no suffix, no open end.
	for _, q := range f.since(1) {
		if q.Head || q.N <= 0 || q.Header() != fmt.Sprintf("bytes=%d-%d", q.Off, q.Off+q.N-1) {
			t.Errorf("request %+v: header %q", q, q.Header())
		}
	}
}

// TestScanKeepsCache: a scan passing once over the file with exact reads
// leaves the blocks of a small cache (the rows on screen) cached.
func TestScanKeepsCache(t *testing.T) {
	const B = DefaultBlock
	data := testFile(8 << 20)
	f := &fakeFetcher{data: data}
	r, _, err := Open(context.Background(), f, "https://example.org/f", Options{Block: B, Cache: 3 * B})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := make([]byte, SmallRead+1) // blocks: SmallRead < n < Exact

	for _, b := range []int64{10, 20} {
		if _, err := r.ReadAt(p, b*B); err != nil {
			t.Fatal(err)
		}
	}
	k := f.count()
	var sent int64
	for off := int64(0); off < int64(len(data)); off += 250_000 {
		q := make([]byte, min(240_000, int64(len(data))-off))
		if _, err := r.ReadAt(q, off); err != nil || !bytes.Equal(q, data[off:off+int64(len(q))]) {
			t.Fatalf("scan at %d: %v", off, err)
		}
		sent += int64(len(q))
	}
	var fetched int64
	for _, q := range f.since(k) {
		fetched += q.N
	}
	// The bytes the cached blocks (0, 10, 20) hold are not fetched again.
	if fetched > sent {
		t.Errorf("the scan fetched %d bytes for %d read", fetched, sent)
	}
	if b := cachedBlockNumbers(r); fmt.Sprint(b) != "[0 10 20]" {
		t.Errorf("after the scan, blocks %v cached, want [0 10 20]", b)
	}
	k = f.count()
	for _, b := range []int64{10, 20} {
		if _, err := r.ReadAt(p, b*B); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.count() - k; n != 0 {
		t.Errorf("the rows on screen after the scan: %d requests, want 0", n)
	}
}

// TestRunsGoFirst: kept runs fill only the cache's free room, and go
// first when blocks need it.
func TestRunsGoFirst(t *testing.T) {
	const B = DefaultBlock
	data := testFile(8 << 20)
	f := &fakeFetcher{data: data}
	r, _, err := Open(context.Background(), f, "https://example.org/f", Options{Cache: 4 * B})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	read := func(off, n int64) int {
		t.Helper()
		k := f.count()
		p := make([]byte, n)
		if _, err := r.ReadAt(p, off); err != nil || !bytes.Equal(p, data[off:off+n]) {
			t.Fatalf("ReadAt(%d at %d): %v", n, off, err)
		}
		return f.count() - k
	}
	read(10*B, 2*B)    // a run of two blocks' bytes: kept (block 0 and it fill 3 of 4)
	read(14*B, 2*B)    // no room: not kept
	read(20*B, 30<<10) // block 20: the first run goes
	read(21*B, 30<<10) // block 21
	if n := read(10*B, 2*B); n != 1 {
		t.Errorf("the first run after blocks needed its room: %d requests, want 1", n)
	}
	if b := cachedBlockNumbers(r); fmt.Sprint(b) != "[0 20 21]" {
		t.Errorf("blocks %v cached, want [0 20 21]", b)
	}
	if n := read(20*B, 30<<10) + read(21*B, 30<<10); n != 0 {
		t.Errorf("the blocks after the runs: %d requests, want 0", n)
	}
}

// TestExactReadsServers: exact reads see a changed file (another ETag) as
// the block reads do, and a server that stops honouring Range (200) is an
// error, not a download of the whole file into a read.
func TestExactReadsServers(t *testing.T) {
	data := testFile(2 << 20)
	f := &fakeFetcher{data: data}
	r, _, err := Open(context.Background(), f, "https://example.org/f", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := make([]byte, 100<<10)
	if _, err := r.ReadAt(p, 1<<20); err != nil {
		t.Fatal(err)
	}
	f.version.Add(1)
	if _, err := r.ReadAt(p, 1<<20+200<<10); !errors.Is(err, ErrChanged) {
		t.Errorf("an exact read after the file changed: %v, want ErrChanged", err)
	}
	k := f.count()
	if _, err := r.ReadAt(p, 10); !errors.Is(err, ErrChanged) {
		t.Errorf("an exact read over the cached first block after the change: %v, want ErrChanged", err)
	}
	if _, err := r.ReadAt(p, 1<<20); !errors.Is(err, ErrChanged) {
		t.Errorf("the kept run after the change: %v, want ErrChanged", err)
	}
	if n := f.count() - k; n != 0 {
		t.Errorf("%d requests after the change was seen, want 0", n)
	}

	g := &fakeFetcher{data: data}
	r2, _, err := Open(context.Background(), g, "https://example.org/g", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	g.ignoreRange.Store(true)
	if _, err := r2.ReadAt(p, 1<<20); err == nil || !strings.Contains(err.Error(), "stopped honouring HTTP Range") {
		t.Errorf("an exact read answered 200: %v", err)
	}
	// Open itself, answered 200: ErrNoRange with the response to download.
	if _, resp, err := Open(context.Background(), g, "https://example.org/g", Options{}); !errors.Is(err, ErrNoRange) || resp == nil {
		t.Errorf("Open answered 200: %v", err)
	} else {
		resp.Body.Close()
	}
}

// TestExactBytes: over net/http (http.ServeContent), a sort's run of a
// column's buffers transfers its own bytes, not the blocks it touches.
func TestExactBytes(t *testing.T) {
	data := testFile(4 << 20)
	srv, sent := rangeServer(t, data)
	f := &httpFetcher{hide: true}
	r, _, err := Open(context.Background(), f, srv.URL+"/f.arrow", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	requests := f.requests.Load()
	var runs int64
	for i := range int64(4) {
		off, n := 300_000+i*900_000, int64(243_776)
		p := make([]byte, n)
		if _, err := r.ReadAt(p, off); err != nil || !bytes.Equal(p, data[off:off+n]) {
			t.Fatalf("run %d: %v", i, err)
		}
		runs += n
	}
	srv.Close() // waits for the handlers to finish counting
	// Open's probe (a block; its HEAD has no body), then the runs.
	if got := sent.Load() - DefaultBlock; got != runs {
		t.Errorf("4 runs of %d bytes transferred %d bytes, want %d", 243_776, got, runs)
	}
	if n := f.requests.Load() - requests; n != 4 {
		t.Errorf("4 runs took %d requests, want 4", n)
	}
}
