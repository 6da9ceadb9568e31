package decode

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/nullarray"
	"github.com/tensorview/tensorview/tensorext"
)

// This file is File's API for a dataset (OpenDataset): each method of
// File starts with the dataset's when f.set is set. Rows are global (the
// shards' rows in order), record batches are numbered over the shards
// (one for a shard not yet open), columns are the dataset's.

// Shards returns what is known of the files of a dataset, in order; nil
// for a File opened from one file.
func (f *File) Shards() []ShardInfo {
	d := f.set
	if d == nil {
		return nil
	}
	l := d.rows()
	out := make([]ShardInfo, len(d.shards))
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, s := range d.shards {
		out[i] = ShardInfo{Name: s.Name, Size: s.Size, Start: l.starts[i], Rows: l.rows[i], Placed: l.placed[i], File: s.file}
		if s.file != nil {
			out[i].Size = s.file.Size
			_, out[i].Exact = s.file.Rows()
		}
		if s.err != nil {
			out[i].Err, out[i].Exact = s.err.Error(), true
		}
	}
	return out
}

// Placement counts the changes of where a dataset's rows are. Its rows
// are placed as its files open and their rows are counted: a row is
// placed (Window's ok) once every file before its own has its count, and
// the rows of a file not yet open, one window, move into its record
// batches when it opens. A caller that keeps what it found by row (the
// windows it asked for, cells) asks again when the count changes. Always
// 0 for a File of one file, whose placed rows never move.
func (f *File) Placement() int {
	if f.set == nil {
		return 0
	}
	return f.set.placement()
}

// SetShardSizes gives the sizes in bytes of a dataset's files learned
// after it opened (a listing's, such as the Hugging Face Hub's tree):
// sizes[i] is Shards()[i]'s, -1 leaves it as it was. The files not open
// yet are estimated by them from then on, and Size is their sum. Call it
// where f's fields are read (the page's UI goroutine). A File of one file
// is left as it is.
func (f *File) SetShardSizes(sizes []int64) {
	d := f.set
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var total int64
	for i, s := range d.shards {
		if i < len(sizes) && sizes[i] >= 0 {
			s.Size = sizes[i]
		}
		if s.Size > 0 {
			total += s.Size
		}
	}
	f.Size = total
	d.gen++
}

// ShardOf returns the index in Shards of the shard that holds global row,
// and its name; ok is false for a File of one file, a row past the end or
// one not placed yet (Window).
func (f *File) ShardOf(row int64) (shard int, name string, ok bool) {
	if f.set == nil {
		return 0, "", false
	}
	s, _, ok := f.set.place(row)
	if !ok {
		return 0, "", false
	}
	return s.id - 1, s.Name, true
}

// value is File.value for a dataset: the shard's value, a null for a
// column the shard has not, or the error of one of another type.
func (d *dataset) value(row int64, col int) (Value, error) {
	if col < 0 || col >= len(d.f.fields) {
		return Value{}, fmt.Errorf("no column %d", col)
	}
	s, sf, local, err := d.rowFile(context.Background(), row)
	if err != nil {
		return Value{}, err
	}
	_, cols, bad := d.opened(s)
	switch {
	case col == d.fileCol:
		return d.f.ValueIn(col, fileArray(memory.DefaultAllocator, s.Name, 1), 0)
	case bad[col] != "":
		return Value{}, errors.New(d.mismatch(col, bad[col]))
	case cols[col] < 0:
		return d.f.ValueIn(col, nullarray.Make(memory.DefaultAllocator, d.f.Schema.Field(col).Type, 1), 0)
	}
	return sf.value(local, cols[col])
}

// tensor is File.Tensor for a dataset.
func (d *dataset) tensor(row int64, col int) (tensorext.Tensor, error) {
	v, err := d.value(row, col)
	if err != nil {
		return tensorext.Tensor{}, err
	}
	if v.read == nil { // a null of a column the shard has not
		return tensorext.Tensor{}, tensorext.ErrNullTensor
	}
	t, err := v.read(v.Array, v.Index)
	if err != nil {
		return t, err
	}
	return t, t.Check()
}

// where is File.Window for a dataset: the shard's window, its batch
// numbered over the dataset; a shard not yet open is one window, its
// placeholder batch's (window -2).
func (d *dataset) where(row int64) (batch, window int, sf *File, local int64, ok bool) {
	s, local, ok := d.place(row)
	if !ok {
		return 0, 0, nil, 0, false
	}
	first := d.firstBatch(s)
	sf, _, _ = d.opened(s)
	if sf == nil {
		return first, -2, nil, local, true
	}
	b, w, ok := sf.Window(local)
	return first + b, w, sf, local, ok
}

// windowState is File.WindowState for a dataset.
func (d *dataset) windowState(row int64) WindowState {
	s, local, ok := d.place(row)
	if !ok {
		return Unread
	}
	d.mu.Lock()
	sf, opening, err := s.file, s.opening != nil, s.err
	d.mu.Unlock()
	switch {
	case sf != nil:
		return sf.WindowState(local)
	case opening:
		return Loading
	case err != nil:
		return Failed
	}
	return Unread
}

// load is File.LoadContext for a dataset: it opens the row's shard when
// needed, then loads the row there.
func (d *dataset) load(ctx context.Context, row int64) error {
	_, sf, local, err := d.rowFile(ctx, row)
	if err != nil {
		return err
	}
	return sf.LoadContext(ctx, local)
}

// await is File.Await for a dataset.
func (d *dataset) await(ctx context.Context, row int64) error {
	s, _, ok := d.place(row)
	if !ok {
		return nil
	}
	d.mu.Lock()
	ch := s.opening
	d.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("opening %s: %w", s.Name, ErrCanceled)
		}
	}
	s, local, ok := d.place(row)
	if !ok {
		return nil
	}
	if sf, _, _ := d.opened(s); sf != nil {
		return sf.Await(ctx, local)
	}
	return nil
}

// forget is File.Forget for a dataset: the shared cache's windows, and
// for Failed the shards that could not be opened or indexed (again when
// next asked).
func (d *dataset) forget(st WindowState) int {
	n := d.opt.shared.forget(st)
	if st != Failed {
		return n
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range d.shards {
		if s.err != nil || s.indexErr != nil {
			s.err, s.indexErr = nil, nil
			n++
			d.gen++
		}
	}
	return n
}

// batchOf is the open shard of the dataset's record batch i and its index
// there, opening the shard when i is its placeholder (the batches are
// then numbered again: callers that number batches use an indexed
// dataset, whose numbering is fixed).
func (d *dataset) batchOf(ctx context.Context, i int) (s *shard, sf *File, local int, err error) {
	s, local, open, ok := d.batch(i)
	if !ok {
		return nil, nil, 0, fmt.Errorf("no record batch %d (yet)", i)
	}
	if !open {
		if _, err := d.openShard(ctx, s); err != nil {
			return nil, nil, 0, err
		}
		return nil, nil, 0, fmt.Errorf("record batch %d is of %s, which has just opened: the batches are numbered again", i, s.Name)
	}
	sf, _, _ = d.opened(s)
	return s, sf, local, nil
}

// readColumns is File.ReadColumns (cols nil: Batch) for a dataset.
func (d *dataset) readColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, error) {
	s, sf, local, err := d.batchOf(ctx, i)
	if err != nil {
		return nil, err
	}
	_, scols, bad := d.opened(s)
	whole := cols == nil
	if whole {
		cols = d.allCols()
	}
	for _, c := range cols {
		if !whole && bad[c] != "" {
			// A scan of this column: its rows here are unread, and
			// said so, rather than nulls that match nothing.
			return nil, &ColumnError{Batch: i, Column: c, Name: d.f.Schema.Field(c).Name, Err: bad[c]}
		}
	}
	got, pos := shardCols(cols, scols, bad)
	var rec arrow.RecordBatch
	if whole {
		// The shard's batch whole, as cached: its columns by their index.
		rec, err = sf.Batch(local)
		for j, c := range cols {
			if pos[j] >= 0 {
				pos[j] = scols[c]
			}
		}
	} else {
		rec, err = sf.ReadColumns(ctx, local, got)
	}
	if err != nil {
		return nil, err
	}
	return d.remap(rec, s, cols, pos), nil
}

// columnBytes is File.ColumnBytes for a dataset.
func (d *dataset) columnBytes(i int, cols []int) (int64, error) {
	s, sf, local, err := d.batchOf(context.Background(), i)
	if err != nil {
		return 0, err
	}
	_, scols, bad := d.opened(s)
	got, _ := shardCols(cols, scols, bad)
	return sf.ColumnBytes(local, got)
}

// columnsBytes is File.ColumnsBytes for a dataset: the shards' open sums,
// and for the others their share by size of those.
func (d *dataset) columnsBytes(cols []int) (n int64, exact bool, err error) {
	exact = true
	var openSize, unopenedSize int64
	for _, s := range d.shards {
		sf, scols, bad := d.opened(s)
		if sf == nil {
			d.mu.Lock()
			failed, size := s.err != nil, s.Size
			d.mu.Unlock()
			if !failed {
				exact = false
				unopenedSize += max(0, size)
			}
			continue
		}
		got, _ := shardCols(cols, scols, bad)
		k, ex, err := sf.ColumnsBytes(got)
		if err != nil {
			return 0, false, err
		}
		n += k
		exact = exact && ex
		openSize += sf.Size
	}
	if unopenedSize > 0 && openSize > 0 {
		n += int64(float64(n) * float64(unopenedSize) / float64(openSize))
	}
	return n, exact, nil
}

// indexed is File.Indexed for a dataset: every shard open and indexed, or
// failed.
func (d *dataset) indexed() bool {
	for _, s := range d.shards {
		d.mu.Lock()
		sf, failed := s.file, s.err != nil
		d.mu.Unlock()
		if !failed && (sf == nil || !sf.Indexed()) {
			return false
		}
	}
	return true
}

// index is File.Index for a dataset: it opens the shards not open and
// indexes each (settle), calling progress with the bytes of the shards
// done of all (estimated for shards of unknown size). ctx stops it.
func (d *dataset) index(ctx context.Context, progress func(done, total int64)) error {
	var total int64
	for _, s := range d.shards {
		total += d.sizeOf(s)
	}
	var mu sync.Mutex
	var done int64
	step := func(n int64) {
		mu.Lock()
		done += n
		at := done
		mu.Unlock()
		if progress != nil {
			progress(at, total)
		}
	}
	step(0)
	if err := d.settle(ctx, d.shards, func(s *shard) { step(d.sizeOf(s)) }); err != nil {
		return err
	}
	d.mu.Lock()
	d.gen++
	d.mu.Unlock()
	return nil
}

// settle opens the shards of list not open and indexes those not indexed,
// shardOpenWidth at a time, in order, calling done (when not nil) after
// each: their rows are then counted, and the rows after them placed for
// good. A shard that cannot be opened keeps its error; one whose index
// stops is left with a warning, its count as far as it got (and not
// indexed again); the rest go on. It returns ctx's error when stopped.
func (d *dataset) settle(ctx context.Context, list []*shard, done func(s *shard)) error {
	next := make(chan *shard)
	var wg sync.WaitGroup
	for range min(shardOpenWidth, len(list)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				if sf, err := d.openShard(ctx, s); err == nil {
					d.indexShard(ctx, s, sf)
				}
				if done != nil {
					done(s)
				}
			}
		}()
	}
	for _, s := range list {
		select {
		case next <- s:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// indexShard indexes shard s, open as sf, unless it is or its index
// stopped before.
func (d *dataset) indexShard(ctx context.Context, s *shard, sf *File) {
	d.mu.Lock()
	stopped := s.indexErr != nil
	d.mu.Unlock()
	if stopped || sf.Indexed() {
		return
	}
	err := sf.Index(ctx, nil)
	if err == nil || ctx.Err() != nil {
		return
	}
	d.mu.Lock()
	first := s.indexErr == nil
	s.indexErr = err
	d.gen++
	d.mu.Unlock()
	if first {
		d.f.notes.warn(fmt.Sprintf("%s: indexing stopped: %v", s.Name, err))
	}
}

// sizeOf is shard s's size, or when unknown the mean of those known.
func (d *dataset) sizeOf(s *shard) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s.file != nil {
		return s.file.Size
	}
	if s.Size >= 0 {
		return s.Size
	}
	var sum, n int64
	for _, o := range d.shards {
		if o.Size >= 0 {
			sum, n = sum+o.Size, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n
}

// warnings is File.Warnings for a dataset: its own, then each open
// shard's, named.
func (d *dataset) warnings() []string {
	out := d.f.notes.list()
	for _, s := range d.shards {
		d.mu.Lock()
		sf, err := s.file, s.err
		d.mu.Unlock()
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("cannot open %v", err))
		case sf != nil:
			for _, w := range sf.Warnings() {
				out = append(out, s.Name+": "+w)
			}
		}
	}
	return out
}

// fields is File.Fields for a dataset: each column's error, else the
// first its shards found in their batches.
func (d *dataset) fields() []FieldInfo {
	out := d.f.notes.fields(d.f.fields)
	d.each(func(s *shard, sf *File) {
		sfields := sf.notes.fields(sf.fields)
		_, cols, bad := d.opened(s)
		for c := range out {
			if out[c].Err == "" && cols[c] >= 0 && bad[c] == "" && sfields[cols[c]].Err != "" {
				out[c].Err = s.Name + ": " + sfields[cols[c]].Err
			}
		}
	})
	return out
}

// reading is File.Reading for a dataset: the big reads of its shards.
func (d *dataset) reading() (done, total int64) {
	d.each(func(_ *shard, sf *File) {
		a, b := sf.Reading()
		done, total = done+a, total+b
	})
	return done, total
}

// nested is File.Nested for a dataset.
func (d *dataset) nested(row int64, col int) (*File, error) {
	if col < 0 || col >= len(d.f.fields) || !d.f.fields[col].Nested {
		return nil, fmt.Errorf("column %d is not a column of nested record batches", col)
	}
	s, sf, local, err := d.rowFile(context.Background(), row)
	if err != nil {
		return nil, err
	}
	_, cols, bad := d.opened(s)
	switch {
	case bad[col] != "":
		return nil, errors.New(d.mismatch(col, bad[col]))
	case cols[col] < 0:
		return nil, fmt.Errorf("%s has no column %q", s.Name, d.f.fields[col].Name)
	}
	return sf.Nested(local, cols[col])
}

// columnStats is File.ColumnStats for a dataset.
func (d *dataset) columnStats(i, col int) (ColumnStats, bool) {
	s, local, open, ok := d.batch(i)
	if !ok || !open || col < 0 || col >= d.f.Schema.NumFields() {
		return ColumnStats{}, false
	}
	sf, cols, bad := d.opened(s)
	if cols[col] < 0 || bad[col] != "" {
		return ColumnStats{}, false
	}
	return sf.ColumnStats(local, cols[col])
}

// batchRows is File.BatchRows for a dataset.
func (d *dataset) batchRows(i int) (start, rows int64, ok bool) {
	if !d.indexed() {
		return 0, 0, false
	}
	s, local, open, ok := d.batch(i)
	if !ok || !open {
		return 0, 0, false
	}
	sf, _, _ := d.opened(s)
	start, rows, ok = sf.BatchRows(local)
	return d.rows().starts[s.id-1] + start, rows, ok
}

// batchRowCount is File.BatchRowCount for a dataset.
func (d *dataset) batchRowCount(i int) (int64, error) {
	_, sf, local, err := d.batchOf(context.Background(), i)
	if err != nil {
		return 0, err
	}
	return sf.BatchRowCount(local)
}

// locateBatch is File.Locate for a dataset: rows of shards not open are
// not located.
func (d *dataset) locateBatch(row int64) (batch, local int, ok bool) {
	s, l, ok := d.place(row)
	if !ok {
		return 0, 0, false
	}
	sf, _, _ := d.opened(s)
	if sf == nil {
		return 0, 0, false
	}
	b, local, ok := sf.Locate(l)
	return d.firstBatch(s) + b, local, ok
}
