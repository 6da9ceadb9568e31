package open

import (
	"fmt"
	"io"
	"strings"

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
	// Shards, when set, are the files of a dataset opened as one table
	// (decode.OpenDataset), Name the dataset's; Reader is nil then.
	Shards  []shardSource
	skipped []string // files dropped with the shards that are not Arrow or Parquet
	notes   []string // what listing the shards noticed (a config picked, links skipped)
	// sizes, when set, brings the shards' sizes learned after they were
	// listed (decode.File.SetShardSizes), once.
	sizes <-chan []int64
}

// stop stops the source's reads, if it has any to stop.
func (s source) stop() {
	if s.Close != nil {
		s.Close()
	}
}

// BlobSource is a source reading a browser Blob lazily.
func BlobSource(name string, blob app.Value) source {
	r := browser.NewBlobReader(blob)
	return source{Name: name, Size: r.Size(), Reader: r, Blob: blob}
}

// readFile hands a browser File to the Viewer, which reads it lazily.
func readFile(ctx app.Context, file app.Value) {
	ActionOpen.Send(ctx, BlobSource(file.Get("name").String(), file))
}

// readFiles hands a FileList (or array of Files) to the Viewer: one file
// as readFile does, several as the shards of one dataset named after the
// first's folder or "n files" (webkitRelativePath when a folder was
// picked).
func readFiles(ctx app.Context, files app.Value, skipped []string) {
	n := files.Length()
	if n == 1 && len(skipped) == 0 {
		readFile(ctx, files.Index(0))
		return
	}
	names := make([]string, n)
	blobs := make([]app.Value, n)
	for i := range n {
		f := files.Index(i)
		names[i], blobs[i] = f.Get("name").String(), f
		if p := f.Get("webkitRelativePath"); p.Truthy() && p.String() != "" {
			names[i] = p.String()
		}
	}
	openFiles(ctx, names, blobs, skipped, false)
}

// openFiles hands files (their paths and Blobs) to the Viewer as the
// shards of one dataset; skipped are files already left out; folder says
// they are a dropped folder's (opened by their names, even one).
func openFiles(ctx app.Context, names []string, blobs []app.Value, skipped []string, folder bool) {
	src, more := blobShards(names, blobs, folder)
	skipped = append(skipped, more...)
	if len(src.Shards) == 0 {
		ActionOpenFailed.Send(ctx, OpenFailure{What: datasetName(names), Why: fmt.Sprintf("no Arrow or Parquet file among them (%s): tensorview opens .arrow, .arrows, .feather, .ipc and .parquet files", strings.Join(headOf(skipped, 5), ", "))})
		return
	}
	src.skipped = skipped
	ActionOpen.Send(ctx, src)
}

// OpenFailure is what was dropped or picked that cannot be opened (its
// name as the page names it), and why.
type OpenFailure struct{ What, Why string }

// datasetName names the dataset of files names (paths, "/"-separated):
// the folder they all are in ("data/train" and "data/test" are in
// "data"), else its one file's name, else "n files".
func datasetName(names []string) string {
	var common []string
	for i, n := range names {
		dir := strings.Split(n, "/")
		dir = dir[:len(dir)-1]
		if i == 0 {
			common = dir
			continue
		}
		k := 0
		for k < min(len(common), len(dir)) && common[k] == dir[k] {
			k++
		}
		common = common[:k]
	}
	switch {
	case len(common) > 0:
		return strings.Join(common, "/")
	case len(names) == 1:
		return names[0]
	}
	return fmt.Sprintf("%d files", len(names))
}

// headOf is the first n of list, with "…" when there are more.
func headOf(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	return append(append([]string{}, list[:n]...), "…")
}

// Then is browser.Then, for the page's own promises (the clipboard, image
// decoding).
var Then = browser.Then
