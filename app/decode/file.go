package decode

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// DefaultBudget is the default cache budget: the bytes of decoded record
// batches kept in memory.
const DefaultBudget = 256 << 20

// DefaultSmallFile is the size up to which Open indexes every batch at once.
const DefaultSmallFile = 16 << 20

// Options tune OpenReader.
type Options struct {
	// Budget is the cache budget in bytes (DefaultBudget when 0).
	Budget int64
	// SmallFile is the size up to which Open reads the header of every
	// record batch, so the row count is exact at once (DefaultSmallFile when
	// 0; negative: never).
	SmallFile int64
	// RowWindow, when positive, is about how many bytes of a record
	// batch one row window holds in the batches of an IPC file or stream
	// that are otherwise read whole (up to 16 MiB and a quarter of
	// Budget): the rows asked for are read by windows of about RowWindow
	// bytes of their batch (at least 8 rows, a multiple of 8), each
	// buffer's range of the window exactly, without reading ahead, instead
	// of the whole batch. It is meant for sources where every read is a
	// request whose bytes are transferred (a file by URL, read through
	// app/remote; RemoteRowWindow): the rows of a sorted result, scattered
	// over many batches, then cost a few small reads each rather than
	// their batches. Batches whose body is compressed or whose layout has
	// no row windows (unions, maps, nulls, views, …) are still read whole,
	// and so are Parquet row groups (read through their own source). 0:
	// batches up to 16 MiB are read whole, as before. Such a window reads
	// the values of a string or binary column of large values (images)
	// exactly, placed by their offsets, read first; the bytes its windows
	// read are kept (up to an eighth of Budget, besides it) until
	// File.LoadBatchOf reads the rest of their batch.
	RowWindow int64

	// shared, set by OpenDataset for its shards, is the cache the
	// dataset's files share (one budget for all), under the key file.
	shared *batchCache
	file   int
}

// newCache returns the cache a file opened with o uses: a cache of its own
// of budget bytes, or the dataset's it shares (owned false).
func (o Options) newCache(budget int64) (c *batchCache, owned bool) {
	if o.shared != nil {
		return o.shared, false
	}
	return newBatchCache(budget), true
}

// RemoteRowWindow is the RowWindow, in bytes, for a file read by URL:
// small enough that each buffer's range of a window is a read of at most
// a few KiB (app/remote fetches a read of up to 16 KiB as 4 KiB pieces,
// and rounds larger ones under 64 KiB out to 256 KiB blocks).
const RemoteRowWindow = 16 << 10

// File is an opened Arrow IPC file or stream, or a Parquet file (whose row
// groups are its record batches: OpenParquet): its schema, where its record
// batches are, and a cache of the decoded ones. Rows are numbered globally
// across batches.
//
// Its methods are safe for concurrent use. Its exported fields are set by
// OpenReader (or OpenParquet) and never change afterwards (do not modify them); what it
// learns later is returned as copies (Warnings, Fields) or by methods
// (Rows, NumBatches, Indexed, CacheBytes, Reading).
type File struct {
	Name     string
	Size     int64 // bytes
	Format   Format
	Schema   *arrow.Schema
	Metadata []KV // schema-level custom metadata

	fields  []FieldInfo    // as described at open (describeField)
	tensors []tensorReader // per column: how its rows are read as tensors, or nil
	// images, per column: how a row's bytes are found in a column that
	// may hold encoded images (binary, or Hugging Face's Image struct), or
	// nil.
	images []func(arrow.Array, int) ([]byte, bool)
	budget int64 // the cache budget, in bytes
	// rowWindow is Options.RowWindow: the bytes of a row window in the
	// batches otherwise read whole (0: those are read whole).
	rowWindow int64
	meter     *meter // the reader passed in: splits, shows and stops big reads
	ends      *ends  // the meter with the first and last bytes cached: what every read goes through
	index     *ipcIndex
	cache     *batchCache
	// cacheID names the file's windows in a cache shared by a dataset's
	// shards; sharedCache says the cache is not the file's own (Close
	// leaves it to the dataset).
	cacheID     int
	sharedCache bool
	// set is the shards of a dataset (OpenDataset); nil for one file.
	set *dataset
	// pq reads the chunks of a Parquet file (OpenParquet) through its
	// source; nil for Arrow files, whose chunks are read from their bytes.
	pq    *parquetFile
	notes notes

	depth int // nested record batches below the file the viewer opened (Nested)

	// windowReads counts the row windows read from large batches.
	windowReads atomic.Int64
	firstRead   atomic.Bool // rows have been read: a record batch, or a row window (whose reads, the first, are made at once)
	ahead       aheadCache  // the read-ahead ranges of row-window reads
	layouts     layoutCache // the headers of batches read by row windows or ReadColumns
	dicts       dictHold    // the dictionaries of the batches read by row windows
	parts       bodyParts   // the bytes exact row windows read, until their batch is read whole (rest.go)
	colSchema   colSchema   // the schema message of the columns ReadColumns read last
}

// OpenReader opens the Arrow IPC file or stream of size bytes read through
// r. It reads the schema and locates the record batches (row counts of the
// first eagerHeaders batches; Index reads the rest) but decodes no batch. A
// file that cannot be opened returns an error that says why.
func OpenReader(name string, r io.ReaderAt, size int64, opt Options) (f *File, err error) {
	defer guard(&err, "reading %s", name)
	// Open needs the start (magic, schema, the first batch's header) and
	// the end (footer) of the file: two reads, kept for everything that
	// asks for those bytes again (arrow-go's file reader among others).
	m := &meter{r: r}
	e, err := newEnds(m, size, endsChunk)
	if err != nil {
		return nil, err
	}
	m.r = e.under(r) // from now on, what the ends hold is not read again
	head := make([]byte, min(size, 16))
	if err := readFull(e, head, 0); err != nil {
		return nil, err
	}
	format, err := Sniff(head)
	if err != nil {
		return nil, err
	}
	if format == Parquet {
		return nil, fmt.Errorf("%s is %w: it opens with OpenParquet", name, ErrParquet)
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	small := opt.SmallFile
	if small == 0 {
		small = DefaultSmallFile
	}
	f = &File{Name: name, Size: size, budget: budget, rowWindow: max(0, opt.RowWindow), meter: m, ends: e}
	f.useCache(opt)
	f.index = &ipcIndex{r: e, size: size, budget: budget, small: small, format: format, warn: f.notes.warn}
	if err := f.index.open(); err != nil {
		return nil, err
	}
	f.Format, f.Schema = f.index.format, f.index.schema
	f.describe()
	return f, nil
}

// useCache gives f the cache opt says: its own, or its dataset's.
func (f *File) useCache(opt Options) {
	var owned bool
	f.cache, owned = opt.newCache(f.budget)
	f.sharedCache, f.cacheID = !owned, opt.file
}

// describe fills Metadata and fields from the schema.
func (f *File) describe() {
	if md := f.Schema.Metadata(); md.Len() > 0 {
		for i, k := range md.Keys() {
			f.Metadata = append(f.Metadata, KV{k, md.Values()[i]})
		}
	}
	for i, fld := range f.Schema.Fields() {
		d, tr := describeField(i, fld, f.Schema.Metadata())
		bytesOf, images := imageColumn(fld.Type)
		if tr != nil || d.Err != "" || !images {
			bytesOf = nil
		} else {
			tr, d.Images = imageTensor(bytesOf), true
		}
		f.fields = append(f.fields, d)
		f.tensors = append(f.tensors, tr)
		f.images = append(f.images, bytesOf)
	}
}

// HasPreviews reports whether a column of the file has previews: a tensor
// column (FieldInfo.Tensor) or one of encoded images (FieldInfo.Images).
// It is Fields' answer without copying them (a table asks it for every row
// height).
func (f *File) HasPreviews() bool {
	for _, fld := range f.fields {
		if fld.Tensor != nil || fld.Images {
			return true
		}
	}
	return false
}

// Fields returns the schema's fields as the viewer shows them: a copy,
// whose Err also tells of the errors found in the columns of the record
// batches read so far.
func (f *File) Fields() []FieldInfo {
	if f.set != nil {
		return f.set.fields()
	}
	return f.notes.fields(f.fields)
}

// Warnings returns a copy of the file's warnings, oldest first: what does
// not stop it from being read (a stream that breaks after some record
// batches, a batch with another row count than its header's) and what the
// viewer added (AddWarning).
func (f *File) Warnings() []string {
	if f.set != nil {
		return f.set.warnings()
	}
	return f.notes.list()
}

// AddWarning adds a warning about the file, such as why indexing stopped.
func (f *File) AddWarning(msg string) { f.notes.warn(msg) }

// Rows returns the number of rows and whether it is exact (false while
// Index has not finished: the rest is estimated from the bytes).
func (f *File) Rows() (n int64, exact bool) {
	if f.set != nil {
		l := f.set.rows()
		return l.total, l.exact
	}
	return f.index.rows()
}

// NumBatches returns the number of record batches located so far.
func (f *File) NumBatches() int {
	if f.set != nil {
		return f.set.batches().total
	}
	return f.index.numBatches()
}

// Indexed reports whether every record batch and its row count is known.
func (f *File) Indexed() bool {
	if f.set != nil {
		return f.set.indexed()
	}
	return f.index.isIndexed()
}

// Index reads the headers of the record batches Open did not, calling
// progress(bytesDone, bytesTotal) as it goes (bytes of the file), until
// done or ctx is cancelled (returning ctx's error); a record batch header
// that cannot be read stops it with an error naming the batch and its
// offset, the batches before it in place. Streams are scanned message by
// message; where a stream breaks, the index ends there with a warning.
// Concurrent calls are safe: a stream is scanned by one at a time, each
// message once.
func (f *File) Index(ctx context.Context, progress func(done, total int64)) (err error) {
	defer guard(&err, "indexing %s", f.Name)
	if f.set != nil {
		return f.set.index(ctx, progress)
	}
	return f.index.index(ctx, progress)
}

// CacheBytes returns the bytes of decoded record batches in the cache and
// its budget.
func (f *File) CacheBytes() (used, budget int64) { return f.cache.usage() }

// Close drops the cache and stops the big reads under way (their loads
// fail with an error saying the file was closed). Loads that end after it
// keep nothing. For a Parquet file it closes the ParquetSource too.
func (f *File) Close() {
	if f.set != nil {
		f.set.close()
		return
	}
	f.meter.close()
	if !f.sharedCache {
		f.cache.close()
	}
	if f.pq != nil {
		f.pq.closeSource()
	}
}

// HumanBytes formats a byte count with binary units: 1.5 KiB, 3.0 MiB.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// maxNameLen is how many characters of a name (of a column, a codec) an
// error message quotes.
const maxNameLen = 200

// truncate shortens s to n characters, marking a cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
