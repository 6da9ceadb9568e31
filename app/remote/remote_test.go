package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tensorview/tensorview/internal/httpmeter"
)

// httpFetcher is a Fetcher over net/http, as a page's fetch behaves with
// hide set: Content-Range invisible (a cross-origin response that does not
// expose it).
type httpFetcher struct {
	hide     bool
	requests atomic.Int32
}

func (h *httpFetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	method := "GET"
	if req.Head {
		method = "HEAD"
	}
	hr, err := http.NewRequestWithContext(ctx, method, req.URL, nil)
	if err != nil {
		return nil, err
	}
	if h := req.Header(); h != "" {
		hr.Header.Set("Range", h)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil, err
	}
	h.requests.Add(1)
	r := &Response{Status: resp.StatusCode, Body: resp.Body, ContentLength: resp.ContentLength,
		ContentRange: resp.Header.Get("Content-Range"), ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	if h.hide {
		r.ContentRange = ""
	}
	return r, nil
}

// testFile is n deterministic bytes.
func testFile(n int) []byte {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// rangeServer serves data with http.ServeContent (Range honoured, ETag
// set) and counts the body bytes it sends.
func rangeServer(t *testing.T, data []byte) (*httptest.Server, *atomic.Int64) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(httpmeter.Writer{ResponseWriter: w, N: &sent}, r, "f.arrow", time.Unix(1700000000, 0), bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv, &sent
}

// TestReadAt: reads anywhere in a 3 MB file equal the file, whatever the
// visibility of Content-Range; neighbouring missing blocks come in one
// request; cached blocks need none.
func TestReadAt(t *testing.T) {
	data := testFile(3<<20 + 12345)
	srv, _ := rangeServer(t, data)
	for _, hide := range []bool{false, true} {
		t.Run(fmt.Sprintf("hide Content-Range %v", hide), func(t *testing.T) {
			f := &httpFetcher{hide: hide}
			// The block path only (exact reads: TestExactReads).
			r, _, err := Open(context.Background(), f, srv.URL+"/f.arrow", Options{Block: 64 << 10, Cache: 1 << 20, Exact: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.Size() != int64(len(data)) {
				t.Fatalf("size %d, want %d", r.Size(), len(data))
			}
			for _, c := range []struct {
				off, n   int64
				requests int // new requests this read makes
			}{
				{0, 100, 0},                        // in the probe
				{60 << 10, 10 << 10, 1},            // block 0 cached, block 1 fetched
				{int64(len(data)) - 10, 10, 1},     // the footer's length: a small read, one 4 KiB piece
				{int64(len(data)) - 1000, 1000, 0}, // the footer: in that piece
				{2<<20 + 5, 300, 1},                // a record batch header: a piece, not a block
				{2<<20 + 400, 100, 0},              // in that piece
				{1 << 20, 300 << 10, 1},            // five blocks, one request
				{1<<20 + 100, 200 << 10, 0},        // all cached
				{1<<20 + 100, 200, 0},              // small, but in cached blocks
			} {
				before := f.requests.Load()
				p := make([]byte, c.n)
				n, err := r.ReadAt(p, c.off)
				if err != nil || int64(n) != c.n || !bytes.Equal(p, data[c.off:c.off+c.n]) {
					t.Errorf("ReadAt(%d bytes at %d) = %d, %v; equal %v", c.n, c.off, n, err, bytes.Equal(p, data[c.off:c.off+c.n]))
				}
				if got := int(f.requests.Load() - before); got != c.requests {
					t.Errorf("ReadAt(%d bytes at %d): %d requests, want %d", c.n, c.off, got, c.requests)
				}
			}
			// Past the end: io.EOF with what there is.
			p := make([]byte, 100)
			n, err := r.ReadAt(p, int64(len(data))-40)
			if n != 40 || err != io.EOF || !bytes.Equal(p[:40], data[len(data)-40:]) {
				t.Errorf("read past the end: %d, %v", n, err)
			}
		})
	}
}

// TestOpenTransfersLittle: opening a 64 MB file transfers the probe, and
// reading its footer one more block.
func TestOpenTransfersLittle(t *testing.T) {
	data := testFile(64 << 20)
	srv, sent := rangeServer(t, data)
	r, _, err := Open(context.Background(), &httpFetcher{}, srv.URL+"/f.arrow", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := make([]byte, 4096)
	if _, err := r.ReadAt(p, int64(len(data))-4096); err != nil || !bytes.Equal(p, data[len(data)-4096:]) {
		t.Fatalf("footer: %v", err)
	}
	// The server stops when the client closes the connection: what it wrote
	// before is bounded by socket buffers, not the file.
	srv.CloseClientConnections()
	if s := r.Stats(); s.Requests != 2 || s.Bytes != DefaultBlock+4096 {
		t.Errorf("stats %+v, want 2 requests: the probe's block and a 4 KiB piece", s)
	}
	if n := sent.Load(); n > 16<<20 {
		t.Errorf("the server sent %d bytes for a 64 MB file", n)
	}
}

// TestServersAsTheyAre: a server that ignores Range, one that answers 404,
// one whose file changes between reads.
func TestServersAsTheyAre(t *testing.T) {
	data := testFile(1 << 20)
	ignore := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.Write(data)
	}))
	defer ignore.Close()
	_, resp, err := Open(context.Background(), &httpFetcher{}, ignore.URL+"/f", Options{})
	if !errors.Is(err, ErrNoRange) || resp == nil || resp.ContentLength != int64(len(data)) {
		t.Fatalf("ignoring server: %v, %+v", err, resp)
	}
	whole, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(whole, data) {
		t.Error("the 200 response is not the file")
	}

	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	_, _, err = Open(context.Background(), &httpFetcher{}, missing.URL+"/f", Options{})
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 404 || !strings.Contains(err.Error(), "was not found") {
		t.Errorf("404: %v", err)
	}

	var version atomic.Int32
	changing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version.Load()))
		http.ServeContent(w, r, "f", time.Unix(1700000000, 0), bytes.NewReader(data))
	}))
	defer changing.Close()
	r, _, err := Open(context.Background(), &httpFetcher{}, changing.URL+"/f", Options{Block: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := make([]byte, 100)
	if _, err := r.ReadAt(p, 500<<10); err != nil {
		t.Fatal(err)
	}
	version.Add(1)
	if _, err := r.ReadAt(p, 900<<10); !errors.Is(err, ErrChanged) {
		t.Errorf("after the file changed: %v, want ErrChanged", err)
	}
	if _, err := r.ReadAt(p, 500<<10); !errors.Is(err, ErrChanged) {
		t.Errorf("a cached block after the change: %v, want ErrChanged", err)
	}
}

// TestConcurrentReads: many goroutines reading overlapping ranges get the
// file's bytes; without exact reads each block is fetched once.
func TestConcurrentReads(t *testing.T) {
	data := testFile(2 << 20)
	srv, _ := rangeServer(t, data)
	for _, exact := range []int64{-1, 0} {
		t.Run(fmt.Sprintf("Exact %d", exact), func(t *testing.T) {
			concurrentReads(t, srv.URL+"/f", data, exact)
		})
	}
}

func concurrentReads(t *testing.T, url string, data []byte, exact int64) {
	f := &httpFetcher{}
	r, _, err := Open(context.Background(), f, url, Options{Block: 64 << 10, Cache: 4 << 20, Exact: exact})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 50 {
				off := rng.Int64N(int64(len(data)) - 1)
				n := 1 + rng.Int64N(min(200<<10, int64(len(data))-off))
				p := make([]byte, n)
				if _, err := r.ReadAt(p, off); err != nil || !bytes.Equal(p, data[off:off+n]) {
					t.Errorf("ReadAt(%d at %d): %v", n, off, err)
					return
				}
			}
		})
	}
	wg.Wait()
	// 32 blocks, the first came with Open: at most 31 more requests.
	if n := f.requests.Load(); exact < 0 && n > 32 {
		t.Errorf("%d requests for 32 blocks", n)
	}
}

// TestSizeWithoutContentRange: when Content-Range is not visible, the size
// comes from a HEAD request, or, where HEAD is refused (a URL signed for GET
// only), from the Content-Length of a "bytes=0-" request; a file shorter
// than the probe needs neither.
func TestSizeWithoutContentRange(t *testing.T) {
	data := testFile(1<<20 + 7)
	var heads atomic.Int32
	for _, c := range []struct {
		name       string
		refuseHead bool
		data       []byte
		requests   int
	}{
		{"HEAD", false, data, 2},
		{"HEAD refused", true, data, 3},
		{"shorter than the probe", false, data[:1000], 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == "HEAD" {
					heads.Add(1)
					if c.refuseHead {
						w.WriteHeader(403)
						return
					}
				}
				http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(c.data))
			}))
			defer srv.Close()
			f := &httpFetcher{hide: true}
			r, _, err := Open(context.Background(), f, srv.URL+"/f", Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.Size() != int64(len(c.data)) {
				t.Errorf("size %d, want %d", r.Size(), len(c.data))
			}
			if got := int(f.requests.Load()); got != c.requests {
				t.Errorf("%d requests to open, want %d", got, c.requests)
			}
			p := make([]byte, 10)
			if _, err := r.ReadAt(p, int64(len(c.data))-10); err != nil || !bytes.Equal(p, c.data[len(c.data)-10:]) {
				t.Errorf("the last bytes: %v", err)
			}
		})
	}
}
