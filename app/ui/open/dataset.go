package open

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/listing"
	"github.com/tensorview/tensorview/app/remote"
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
	sort.SliceStable(files, func(i, j int) bool { return listing.NaturalLess(files[i].name, files[j].name) })
	kept := make([]string, len(files))
	for i, f := range files {
		kept[i] = f.name
	}
	src = source{Name: datasetName(kept)}
	for _, f := range files {
		b := f.blob
		src.Shards = append(src.Shards, shardSource{Name: f.name, Size: int64(b.Get("size").Float()),
			get: func(context.Context) (source, error) { return BlobSource(f.name, b), nil }})
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
				f, _, err := browser.OpenParquet(ctx, s.Name, s.Blob, s.Reader, s.URL, s.Size, opt)
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

// ShardsText is the progress of opening a dataset's files: "12 of 42
// files open".
func ShardsText(shards []decode.ShardInfo) string {
	open := 0
	for _, s := range shards {
		if s.File != nil || s.Err != "" {
			open++
		}
	}
	return fmt.Sprintf("%d of %d files open", open, len(shards))
}

// openDatasetLink opens the dataset a link names (spec, a State.URL of
// viewstate.DatasetParams params): the files of its url parameters, of
// the list of links urls names, or a Hugging Face dataset's Parquet
// shards (hf, with config, split and hub), in natural order of their
// names, each read by HTTP Range once its rows are first read. Listing
// (urls, hf) is a request or two, made off the UI goroutine.
func (op *Opener) openDatasetLink(ctx app.Context, spec string, params url.Values) {
	op.StopIndexing()
	op.opens++
	gen := op.opens
	name := "the dataset"
	if hf := params.Get("hf"); hf != "" {
		name = hf
	}
	op.Status.Reading(name)
	octx, cancel := context.WithCancel(context.Background())
	op.Work.Task, op.Work.Cancel = TaskDownload, cancel
	ctx.Update()
	fail := op.urlFailed(ctx, gen)
	page := app.Window().URL().String()
	ctx.Async(func() {
		src, err := datasetLinkSource(octx, ctx, page, params)
		if err != nil {
			fail(err)
			return
		}
		src.URL, src.gen = spec, gen
		ActionOpen.Send(ctx, src)
	})
}

// datasetLinkSource lists the files a dataset link names (params) as
// shards: url parameters as they are, a list of links (urls), or a
// Hugging Face dataset's split (hf), whose shards' sizes its tree listing
// gives in the background (src.sizes). Relative addresses are of page. It
// blocks.
func datasetLinkSource(octx context.Context, ctx app.Context, page string, params url.Values) (source, error) {
	var src source
	links := params["url"]
	switch {
	case params.Has("hf"):
		l, err := listing.Hub(octx, browser.Fetcher{}, params.Get("hub"), params.Get("hf"), params.Get("config"), params.Get("split"))
		if err != nil {
			return src, err
		}
		// The sizes come while the first file opens: they only refine the
		// estimates of the files not open yet.
		sctx, cancel := context.WithCancel(context.Background())
		src.Close, src.sizes = cancel, hubSizes(sctx, l)
		src.Name = l.Dataset + " · " + l.Config + "/" + l.Split
		if l.Picked != "" {
			src.notes = append(src.notes, l.Picked)
		}
		for _, sh := range l.Shards {
			src.Shards = append(src.Shards, urlShard(ctx, sh.Name, sh.URL, sh.Size))
		}
		return src, nil
	case params.Has("urls"):
		u, err := remote.CheckURL(params.Get("urls"), page)
		if err != nil {
			return src, err
		}
		body, err := getList(octx, u.String())
		if err != nil {
			return src, err
		}
		var bad []listing.BadLink
		if links, bad, err = listing.URLList(body, u.String()); err != nil {
			return src, err
		}
		for _, b := range firstN(bad, 5) {
			src.notes = append(src.notes, fmt.Sprintf("line %d of the list of links skipped: %s (%s)", b.Line, b.Text, b.Reason))
		}
		page = u.String()
	}
	type file struct{ name, addr string }
	var files []file
	for _, raw := range links {
		u, err := remote.CheckURL(raw, page)
		if err != nil {
			return src, err
		}
		files = append(files, file{remote.FileName(u), u.String()})
	}
	if len(files) == 0 {
		return src, errors.New("the dataset's link names no files")
	}
	sort.SliceStable(files, func(i, j int) bool { return listing.NaturalLess(files[i].name, files[j].name) })
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
		src.Shards = append(src.Shards, urlShard(ctx, f.name, f.addr, -1))
	}
	src.Name = datasetName(names)
	return src, nil
}

// hubSizes asks the Hub's tree listing for the sizes of l's shards in the
// background, within ctx: they come once on the channel, in l.Shards'
// order (-1 where it does not say).
func hubSizes(ctx context.Context, l *listing.HubListing) <-chan []int64 {
	lc := *l
	lc.Shards = slices.Clone(l.Shards)
	out := make(chan []int64, 1)
	go func() {
		_ = listing.HubSizes(ctx, browser.Fetcher{}, &lc) // without them, shards are estimated by the first's rows
		sizes := make([]int64, len(lc.Shards))
		for i, s := range lc.Shards {
			sizes[i] = s.Size
		}
		out <- sizes
	}()
	return out
}

// lateSizes gives dataset f the sizes of its files once they come on
// sizes, on the UI goroutine (where f's fields are read).
func (op *Opener) lateSizes(ctx app.Context, f *decode.File, sizes <-chan []int64) {
	ctx.Async(func() {
		s := <-sizes
		ctx.Dispatch(func(ctx app.Context) {
			f.SetShardSizes(s)
			if op.Page.File() == f {
				op.Opened.Rows, op.Opened.Exact = f.Rows()
			}
		})
	})
}

// maxListBytes bounds a list of links (urls=).
const maxListBytes = 64 << 20

// getList reads the list of links at addr whole (a plain GET).
func getList(ctx context.Context, addr string) ([]byte, error) {
	resp, err := browser.Fetcher{}.Fetch(ctx, remote.Request{URL: addr, Get: true})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.Status != 200 {
		return nil, &remote.StatusError{URL: addr, Status: resp.Status}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBytes+1))
	if err == nil && len(body) > maxListBytes {
		err = fmt.Errorf("the list of links at %s is larger than %s", addr, decode.HumanBytes(maxListBytes))
	}
	return body, err
}

// firstN is the first n of list.
func firstN[T any](list []T, n int) []T { return list[:min(n, len(list))] }

// urlShard is the file at addr as a dataset's shard: probed (remote.Open)
// when it is first read, then read by HTTP Range requests.
func urlShard(ctx app.Context, name, addr string, size int64) shardSource {
	return shardSource{Name: name, Size: size, get: func(octx context.Context) (source, error) {
		r, _, err := remote.Open(octx, browser.Fetcher{}, addr, remote.Options{})
		switch {
		case errors.Is(err, remote.ErrNoRange):
			return source{}, fmt.Errorf("the server of %s does not honour HTTP Range requests, which the files of a dataset are read by", addr)
		case err != nil:
			return source{}, err
		}
		watched := &changeWatch{r: r, onChange: func(err error) { ActionChanged.Send(ctx, err.Error()) }}
		return source{Name: name, Size: r.Size(), Reader: watched, URL: addr, Close: r.Close}, nil
	}}
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

// ShardFormats names the formats of a dataset's files open, each once, in
// the order of the files: "Parquet, Arrow IPC file"; first is the
// dataset's (its first file's) while none is open.
func ShardFormats(shards []decode.ShardInfo, first decode.Format) string {
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
