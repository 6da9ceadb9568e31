package decode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/remote"
	"github.com/tensorview/tensorview/internal/testkit"
)

// rangeServer is a remote.Fetcher serving data from memory as an HTTP
// Range server does, logging every request's range.
type rangeServer struct {
	data []byte
	mu   sync.Mutex
	log  []span
}

func (s *rangeServer) Fetch(ctx context.Context, req remote.Request) (*remote.Response, error) {
	size := int64(len(s.data))
	if req.Head {
		return &remote.Response{Status: 200, Body: io.NopCloser(bytes.NewReader(nil)), ContentLength: size}, nil
	}
	end := size
	if req.N >= 0 {
		end = min(req.Off+req.N, size)
	}
	if req.Off >= size {
		return &remote.Response{Status: 416, Body: io.NopCloser(bytes.NewReader(nil))}, nil
	}
	s.mu.Lock()
	s.log = append(s.log, span{req.Off, end - req.Off})
	s.mu.Unlock()
	cr := "bytes " + strconv.FormatInt(req.Off, 10) + "-" + strconv.FormatInt(end-1, 10) + "/" + strconv.FormatInt(size, 10)
	return &remote.Response{Status: 206, Body: io.NopCloser(bytes.NewReader(s.data[req.Off:end])), ContentLength: end - req.Off, ContentRange: cr}, nil
}

func (s *rangeServer) bytes() (n int64, reqs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sp := range s.log {
		n += sp.n
	}
	return n, len(s.log)
}

// hfFile writes an IPC file like a Hugging Face image dataset's
// (testkit.HFImages): batches of rowsPer rows whose images are imgLen
// bytes ± a quarter of random bytes.
func hfFile(t testing.TB, batches, rowsPer, imgLen int) ([]byte, []arrow.RecordBatch) {
	rng := rand.New(rand.NewPCG(1, 2))
	schema, recs := testkit.HFImages(t, batches, rowsPer, func(int) []byte {
		img := make([]byte, imgLen-imgLen/4+rng.IntN(imgLen/2))
		for k := range img {
			img[k] = byte(rng.Uint32())
		}
		return img
	})
	return testkit.IPCFile(t, schema, recs...), recs
}

// rowsBytes is what rows [s, e) of rec hold: the bytes of their values
// in every column (an image's bytes and path, a caption, 8 bytes of label,
// 1 KiB of tensor), as arrow-go reads them.
func rowsBytes(rec arrow.RecordBatch, s, e int) int64 {
	img := rec.Column(0).(*array.Struct)
	bb, pb := img.Field(0).(*array.Binary), img.Field(1).(*array.String)
	cb := rec.Column(2).(*array.String)
	var n int64
	for r := s; r < e; r++ {
		n += int64(len(bb.Value(r)) + len(pb.Value(r)) + len(cb.Value(r)) + 8 + 16*16*4)
	}
	return n
}

// overlaps returns the bytes of [lo, hi) that more than one of reads
// covers.
func overlaps(reads []span, lo, hi int64) int64 {
	cover := make([]uint8, hi-lo)
	var twice int64
	for _, r := range reads {
		for o := max(r.off, lo); o < min(r.off+r.n, hi); o++ {
			if cover[o-lo]++; cover[o-lo] == 2 {
				twice++
			}
		}
	}
	return twice
}

// TestRemoteFirstScreenReadsItsRows: a file like a Hugging Face image
// dataset's (batches of 100 rows of ~44 KB each, image struct{bytes,
// path}), read with Options.RowWindow as a file by URL is: the first 8
// rows of a batch read just their values — the images' bytes placed by
// their offsets, read first — at most 1.5× what the rows hold, and the
// same as arrow-go reads them; then the rest of the batch (LoadBatchOf)
// reads the batch's other bytes, none of those read before but for its
// header (read by the index and by the window's layout, 2 KiB) and the
// windows' small ranges (under minPart, read again with the stretches
// around them), and every row of the batch is served from it.
func TestRemoteFirstScreenReadsItsRows(t *testing.T) {
	const rowsPer = 100
	data, ref := hfFile(t, 4, rowsPer, 44<<10)
	for _, batch := range []int{0, 2} { // the first (its offsets in the file's cached start) and one in the middle
		t.Run(fmt.Sprintf("batch %d", batch), func(t *testing.T) {
			r := &readLog{data: data}
			f, err := OpenReader("hf.arrow", r, int64(len(data)), Options{RowWindow: RemoteRowWindow})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			opened := len(r.since(0))
			first := int64(batch * rowsPer)
			for row := first; row < first+8; row++ {
				if err := f.Load(row); err != nil {
					t.Fatal(err)
				}
				checkRowsEqual(t, f, ref, rowsPer, row)
			}
			if _, w, _ := f.Window(first); w < 0 {
				t.Fatalf("row %d is read with its batch, want a row window", first)
			}
			var read int64
			for _, sp := range r.since(opened) {
				read += sp.n
			}
			rows := rowsBytes(ref[batch], 0, 8)
			t.Logf("rows %d..%d hold %d B: %d B read after the open (%.3f×)", first, first+7, rows, read, float64(read)/float64(rows))
			if float64(read) > 1.5*float64(rows) {
				t.Errorf("%d B read for rows holding %d B: more than 1.5×", read, rows)
			}
			// Exact: the rows' values, their offsets and validity, nothing
			// guessed around them (that would be a quarter more each way).
			if read > rows+8<<10 {
				t.Errorf("%d B read for rows holding %d B: more than 8 KiB of offsets and validity past their values", read, rows)
			}
			before := len(r.since(0))
			if err := f.LoadBatchOf(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			b, _, _ := f.index.batchAt(batch)
			all := r.since(0)
			if twice := overlaps(all, b.offset, b.offset+b.length); twice > 16<<10 { // its header (the index, then the layout: 2 KiB), the windows' small ranges (minPart)
				t.Errorf("%d B of record batch %d read twice", twice, batch)
			}
			var rest int64
			for _, sp := range r.since(before) {
				rest += sp.n
			}
			if rest == 0 || rest > b.length-rows+16<<10 {
				t.Errorf("the rest of the batch read %d B, want some and at most %d (its %d B less the rows' %d, and their small ranges)", rest, b.length-rows+16<<10, b.length, rows)
			}
			reads := len(r.since(0))
			for row := first; row < first+rowsPer; row++ {
				if s := f.WindowState(row); s != Loaded {
					t.Fatalf("row %d: %s after its batch was read", row, s)
				}
				checkRowsEqual(t, f, ref, rowsPer, row)
			}
			if n := len(r.since(0)) - reads; n != 0 {
				t.Errorf("%d reads for rows of the batch read", n)
			}
			if f.parts.get(b.offset) != nil {
				t.Error("the windows' bytes are kept after the batch was read whole")
			}
		})
	}
}

// TestRemoteFirstScreenByRange is TestRemoteFirstScreenReadsItsRows
// through app/remote (HTTP Range requests, its probe, blocks and
// pieces): the open and the first 8 rows transfer at most 1.5× what
// the rows hold plus the file's metadata (schema, footer, batch headers:
// the 64 KiB read at the end, the 4 KiB pieces of headers), and the
// rest of the batch transfers the batch's other bytes, but for a few
// 4 KiB pieces (app/remote's small reads, which its exact reads do not
// consult).
func TestRemoteFirstScreenByRange(t *testing.T) {
	const rowsPer = 100
	data, ref := hfFile(t, 4, rowsPer, 44<<10)
	srv := &rangeServer{data: data}
	r, _, err := remote.Open(context.Background(), srv, "http://x/hf.arrow", remote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenReader("hf.arrow", r, r.Size(), Options{RowWindow: RemoteRowWindow})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for row := range int64(8) {
		if err := f.Load(row); err != nil {
			t.Fatal(err)
		}
		checkRowsEqual(t, f, ref, rowsPer, row)
	}
	n, reqs := srv.bytes()
	var meta int64 // 64 KiB at the end, and 4 KiB pieces: headers of later batches
	srv.mu.Lock()
	for _, sp := range srv.log {
		if sp.n <= 16<<10 || sp.off+sp.n == int64(len(data)) {
			meta += sp.n
		}
	}
	srv.mu.Unlock()
	rows := rowsBytes(ref[0], 0, 8)
	t.Logf("rows 0..7 hold %d B: %d B in %d requests (%d B of them metadata and headers)", rows, n, reqs, meta)
	if float64(n-meta) > 1.5*float64(rows) {
		t.Errorf("%d B besides the %d B of metadata for rows holding %d B: more than 1.5×", n-meta, meta, rows)
	}
	if err := f.LoadBatchOf(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	b, _, _ := f.index.batchAt(0)
	srv.mu.Lock()
	twice := overlaps(srv.log, b.offset, b.offset+b.length)
	srv.mu.Unlock()
	if twice > 16<<10 {
		t.Errorf("%d B of the first record batch transferred twice", twice)
	}
	for row := range int64(rowsPer) {
		checkRowsEqual(t, f, ref, rowsPer, row)
	}
}

// TestPartsReader: reads through parts (overlapping, unsorted as added,
// reaching past the read or the file) return the file's bytes, asking the
// file only for the stretches no part holds, and io.EOF at its end.
func TestPartsReader(t *testing.T) {
	data := make([]byte, 1000)
	for k := range data {
		data[k] = byte(k * 7)
	}
	var p bodyParts
	p.add(0, []segment{{off: 600, b: data[600:700]}, {off: 100, b: data[100:200]}, {off: 150, b: data[150:260]}, {off: 990, b: data[990:]}}, 1<<20)
	for _, tc := range []struct{ off, n, asked int64 }{
		{0, 1000, 1000 - 160 - 100 - 10},
		{120, 100, 0},
		{180, 500, 500 - 80 - 80},
		{995, 5, 0},
	} {
		r := &readLog{data: data}
		pr := &partsReader{r: r, parts: p.get(0)}
		got := make([]byte, tc.n)
		if n, err := pr.ReadAt(got, tc.off); n != int(tc.n) || err != nil {
			t.Fatalf("ReadAt(%d, %d): %d, %v", tc.n, tc.off, n, err)
		}
		if !bytes.Equal(got, data[tc.off:tc.off+tc.n]) {
			t.Errorf("ReadAt(%d, %d): other bytes than the file's", tc.n, tc.off)
		}
		var asked int64
		for _, sp := range r.since(0) {
			asked += sp.n
		}
		if asked != tc.asked {
			t.Errorf("ReadAt(%d, %d) asked the file for %d B (%v), want %d", tc.n, tc.off, asked, r.since(0), tc.asked)
		}
	}
	pr := &partsReader{r: &readLog{data: data}, parts: p.get(0)}
	if n, err := pr.ReadAt(make([]byte, 20), 985); n != 15 || err != io.EOF {
		t.Errorf("a read past the end: %d, %v; want 15, EOF", n, err)
	}
	p.forget(0)
	if p.get(0) != nil || p.held != 0 {
		t.Errorf("after forget: %d parts, %d B held", len(p.get(0)), p.held)
	}
}

// gatedLog is a readLog whose reads wait, once armed, until gate is
// closed.
type gatedLog struct {
	readLog
	armed atomic.Bool
	gate  chan struct{}
}

func (g *gatedLog) ReadAt(p []byte, off int64) (int, error) {
	if g.armed.Load() {
		<-g.gate
	}
	return g.readLog.ReadAt(p, off)
}

// TestWindowsAwaitTheirBatch: while the rest of a record batch is read
// (LoadBatchOf), its other windows say Loading and a load of one of them
// waits for the batch instead of reading its bytes again: after both,
// no byte of the batch was read twice (its header aside), and the rows
// read as arrow-go reads them.
func TestWindowsAwaitTheirBatch(t *testing.T) {
	const rowsPer = 100
	data, ref := hfFile(t, 2, rowsPer, 44<<10)
	r := &gatedLog{readLog: readLog{data: data}, gate: make(chan struct{})}
	f, err := OpenReader("hf.arrow", r, int64(len(data)), Options{RowWindow: RemoteRowWindow})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const first = rowsPer // batch 1
	if err := f.Load(first); err != nil {
		t.Fatal(err)
	}
	if s := f.WindowState(first + 50); s != Unread {
		t.Fatalf("row %d: %s before its batch is read", first+50, s)
	}
	r.armed.Store(true)
	whole := make(chan error, 1)
	go func() { whole <- f.LoadBatchOf(context.Background(), first) }()
	for f.WindowState(first+50) != Loading {
		runtime.Gosched() // until the batch's read has started
	}
	row := make(chan error, 1)
	go func() { row <- f.Load(first + 50) }()
	close(r.gate)
	if err := <-whole; err != nil {
		t.Fatal(err)
	}
	if err := <-row; err != nil {
		t.Fatal(err)
	}
	b, _, _ := f.index.batchAt(1)
	if twice := overlaps(r.since(0), b.offset, b.offset+b.length); twice > 16<<10 {
		t.Errorf("%d B of the batch read twice", twice)
	}
	for _, row := range []int64{first, first + 50, first + rowsPer - 1} {
		checkRowsEqual(t, f, ref, rowsPer, row)
	}
}
