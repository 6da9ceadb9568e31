package ui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
)

// shardSource is one file of a dataset to open: its name, its size in
// bytes (-1 when not known before it opens) and how its source is had (a
// Blob at once; a file by URL once probed).
type shardSource struct {
	Name string
	Size int64
	get  func(ctx context.Context) (source, error)
}

// datasetExts are the file name endings a dropped folder's files are
// opened by; the others are listed in a warning and skipped.
var datasetExts = []string{".arrow", ".arrows", ".feather", ".ipc", ".parquet", ".pq"}

// isDataFile reports whether a file of a dropped folder is opened: one of
// datasetExts, not hidden (".DS_Store", "._part-0.parquet").
func isDataFile(name string) bool {
	base := name[strings.LastIndex(name, "/")+1:]
	if strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
		return false
	}
	lower := strings.ToLower(base)
	for _, ext := range datasetExts {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// blobShards makes the files (name, Blob) dropped or picked the shards of
// a dataset (named after them: datasetName), in natural order of their
// names; the files that
// are not Arrow or Parquet by name are returned apart (only when they are
// a folder's or more than one file was given: one file dropped or picked
// is opened whatever its name).
func blobShards(names []string, blobs []app.Value, folder bool) (src source, skipped []string) {
	type file struct {
		name string
		blob app.Value
	}
	var files []file
	for i, n := range names {
		if (folder || len(names) > 1) && !isDataFile(n) {
			skipped = append(skipped, n)
			continue
		}
		files = append(files, file{n, blobs[i]})
	}
	sort.SliceStable(files, func(i, j int) bool { return naturalLess(files[i].name, files[j].name) })
	kept := make([]string, len(files))
	for i, f := range files {
		kept[i] = f.name
	}
	src = source{Name: datasetName(kept)}
	for _, f := range files {
		b := f.blob
		src.Shards = append(src.Shards, shardSource{Name: f.name, Size: int64(b.Get("size").Float()),
			get: func(context.Context) (source, error) { return blobSource(f.name, b), nil }})
	}
	return src, skipped
}

// openDataset opens the shards of src as one table within budget: each
// shard, when its rows are first read (or by Index), is sniffed and opened
// as Arrow or, in a Parquet reader's worker, as Parquet. Closing the
// dataset's source stops the shards' reads.
func openDataset(src source, budget int64) (*decode.File, source, error) {
	var mu sync.Mutex
	var closers []func()
	shards := make([]decode.Shard, len(src.Shards))
	for i, sh := range src.Shards {
		shards[i] = decode.Shard{Name: sh.Name, Size: sh.Size, Open: func(ctx context.Context, opt decode.Options) (*decode.File, error) {
			s, err := sh.get(ctx)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			closers = append(closers, s.stop)
			mu.Unlock()
			opt.RowWindow = readOptions(s, budget).RowWindow
			if sniff(s) == decode.Parquet {
				f, _, err := browser.OpenParquet(ctx, s.Name, s.Blob, s.Reader, s.Size, opt)
				return f, err // its Close closes the worker
			}
			return decode.OpenReader(s.Name, s.Reader, s.Size, opt)
		}}
	}
	src.Close = chainClose(src.Close, func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range closers {
			c()
		}
	})
	f, err := decode.OpenDataset(context.Background(), src.Name, shards, decode.Options{Budget: budget})
	return f, src, err
}

// shardsText is the progress of opening a dataset's files: "12 of 42
// files open".
func shardsText(shards []decode.ShardInfo) string {
	open := 0
	for _, s := range shards {
		if s.File != nil || s.Err != "" {
			open++
		}
	}
	return fmt.Sprintf("%d of %d files open", open, len(shards))
}

// skippedText is the warning that lists the files dropped or picked with
// a dataset's that it does not open (the first 8).
func skippedText(skipped []string) string {
	list := strings.Join(headOf(skipped, 8), ", ")
	if len(skipped) == 1 {
		return "1 file skipped (not Arrow or Parquet by its name, or unreadable): " + list
	}
	return fmt.Sprintf("%d files skipped (not Arrow or Parquet by their names, or unreadable): %s", len(skipped), list)
}

// shardFormats names the formats of a dataset's files open, each once, in
// the order of the files: "Parquet, Arrow IPC file"; first is the
// dataset's (its first file's) while none is open.
func shardFormats(shards []decode.ShardInfo, first decode.Format) string {
	var formats []string
	for _, s := range shards {
		if s.File != nil && !slices.Contains(formats, string(s.File.Format)) {
			formats = append(formats, string(s.File.Format))
		}
	}
	if len(formats) == 0 {
		return string(first)
	}
	return strings.Join(formats, ", ")
}

// naturalLess orders shard names. TODO(merge): listing.NaturalLess.
func naturalLess(a, b string) bool { return a < b }
