//go:build js && wasm

// These tests run under GOOS=js GOARCH=wasm in Node.js (make test runs them
// with Go's go_js_wasm_exec), whose Blob has the same slice().arrayBuffer()
// as the browser's File.
package browser

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"strings"
	"sync"
	"syscall/js"
	"testing"
	"testing/iotest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// newBlob returns a JavaScript Blob holding data.
func newBlob(t *testing.T, data []byte) app.Value {
	t.Helper()
	u8 := js.Global().Get("Uint8Array").New(len(data))
	if n := js.CopyBytesToJS(u8, data); n != len(data) {
		t.Fatalf("copied %d of %d bytes to JavaScript", n, len(data))
	}
	blob := app.Window().Get("Blob")
	if !blob.Truthy() {
		t.Fatal("this JavaScript runtime has no Blob")
	}
	return blob.New([]any{u8})
}

func randomBytes(n int) []byte {
	p := make([]byte, n)
	rand.New(rand.NewSource(5)).Read(p)
	return p
}

func TestBlobReaderReadAt(t *testing.T) {
	// io.ReaderAt's contract, checked by the standard library's own test
	// (ReadAt at many offsets and lengths through a SectionReader).
	small := randomBytes(3001)
	if err := iotest.TestReader(io.NewSectionReader(&BlobReader{blob: newBlob(t, small), size: int64(len(small))}, 0, int64(len(small))), small); err != nil {
		t.Fatal(err)
	}

	data := randomBytes(100_003)
	r := &BlobReader{blob: newBlob(t, data), size: int64(len(data))}

	for _, c := range []struct {
		off, n  int64
		wantN   int
		wantEOF bool
	}{
		{0, 16, 16, false},
		{65_536, 4096, 4096, false},
		{int64(len(data)) - 10, 10, 10, false},
		{int64(len(data)) - 10, 64, 10, true}, // a short read at the end is io.EOF
		{int64(len(data)), 1, 0, true},
		{int64(len(data)) + 5, 1, 0, true},
		{50, 0, 0, false},
	} {
		p := bytes.Repeat([]byte{0xEE}, int(c.n))
		n, err := r.ReadAt(p, c.off)
		if n != c.wantN || (err == io.EOF) != c.wantEOF || (err != nil && err != io.EOF) {
			t.Errorf("ReadAt(%d bytes, %d) = %d, %v; want %d, EOF %v", c.n, c.off, n, err, c.wantN, c.wantEOF)
			continue
		}
		if n > 0 && !bytes.Equal(p[:n], data[c.off:c.off+int64(n)]) {
			t.Errorf("ReadAt(%d bytes, %d): wrong bytes", c.n, c.off)
		}
		if bytes.Count(p[n:], []byte{0xEE}) != len(p)-n {
			t.Errorf("ReadAt(%d bytes, %d) wrote past the %d bytes it read", c.n, c.off, n)
		}
	}
	if _, err := r.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("ReadAt at offset -1: no error")
	}
}

// Reads from many goroutines at once each get their own bytes (the viewer
// reads a window while the index goes on in the background).
func TestBlobReaderConcurrent(t *testing.T) {
	data := randomBytes(1 << 20)
	r := &BlobReader{blob: newBlob(t, data), size: int64(len(data))}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			off := int64(g) * 16_001
			p := make([]byte, 9_000+g)
			if n, err := r.ReadAt(p, off); err != nil || n != len(p) {
				errs <- errors.New("short read")
				return
			}
			if !bytes.Equal(p, data[off:off+int64(len(p))]) {
				errs <- errors.New("wrong bytes")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("goroutine: %v", err)
	}
}

// A Blob the browser cannot read (a File deleted or changed on disk since it
// was chosen rejects with NotReadableError) gives an error that says so.
func TestBlobReaderRejected(t *testing.T) {
	fake := js.Global().Get("Object").New()
	fake.Set("slice", js.FuncOf(func(this js.Value, args []js.Value) any {
		part := js.Global().Get("Object").New()
		part.Set("arrayBuffer", js.FuncOf(func(this js.Value, args []js.Value) any {
			err := js.Global().Get("Error").New("the file could not be read")
			err.Set("name", "NotReadableError")
			return js.Global().Get("Promise").Call("reject", err)
		}))
		return part
	}))
	r := &BlobReader{blob: app.ValueOf(fake), size: 1000}
	n, err := r.ReadAt(make([]byte, 10), 100)
	if n != 0 || err == nil || !strings.Contains(err.Error(), "NotReadableError") || !strings.Contains(err.Error(), "bytes 100 to 110") {
		t.Fatalf("ReadAt on a rejecting Blob = %d, %v; want 0 and an error naming NotReadableError and the range", n, err)
	}
}

// The lazy reader over a Blob shows the same cells as over the bytes in
// memory.
func TestBlobReaderOpensArrowFile(t *testing.T) {
	for _, name := range []string{"js_images.arrow", "js_big.arrow", "js_variable.arrows"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("../../testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			want, err := decode.Open(name, data)
			if err != nil {
				t.Fatal(err)
			}
			blob := &BlobReader{blob: newBlob(t, data), size: int64(len(data))}
			got, err := decode.OpenReader(name, blob, int64(len(data)), decode.Options{SmallFile: -1})
			if err != nil {
				t.Fatal(err)
			}
			if err := got.Index(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			n, _ := got.Rows()
			wn, _ := want.Rows()
			if n != wn || n == 0 {
				t.Fatalf("rows: %d over the Blob, %d in memory", n, wn)
			}
			for _, row := range []int64{0, n / 2, n - 1} {
				for col := range want.Fields() {
					a, b := summary.At(got, row, col), summary.At(want, row, col)
					if a.Err != "" || b.Err != "" || describe(a) != describe(b) {
						t.Errorf("row %d column %d: %q over the Blob, %q in memory", row, col, describe(a), describe(b))
					}
				}
			}
		})
	}
}

func describe(c summary.Cell) string {
	if c.Tensor == nil {
		return c.Text + c.Err
	}
	tc := c.Tensor
	return strings.Join([]string{tc.ValueType, tc.Values, tc.Min, tc.Max}, "|") + c.Err
}
