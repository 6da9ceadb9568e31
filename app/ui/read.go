package ui

import (
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
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
	r := browser.NewBlobReader(blob)
	return source{Name: name, Size: r.Size(), Reader: r, Blob: blob}
}

// readFile hands a browser File to the Viewer, which reads it lazily.
func readFile(ctx app.Context, file app.Value) {
	actionOpen.send(ctx, blobSource(file.Get("name").String(), file))
}

// then is browser.Then, for the page's own promises (the clipboard, image
// decoding).
var then = browser.Then
