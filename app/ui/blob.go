package ui

import (
	"errors"
	"fmt"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// blobReader reads a browser Blob (a dropped or picked File, or a fetched
// sample) through file.slice(off, end).arrayBuffer(), so only the bytes
// asked for are read into memory. ReadAt blocks its goroutine until the
// browser answers: call it from ctx.Async or the UI goroutine, never from a
// JavaScript callback (which would deadlock).
type blobReader struct {
	blob app.Value
	size int64
}

type readResult struct {
	n   int
	err error
}

// ReadAt implements io.ReaderAt.
func (b *blobReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= b.size {
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), b.size)
	done := make(chan readResult, 1)
	then(b.blob.Call("slice", off, end).Call("arrayBuffer"), func(buf app.Value) {
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
