package decode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tensorview/tensorview/internal/nullarray"
)

// Shard is one file of a dataset (OpenDataset): an Arrow IPC file or
// stream, or a Parquet file.
type Shard struct {
	// Name names the file where it is shown and in errors (a path, or a
	// URL's file name).
	Name string
	// Size is the file's size in bytes, or -1 when it is not known before
	// the file opens. It sizes the row estimates of shards not yet open.
	Size int64
	// Open opens the file (OpenReader or OpenParquet over its source) with
	// the options it is given, which make it share the dataset's cache;
	// ctx stops it.
	Open func(ctx context.Context, opt Options) (*File, error)
}

// ShardInfo is what is known of one shard of a dataset (File.Shards).
type ShardInfo struct {
	Name string
	Size int64 // bytes; -1 while unknown
	// Start is the global row of the shard's first row, and Rows its row
	// count: exact when Exact, else estimated (from its size and the bytes
	// per row of the shards open, until it opens and is indexed). Start is
	// final when Placed (the shards before it are counted).
	Start, Rows   int64
	Exact, Placed bool
	// File is the shard opened (its own facts: Format, ParquetFacts,
	// Warnings), nil until it opens or when it could not be.
	File *File
	// Err says why the shard could not be opened; its rows are none.
	Err string
}

// shardOpenWidth is how many shards Index opens at once: opening a
// shard by URL is a round trip or two of small reads.
const shardOpenWidth = 4

// maxFirstTries is how many shards OpenDataset tries, in order, for one
// that opens and gives the dataset its schema.
const maxFirstTries = 8

// dataset is the shards of a File that OpenDataset made: one table, the
// rows of each shard after those of the shards before it, its columns
// those of the first shard that opened (by field name in the others).
type dataset struct {
	// fileCol is the dataset's last column, the file each row is in
	// (fileField), which no shard has.
	fileCol  int
	f        *File // the dataset's own File
	opt      Options
	shards   []*shard
	schemaOf string // the name of the shard whose schema is the dataset's

	mu          sync.Mutex
	perRow      float64 // bytes per row of the first shard opened, for estimates
	gen         int     // counts shard state changes: the layouts below are of gen
	moves       int     // counts the changes of rowsAt's placement (File.Placement)
	rowsAt      shardRows
	batchesAt   shardBatches
	unknownCols map[string]bool // columns of later shards not in the dataset, warned once each
}

// shard is one file of a dataset and what became of it.
type shard struct {
	Shard
	id int

	// Guarded by dataset.mu.
	opening  chan struct{} // closed when the open under way ends; nil when none is
	file     *File
	err      error
	indexErr error // why indexing the file stopped: its count stays as it is
	// cols maps the dataset's columns to the shard's (-1: not in it); bad
	// says, per dataset column, why the shard's column cannot be read as
	// the dataset's, or "": its type there and the dataset's ("utf8 in
	// b.parquet, int64 in a.parquet"; mismatch makes the message).
	cols []int
	bad  []string
}

// shardRows places the shards' rows: starts[s] is shard s's first global
// row and rows[s] its count; exact when every count is. placed[s] says
// that every shard before s has its final count (exact, or as far as it
// could be counted), so that shard s's rows are where they stay.
type shardRows struct {
	gen          int
	starts, rows []int64
	placed       []bool
	total        int64
	exact, valid bool
	stable       bool // no count can change at this gen (every shard opened and exact, or failed)
}

// shardBatches numbers the dataset's record batches: shard s's batches are
// first[s] … first[s]+n[s]-1; a shard not yet open counts as one batch.
type shardBatches struct {
	gen           int
	first, n      []int
	total         int
	valid, stable bool
}

// OpenDataset opens files as one table (Hugging Face's Parquet shards, a
// directory of parts written by Ray, Daft or Spark): the rows of shards[0],
// then those of shards[1], and so on. It opens the first shard (or, when
// that fails, the next, up to 8) and takes the dataset's schema from it;
// the others open when their rows are first read, or all by Index. A
// shard's column is its field of the same name: a field missing from a
// shard reads as null there, one of another type as an error in that
// shard's cells (and a warning), and fields only later shards have are
// named in a warning and not shown. The shards share one cache of
// opt.Budget bytes. Rows of shards not yet open are estimated from their
// sizes (Rows is not exact until Index ends). A shard that cannot be
// opened has no rows; Shards and Warnings say why. It fails when no shard
// of the first 8 opens, or there is none.
func OpenDataset(ctx context.Context, name string, shards []Shard, opt Options) (f *File, err error) {
	defer guard(&err, "opening %s", name)
	if len(shards) == 0 {
		return nil, fmt.Errorf("%s: no files to open", name)
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	opt.shared = newBatchCache(opt.Budget)
	d := &dataset{opt: opt, unknownCols: map[string]bool{}}
	var size int64
	for i, s := range shards {
		d.shards = append(d.shards, &shard{Shard: s, id: i + 1})
		if s.Size > 0 {
			size += s.Size
		}
	}
	var first *File
	var errs []string
	for _, s := range d.shards[:min(len(d.shards), maxFirstTries)] {
		sf, err := d.openShard(ctx, s)
		if err == nil {
			first, d.schemaOf = sf, s.Name
			break
		}
		if ctx.Err() != nil {
			return nil, err
		}
		errs = append(errs, err.Error())
	}
	if first == nil {
		return nil, fmt.Errorf("%s: none of its first %d files opens: %s", name, len(errs), strings.Join(errs, "; "))
	}
	schema := withFileField(first.Schema)
	d.fileCol = schema.NumFields() - 1
	f = &File{Name: name, Size: size, Format: first.Format, Schema: schema, budget: opt.Budget,
		meter: &meter{}, cache: opt.shared, set: d}
	d.f = f
	f.describe()
	d.mu.Lock()
	for _, s := range d.shards {
		if s.file != nil {
			d.mapColumns(s)
		}
	}
	d.mu.Unlock()
	return f, nil
}

// openShard opens s, or waits for the open under way, within ctx. An open
// stopped by its ctx leaves s to be opened again; one that failed keeps
// its error until Forget(Failed).
func (d *dataset) openShard(ctx context.Context, s *shard) (*File, error) {
	for {
		d.mu.Lock()
		switch {
		case s.file != nil:
			d.mu.Unlock()
			return s.file, nil
		case s.err != nil:
			d.mu.Unlock()
			return nil, s.err
		case s.opening != nil:
			ch := s.opening
			d.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("opening %s: %w", s.Name, ErrCanceled)
			}
		}
		if ctx.Err() != nil {
			d.mu.Unlock()
			return nil, fmt.Errorf("opening %s: %w", s.Name, ErrCanceled)
		}
		ch := make(chan struct{})
		s.opening = ch
		d.mu.Unlock()
		o := d.opt
		o.file = s.id
		sf, err := s.Open(ctx, o)
		if err == nil && sf == nil {
			err = errors.New("no file")
		}
		err = d.shardOpened(ctx, s, sf, err)
		close(ch)
		if err != nil {
			return nil, err
		}
		return sf, nil
	}
}

// shardOpened records how the open of shard s ended (its file sf, or err)
// under the dataset's lock and returns the error openShard returns: a
// cancel is not kept (the shard is opened again when asked again), any
// other error is the shard's from then on.
func (d *dataset) shardOpened(ctx context.Context, s *shard, sf *File, err error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	s.opening = nil
	d.gen++
	switch {
	case err == nil:
		s.file = sf
		if d.perRow == 0 && sf.Size > 0 {
			if n, _ := sf.Rows(); n > 0 {
				d.perRow = float64(sf.Size) / float64(n)
			}
		}
		if d.f != nil {
			d.mapColumns(s)
		}
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("opening %s: %w", s.Name, ErrCanceled)
	default:
		s.err = fmt.Errorf("%s: %w", s.Name, err)
		return s.err
	}
}

// mapColumns finds the dataset's columns in shard s, which is open: by
// field name, the first of that name. Called with d.mu held.
func (d *dataset) mapColumns(s *shard) {
	schema := s.file.Schema
	s.cols = make([]int, d.f.Schema.NumFields())
	s.bad = make([]string, len(s.cols))
	var mismatched []string
	for c, fld := range d.f.Schema.Fields() {
		s.cols[c] = -1
		if c == d.fileCol {
			continue // the dataset's own
		}
		idx := schema.FieldIndices(fld.Name)
		if len(idx) == 0 {
			continue
		}
		sc := idx[0]
		s.cols[c] = sc
		if other := schema.Field(sc).Type; !arrow.TypeEqual(other, fld.Type) {
			s.bad[c] = fmt.Sprintf("%s in %s, %s in %s", other, s.Name, fld.Type, d.schemaOf)
			mismatched = append(mismatched, d.mismatch(c, s.bad[c]))
		}
	}
	var extra []string
	for _, fld := range schema.Fields() {
		if !d.f.Schema.HasField(fld.Name) && !d.unknownCols[fld.Name] {
			d.unknownCols[fld.Name] = true
			extra = append(extra, fmt.Sprintf("%q", truncate(fld.Name, 40)))
		}
	}
	for _, m := range mismatched {
		d.f.notes.warn(m + ": its cells there show this error")
	}
	if len(extra) > 0 {
		d.f.notes.warn(fmt.Sprintf("%s has columns the dataset's first file has not, not shown: %s", s.Name, strings.Join(extra, ", ")))
	}
}

// mismatch is the error of dataset column c in a shard whose column of
// that name is of another type (bad: the types and files).
func (d *dataset) mismatch(c int, bad string) string {
	return fmt.Sprintf("column %q is %s", truncate(d.f.Schema.Field(c).Name, 40), bad)
}

// estimate is the estimated row count of shard s, not open: its size over
// the bytes per row of the first shard opened, or that shard's rows.
func (d *dataset) estimate(s *shard) int64 {
	if s.Size > 0 && d.perRow > 0 {
		return max(1, int64(float64(s.Size)/d.perRow+0.5))
	}
	for _, o := range d.shards {
		if o.file != nil {
			n, _ := o.file.Rows()
			return n
		}
	}
	return 0
}

// rows returns the layout of the shards' rows, computed again unless
// nothing can have changed since.
func (d *dataset) rows() shardRows {
	d.mu.Lock()
	defer d.mu.Unlock()
	l := &d.rowsAt
	if l.valid && l.stable && l.gen == d.gen {
		return *l
	}
	n := len(d.shards)
	old := *l
	*l = shardRows{gen: d.gen, starts: make([]int64, n), rows: make([]int64, n), placed: make([]bool, n), exact: true, valid: true, stable: true}
	final := true // every shard so far has its final count
	for i, s := range d.shards {
		var rows int64
		exact := true
		switch {
		case s.file != nil:
			rows, exact = s.file.Rows()
		case s.err != nil:
		default:
			rows, exact = d.estimate(s), false
		}
		l.starts[i], l.rows[i], l.placed[i] = l.total, rows, final
		l.total += rows
		l.exact = l.exact && exact
		l.stable = l.stable && exact
		final = final && (exact || s.indexErr != nil)
	}
	if old.valid && (!slices.Equal(old.starts, l.starts) || !slices.Equal(old.rows, l.rows) || !slices.Equal(old.placed, l.placed)) {
		d.moves++
	}
	return *l
}

// placement is File.Placement for a dataset.
func (d *dataset) placement() int {
	d.rows()
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.moves
}

// batches returns the numbering of the dataset's record batches.
func (d *dataset) batches() shardBatches {
	d.mu.Lock()
	defer d.mu.Unlock()
	l := &d.batchesAt
	if l.valid && l.stable && l.gen == d.gen {
		return *l
	}
	n := len(d.shards)
	*l = shardBatches{gen: d.gen, first: make([]int, n), n: make([]int, n), valid: true, stable: true}
	for i, s := range d.shards {
		k := 0
		switch {
		case s.file != nil:
			k = s.file.NumBatches()
			l.stable = l.stable && s.file.Indexed()
		case s.err != nil:
		default:
			k, l.stable = 1, false
		}
		l.first[i], l.n[i] = l.total, k
		l.total += k
	}
	return *l
}

// locate returns the shard that holds global row and the row's index in
// it by the counts known so far (estimated for shards not open or not
// indexed); placed says that the row's place is final (every shard before
// its shard has its final count).
func (d *dataset) locate(row int64) (s *shard, local int64, placed, ok bool) {
	l := d.rows()
	if row < 0 || row >= l.total {
		return nil, 0, false, false
	}
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > row }) - 1
	for i > 0 && l.rows[i] == 0 {
		i--
	}
	if i < 0 || row-l.starts[i] >= l.rows[i] {
		return nil, 0, false, false
	}
	return d.shards[i], row - l.starts[i], l.placed[i], true
}

// place is locate for the rows whose place is final: ok is false for the
// others (as for a file's rows not yet indexed), which are placed as the
// shards before them open and are indexed.
func (d *dataset) place(row int64) (s *shard, local int64, ok bool) {
	s, local, placed, ok := d.locate(row)
	return s, local, ok && placed
}

// batch returns the shard and its own index of the dataset's record batch
// i; open is false for the one batch that stands for a shard not yet open.
func (d *dataset) batch(i int) (s *shard, local int, open, ok bool) {
	l := d.batches()
	if i < 0 || i >= l.total {
		return nil, 0, false, false
	}
	k := sort.Search(len(l.first), func(k int) bool { return l.first[k] > i }) - 1
	for k > 0 && l.n[k] == 0 {
		k--
	}
	if k < 0 || i-l.first[k] >= l.n[k] {
		return nil, 0, false, false
	}
	s = d.shards[k]
	d.mu.Lock()
	open = s.file != nil
	d.mu.Unlock()
	return s, i - l.first[k], open, true
}

// opened returns shard s's file and column maps, or nil when it is not
// open.
func (d *dataset) opened(s *shard) (sf *File, cols []int, bad []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return s.file, s.cols, s.bad
}

// rowFile locates row, first opening and indexing the shards before it
// when their counts are not known (a global row is only where it stays
// once they are), then opening its shard when needed (the row is then
// located again, in the shard's exact rows): the shard's file, the row's
// index there, and the shard's column maps.
func (d *dataset) rowFile(ctx context.Context, row int64) (s *shard, sf *File, local int64, err error) {
	settled := 0 // d.shards[:settled] have their final counts
	for range 2*len(d.shards) + 2 {
		s, local, placed, ok := d.locate(row)
		if !ok || !placed {
			// The row's place waits on counts not known yet: those of
			// the shards before its own or, past the estimated end, of
			// all.
			upTo := len(d.shards)
			if ok {
				upTo = s.id - 1
			}
			if upTo > settled {
				if err := d.settle(ctx, d.shards[settled:upTo], nil); err != nil {
					return nil, nil, 0, fmt.Errorf("row %d: %w", row, err)
				}
				settled = upTo
				continue
			}
			if !ok {
				return nil, nil, 0, fmt.Errorf("no row %d", row)
			}
			// Counted as far as they can be (an index that stopped).
		}
		if sf, _, _ := d.opened(s); sf != nil {
			return s, sf, local, nil
		}
		if _, err := d.openShard(ctx, s); err != nil && errors.Is(err, ErrCanceled) {
			return nil, nil, 0, err
		}
		// Opened or failed: the rows are placed again.
	}
	return nil, nil, 0, fmt.Errorf("no row %d (yet)", row)
}

// firstBatch is the dataset's number of shard s's first record batch.
func (d *dataset) firstBatch(s *shard) int {
	return d.batches().first[s.id-1]
}

// shardCols maps the dataset's columns cols to shard s's: those it has
// of the same type, in increasing order, and for each of cols its place
// among them (-1: read as nulls).
func shardCols(cols []int, scols []int, bad []string) (got []int, pos []int) {
	pos = make([]int, len(cols))
	for j, c := range cols {
		pos[j] = -1
		if sc := scols[c]; sc >= 0 && bad[c] == "" {
			got = append(got, sc)
		}
	}
	sort.Ints(got)
	for j, c := range cols {
		if sc := scols[c]; sc >= 0 && bad[c] == "" {
			pos[j] = sort.SearchInts(got, sc)
		}
	}
	return got, pos
}

// remap builds the record batch of the dataset's columns cols from rec,
// which holds shard s's columns at pos (-1: a column of nulls, or the
// file column). The nulls are allocated within the cache budget: a batch
// whose header claims more rows than the budget's nulls hold (a hostile
// file, read for no column of its own) panics with a refusal, which
// ReadColumns' guard turns into an error wrapping ErrTooLarge.
func (d *dataset) remap(rec arrow.RecordBatch, s *shard, cols, pos []int) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	n := int(rec.NumRows())
	var mem memory.Allocator
	budget := func() memory.Allocator {
		if mem == nil {
			mem = newBudgetAllocator(d.f.budget, d.f.Size, fmt.Sprintf("the nulls and file names of %d rows of %s", n, s.Name))
		}
		return mem
	}
	for j, c := range cols {
		fields[j] = d.f.Schema.Field(c)
		switch {
		case c == d.fileCol:
			arrs[j] = fileArray(budget(), s.Name, n)
		case pos[j] >= 0:
			arrs[j] = rec.Column(pos[j])
		default:
			arrs[j] = nullarray.Make(budget(), fields[j].Type, n)
		}
	}
	md := d.f.Schema.Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), arrs, int64(n))
}

// allCols lists the dataset's columns, 0 … n-1.
func (d *dataset) allCols() []int {
	cols := make([]int, d.f.Schema.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return cols
}

// each calls fn with every shard open.
func (d *dataset) each(fn func(s *shard, sf *File)) {
	for _, s := range d.shards {
		if sf, _, _ := d.opened(s); sf != nil {
			fn(s, sf)
		}
	}
}

// close closes the shards open and the cache they share.
func (d *dataset) close() {
	d.each(func(_ *shard, sf *File) { sf.Close() })
	d.opt.shared.close()
}

// FileMetadataKey marks a dataset's file column in its field's metadata
// (OpenDataset): the column of the file each row is in, which the dataset
// adds after its first file's columns.
const FileMetadataKey = "tensorview:dataset_file"

// fileType is the file column's type: the file's name, dictionary-encoded
// (one value per file).
var fileType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// withFileField is schema with the dataset's file column after its fields,
// named "file" (or "file_", "file__"… when the schema has a field so
// named).
func withFileField(schema *arrow.Schema) *arrow.Schema {
	name := "file"
	for schema.HasField(name) {
		name += "_"
	}
	md := arrow.NewMetadata([]string{FileMetadataKey}, []string{"the file of the dataset that holds the row"})
	fields := append(slices.Clone(schema.Fields()), arrow.Field{Name: name, Type: fileType, Metadata: md})
	smd := schema.Metadata()
	return arrow.NewSchema(fields, &smd)
}

// fileArray is n rows of the file column, all file name, allocated from mem.
func fileArray(mem memory.Allocator, name string, n int) arrow.Array {
	dict := array.NewStringBuilder(mem)
	dict.Append(name)
	idx := array.NewInt32Builder(mem)
	idx.AppendEmptyValues(n) // index 0, the one name
	return array.NewDictionaryArray(fileType, idx.NewArray(), dict.NewArray())
}
