package browser

import (
	"errors"
	"fmt"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// BlobReader reads a browser Blob (a dropped or picked File, or a fetched
// sample) through file.slice(off, end).arrayBuffer(), so only the bytes
// asked for are read into memory. ReadAt blocks its goroutine until the
// browser answers: call it from ctx.Async or the UI goroutine, never from a
// JavaScript callback (which would deadlock).
type BlobReader struct {
	blob app.Value
	size int64
}

// NewBlobReader reads blob, of the size it says.
func NewBlobReader(blob app.Value) *BlobReader {
	return &BlobReader{blob: blob, size: int64(blob.Get("size").Float())}
}

// Size is the Blob's size in bytes.
func (b *BlobReader) Size() int64 { return b.size }

// NewBlob is a Blob holding a copy of data.
func NewBlob(data []byte) app.Value {
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	return app.Window().Get("Blob").New([]any{u8})
}

type readResult struct {
	n   int
	err error
}

// ReadAt implements io.ReaderAt.
func (b *BlobReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= b.size {
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), b.size)
	done := make(chan readResult, 1)
	Then(b.blob.Call("slice", off, end).Call("arrayBuffer"), func(buf app.Value) {
		u8 := app.Window().Get("Uint8Array").New(buf)
		done <- readResult{n: app.CopyBytesToGo(p[:end-off], u8)}
	}, func(reason string) {
		done <- readResult{err: fmt.Errorf("the browser could not read bytes %d to %d of the file: %s", off, end, reason)}
	})
	r := <-done
	if r.err == nil && int64(r.n) < int64(len(p)) {
		r.err = io.EOF
	}
	return r.n, r.err
}

// Then calls ok with a promise's value or fail with its rejection (go-app's
// Value.Then reports no rejection). The callbacks run in a JavaScript
// callback: they must not block.
func Then(promise app.Value, ok func(app.Value), fail func(reason string)) {
	var okFn, failFn app.Func
	release := func() {
		okFn.Release()
		failFn.Release()
	}
	okFn = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		ok(args[0])
		return nil
	})
	failFn = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		reason := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			reason = args[0].Call("toString").String()
		}
		fail(reason)
		return nil
	})
	promise.Call("then", okFn, failFn)
}
