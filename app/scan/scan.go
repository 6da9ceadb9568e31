package scan

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/internal/nullarray"
)

// Source is what a scan reads: a file's record batches, in file order, a
// few columns at a time. app/decode's File is one (through an adapter in
// the viewer); the tests use record batches in memory.
type Source interface {
	// Schema is the file's schema; columns are its field indices.
	Schema() *arrow.Schema
	// NumBatches is the number of record batches (Parquet: row groups).
	NumBatches() int
	// BatchRows is batch i's exact row count, which a source may read
	// when asked (an IPC file's record batch header): a scan asks for the
	// batches in file order, just before it reads them. An error fails
	// that batch only, with its rows uncounted.
	BatchRows(i int) (int64, error)
	// Rows is the number of rows in all, an estimate (exact false) while
	// some batches' counts are not read: a scan's progress shows it.
	Rows() (n int64, exact bool)
	// ReadColumns reads every row of batch i with only the fields cols
	// (increasing), and returns how to read the tensors of its tensor and
	// image columns (indexed as in the returned batch). An error fails
	// that batch only: its rows are counted as not evaluated.
	ReadColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, query.Tensors, error)
}

// BoundsSource is a Source that knows bounds of its batches' columns
// without reading them (a Parquet file's row-group statistics): a filter
// skips the batches where no row can match (query.Filter.MayMatch),
// reading nothing of them. The filter must be bound to the schema's
// columns in order (query.ColumnsOf), so that its column indices are field
// indices.
type BoundsSource interface {
	Source
	// Bounds are field col's bounds in batch i; ok false: none are known.
	Bounds(i, col int) (b query.Bounds, ok bool)
}

// DefaultSlice is how many rows a scan evaluates between two calls of
// Options.Pace: small enough that a slice of the heaviest work (a tensor
// statistic over 224×224×3 images is about 50 µs a row) stays near 50 ms
// only for such rows; plain columns take well under 5 ms.
const DefaultSlice = 16 << 10

// Options are a scan's pacing and reporting.
type Options struct {
	// Slice is the number of rows between Pace calls (DefaultSlice when 0).
	Slice int
	// Pace is called between slices and while sorting: in the browser it
	// yields to the event loop (Go's wasm is one thread), so that the page
	// stays responsive. An error it returns stops the scan. nil: none.
	Pace func() error
	// Progress, when set, is called after each slice.
	Progress func(Progress)
}

// Progress is how far a scan is.
type Progress struct {
	Rows, Total int64 // rows scanned, rows in the file (estimated until the source knows every batch's count)
	Batch       int   // the batch being read
	// Skipped counts the rows of the batches a filter skipped, their
	// bounds showing that none of their rows match (BoundsSource).
	Skipped int64
	// Matches is a filter's result so far (rows in file order): a grid
	// can show it while the scan goes on. It shares storage with later
	// results: read it, never change it.
	Matches *query.Matches
}

// Unread is what a scan could not read: the rows of batches whose columns
// failed to load, counted as not evaluated (they do not match, sort last,
// and are left out of statistics; a batch whose row count cannot be read
// adds no rows), and the first such error.
type Unread struct {
	Rows       int64
	FirstError string
}

func (u *Unread) add(rows int64, i int, err error) {
	u.Rows += rows
	if u.FirstError == "" {
		u.FirstError = fmt.Sprintf("record batch %d: %v", i, err)
	}
}

// columns maps column names to the schema's field indices, increasing.
func columns(schema *arrow.Schema, names []string) ([]int, error) {
	var cols []int
	for _, n := range names {
		idx := schema.FieldIndices(n)
		if len(idx) == 0 {
			return nil, fmt.Errorf("no column %q", n)
		}
		cols = append(cols, idx[0])
	}
	// Few columns: an insertion sort without repeats.
	out := cols[:0:0]
	for _, c := range cols {
		k := 0
		for k < len(out) && out[k] < c {
			k++
		}
		if k < len(out) && out[k] == c {
			continue
		}
		out = append(out, 0)
		copy(out[k+1:], out[k:])
		out[k] = c
	}
	return out, nil
}

// walk reads the needed columns of every batch in turn and hands each
// slice of rows to do; a batch whose columns cannot be read goes to failed.
func walk(ctx context.Context, src Source, needs []string, opt Options, progress func(*Progress), skip func(i int, rows int64) bool,
	do func(ctx context.Context, b arrow.RecordBatch, ts query.Tensors, base int64, start, end int) error,
	failed func(i int, base, rows int64, err error) error) error {
	cols, err := columns(src.Schema(), needs)
	if err != nil {
		return err
	}
	slice := opt.Slice
	if slice <= 0 {
		slice = DefaultSlice
	}
	n := src.NumBatches()
	p := Progress{}
	report := func() {
		total, _ := src.Rows()
		p.Total = max(total, p.Rows)
		if progress != nil {
			progress(&p)
		}
		if opt.Progress != nil {
			opt.Progress(p)
		}
	}
	pace := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if opt.Pace != nil {
			return opt.Pace()
		}
		return nil
	}
	var base int64
	for i := 0; i < n; i++ {
		p.Batch = i
		rows, err := src.BatchRows(i)
		if err == nil && skip != nil && skip(i, rows) {
			p.Rows += rows
			p.Skipped += rows
			base += rows
			report()
			continue
		}
		var b arrow.RecordBatch
		var ts query.Tensors
		if err == nil {
			b, ts, err = src.ReadColumns(ctx, i, cols)
		}
		switch {
		case ctx.Err() != nil:
			if b != nil {
				b.Release()
			}
			return ctx.Err()
		case err == nil && b.NumRows() != rows:
			b.Release()
			err = fmt.Errorf("it holds %d rows where the index says %d", b.NumRows(), rows)
		}
		if err != nil {
			if err := failed(i, base, rows, err); err != nil {
				return err
			}
			p.Rows += rows
			report()
		} else {
			for start := 0; start < int(rows); start += slice {
				end := min(int(rows), start+slice)
				if err := do(ctx, b, ts, base, start, end); err != nil {
					b.Release()
					return err
				}
				p.Rows += int64(end - start)
				report()
				if err := pace(); err != nil {
					b.Release()
					return err
				}
			}
			b.Release()
		}
		base += rows
	}
	return nil
}

// Filter runs f over the whole file and returns the matching rows, in file
// order (skipping, unread, the batches of a BoundsSource where no row can
// match), with the rows it could not evaluate (unreadable tensors counted by
// the filter itself, unreadable batches in Unread). On cancellation it
// returns ctx's error with the matches found so far.
func Filter(ctx context.Context, src Source, f *query.Filter, opt Options) (query.Matches, Unread, error) {
	var m query.Matches
	var u Unread
	var bf *query.BatchFilter
	var cur arrow.RecordBatch
	var skip func(i int, rows int64) bool
	if bs, ok := src.(BoundsSource); ok {
		skip = func(i int, rows int64) bool {
			return !f.MayMatch(func(col int) (query.Bounds, bool) {
				b, ok := bs.Bounds(i, col)
				b.Rows = rows
				return b, ok
			})
		}
	}
	err := walk(ctx, src, f.Needs(), opt, func(p *Progress) { p.Matches = &m }, skip,
		func(ctx context.Context, b arrow.RecordBatch, ts query.Tensors, base int64, start, end int) error {
			if b != cur {
				var err error
				if bf, err = f.Batch(b, ts); err != nil {
					return err
				}
				cur = b
			}
			sel, err := bf.Range(ctx, start, end)
			if err != nil {
				return err
			}
			m.Add(base, sel)
			return nil
		},
		func(i int, base, rows int64, err error) error {
			u.add(rows, i, err)
			return nil
		})
	return m, u, err
}

// MaxSortRows is the most rows Sort orders. Its keys and order take
// 12–16 bytes a row before the keys' values (10 million rows of a float
// column peaked at about 650 MB of page memory in bench/browser's query
// layout), and a page's WebAssembly memory ends at 4 GiB: a sort past
// this would run out of memory, which ends the page. A record batch
// header may also claim any row count (171 billion in a fuzzed file).
const MaxSortRows = 1 << 26

// TooManyRowsError is Sort's error for a file of more than Max rows.
type TooManyRowsError struct{ Rows, Max int64 }

func (e *TooManyRowsError) Error() string {
	return fmt.Sprintf("%d rows are too many to sort in the page (at most %d: the page's memory ends at 4 GiB)", e.Rows, e.Max)
}

// Sort orders every row of the file by s: stable, NaN after numbers, nulls
// and the rows of unreadable batches (counted in Unread) last, in both
// directions. Sorting needs the whole column: nothing is shown before the
// end.
//
// A file of more than MaxSortRows rows is not sorted: the error says so
// before anything is read or allocated.
func Sort(ctx context.Context, src Source, s *query.Sort, opt Options) (query.Perm, Unread, error) {
	var u Unread
	var total int64
	for i := range src.NumBatches() {
		n, _ := src.BatchRows(i) // an unreadable batch has no rows to sort
		total += n
		if total > MaxSortRows || n < 0 {
			return query.Perm{}, u, &TooManyRowsError{Rows: total, Max: MaxSortRows}
		}
	}
	keys := s.NewKeys(total)
	schema := src.Schema()
	err := walk(ctx, src, s.Needs(), opt, nil, nil,
		func(ctx context.Context, b arrow.RecordBatch, ts query.Tensors, base int64, start, end int) error {
			return keys.AddRange(ctx, b, ts, start, end)
		},
		func(i int, base, rows int64, err error) error {
			u.add(rows, i, err)
			// Their keys are nulls: they sort last.
			nulls, nerr := nullBatch(schema, s.Needs(), rows)
			if nerr != nil {
				return nerr
			}
			defer nulls.Release()
			return keys.Add(ctx, nulls, nil)
		})
	if err != nil {
		return query.Perm{}, u, err
	}
	perm, err := keys.Sort(ctx, opt.Pace)
	return perm, u, err
}

// nullBatch is a record batch of rows nulls in the columns names.
func nullBatch(schema *arrow.Schema, names []string, rows int64) (arrow.RecordBatch, error) {
	cols, err := columns(schema, names)
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for k, c := range cols {
		fields[k] = schema.Field(c)
		fields[k].Nullable = true
		arrs[k] = nullarray.Make(memory.DefaultAllocator, fields[k].Type, int(rows))
		defer arrs[k].Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, rows), nil
}

// Stats computes st over the whole file, batch after batch (a column too
// large for the cache budget is read one batch at a time), in as many
// passes as st needs (query.Stats.Passes): progress counts the rows of
// every pass, over all of them. Unreadable batches are left out and
// counted in Unread.
func Stats(ctx context.Context, src Source, st *query.Stats, opt Options) (query.Summary, Unread, error) {
	var u Unread
	passes := int64(st.Passes())
	for pass := int64(0); ; pass++ {
		o := opt
		if opt.Progress != nil {
			o.Progress = func(p Progress) {
				p.Rows += pass * p.Total
				p.Total *= passes
				opt.Progress(p)
			}
		}
		err := walk(ctx, src, st.Needs(), o, nil, nil,
			func(ctx context.Context, b arrow.RecordBatch, ts query.Tensors, base int64, start, end int) error {
				return st.AddRange(ctx, b, ts, start, end)
			},
			func(i int, base, rows int64, err error) error {
				if pass == 0 {
					u.add(rows, i, err)
				}
				return nil
			})
		if err != nil {
			return query.Summary{}, u, err
		}
		if !st.NextPass() {
			return st.Summary(), u, nil
		}
	}
}

// Canceled reports whether err is a scan stopped by its context.
func Canceled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
