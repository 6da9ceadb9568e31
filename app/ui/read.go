package ui

import (
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// source is a file to open: a browser Blob (dropped, picked, posted or
// downloaded) or a file read by HTTP Range requests, as an io.ReaderAt.
type source struct {
	Name   string
	Size   int64
	Reader io.ReaderAt
	Blob   app.Value // the Blob Reader reads, nil for a file by URL (the Parquet reader takes it as it is)
	URL    string    // the address it was read from ("" for a local file)
	Close  func()    // stops its reads (nil when there is nothing to stop)
	gen    int       // the Viewer's count of opens when it was asked for (0: now)
}

// stop stops the source's reads, if it has any to stop.
func (s source) stop() {
	if s.Close != nil {
		s.Close()
	}
}

// blobSource is a source reading a browser Blob lazily.
func blobSource(name string, blob app.Value) source {
	size := int64(blob.Get("size").Float())
	return source{Name: name, Size: size, Reader: &blobReader{blob: blob, size: size}, Blob: blob}
}

// readFile hands a browser File to the Viewer, which reads it lazily.
func readFile(ctx app.Context, file app.Value) {
	ctx.NewActionWithValue(actionOpen, blobSource(file.Get("name").String(), file))
}

// then calls ok with a promise's value or fail with its rejection (go-app's
// Value.Then reports no rejection). The callbacks must not block.
func then(promise app.Value, ok func(app.Value), fail func(reason string)) {
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
