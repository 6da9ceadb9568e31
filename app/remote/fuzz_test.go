package remote

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"strconv"
	"testing"
)

// memFetcher serves data from memory as a Range server does, optionally
// hiding Content-Range (a cross-origin response that does not expose it).
type memFetcher struct {
	data []byte
	hide bool
}

func (m memFetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	size := int64(len(m.data))
	if req.Head {
		return &Response{Status: 200, Body: io.NopCloser(bytes.NewReader(nil)), ContentLength: size}, nil
	}
	end := size
	if req.N >= 0 {
		end = min(req.Off+req.N, size)
	}
	if req.Off >= size {
		return &Response{Status: 416, Body: io.NopCloser(bytes.NewReader(nil)), ContentLength: 0}, nil
	}
	r := &Response{Status: 206, Body: io.NopCloser(bytes.NewReader(m.data[req.Off:end])), ContentLength: end - req.Off}
	if !m.hide {
		r.ContentRange = "bytes " + itoa(req.Off) + "-" + itoa(end-1) + "/" + itoa(size)
	}
	return r, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// FuzzReadAt reads a file of fuzzed size by a fuzzed sequence of (offset,
// length) reads through a small block cache, small-read pieces and
// coalesced block runs: every read returns the file's bytes, io.EOF exactly
// when it reaches past the end or starts at it.
func FuzzReadAt(f *testing.F) {
	f.Add(uint32(3<<20+12345), false, []byte{0, 0, 0, 0, 100, 0, 1, 0, 0, 0, 0, 1})
	f.Add(uint32(1000), true, []byte{255, 255, 255, 255, 10, 0})
	f.Add(uint32(0), false, []byte{})
	f.Fuzz(func(t *testing.T, size uint32, hide bool, ops []byte) {
		n := int(size % (1 << 20))
		data := testFile(n)
		r, _, err := Open(context.Background(), memFetcher{data, hide}, "mem://f", Options{Block: 4 << 10, Cache: 16 << 10, Probe: 4 << 10})
		if err != nil {
			if n == 0 {
				return // an empty file answers 416 to its probe
			}
			t.Fatal(err)
		}
		defer r.Close()
		if r.Size() != int64(n) {
			t.Fatalf("size %d, want %d", r.Size(), n)
		}
		for len(ops) >= 6 {
			off := int64(binary.LittleEndian.Uint32(ops)) % int64(n+64)
			ln := int64(binary.LittleEndian.Uint16(ops[4:])) // up to 64 KiB: small reads and runs of blocks
			ops = ops[6:]
			p := make([]byte, ln)
			got, err := r.ReadAt(p, off)
			end := min(off+ln, int64(n))
			want := max(end-off, 0)
			if int64(got) != want || !bytes.Equal(p[:got], data[min(off, int64(n)):end]) {
				t.Fatalf("ReadAt(%d bytes at %d of %d) = %d, %v", ln, off, n, got, err)
			}
			// io.EOF past the end, and at or beyond it (as bytes.Reader).
			if (off+ln > int64(n) || off >= int64(n)) != (err == io.EOF) || (err != nil && err != io.EOF) {
				t.Fatalf("ReadAt(%d bytes at %d of %d): error %v", ln, off, n, err)
			}
		}
	})
}
