package decode

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/internal/ipcverify"
)

// This file reads whole columns of one record batch at a time, for the
// operations that pass over a whole file (sort keys, filters, column
// statistics): of an Arrow file only the buffers of the columns asked for,
// found by the batch's body layout; of a Parquet file only their column
// chunks, through the source.
//
// An IPC record batch's columns are read as a smaller record batch: the
// header's field nodes, buffers and variadic counts of those columns
// (layoutWalk finds which are whose), their buffers read in as few reads
// as the gaps between them allow (coalesce) into a body of their own, and
// a schema message of just those fields (schemaMessage) with the
// dictionaries they use. arrow-go decodes that as it decodes any stream,
// decompressing only those buffers of a compressed body.

// ColumnError is the error of ReadColumns for a column whose data in a
// record batch cannot be used: arrow-go's validation found it broken, or
// (Parquet) its codec is not read. The other columns of the batch can
// still be read without it.
type ColumnError struct {
	Batch  int    // the record batch (row group)
	Column int    // the column, by index in the file's schema
	Name   string // the column's name
	Err    string // what is wrong
}

func (e *ColumnError) Error() string {
	return fmt.Sprintf("column %q: %s", truncate(e.Name, maxNameLen), e.Err)
}

// ReadColumns returns every row of record batch i (for a Parquet file, row
// group i) with only the fields cols (indices into the file's Schema, in
// increasing order; none: a record batch of no columns with the batch's row
// count). Its schema is the file's projected to cols: field metadata,
// extension types (tensors, dialects) and the schema's metadata kept.
//
// It reads only what those columns need: of an IPC file or stream the
// batch's header (when not read before; this also works for a batch whose
// header Index has not read yet, whose row count it then records), the
// columns' buffers (ColumnBytes) in one read per run of them, runs apart
// by small gaps read as one (the gaps read are at most an eighth of the
// buffers), and the dictionaries the columns use; of a compressed body
// (LZ4, ZSTD) the columns' compressed buffers, which arrow-go decompresses.
// Of a Parquet file it asks the source for those columns of the row group.
// A lone IPC Tensor message is read whole. Nested record batches (Nested)
// are files of their own: ReadColumns reads them likewise.
//
// What it returns is not put in the row cache: a scan passes over the
// file once, and what it read would evict the rows on screen. Each call
// holds at most the cache budget (the buffers read, the dictionaries and
// what arrow-go allocates to decode them, as budgetAllocator counts it):
// a batch whose columns need more fails with an error wrapping
// ErrTooLarge that says so: before their buffers are read when these
// take more as stored, else (compressed buffers) as arrow-go asks for
// more. A scan whose columns are too large for one batch under the
// budget needs a larger one (?cache=<MiB>). The columns are validated as a record batch read for the rows on
// screen is: a column found broken fails the call with a *ColumnError
// (also shown in Fields, as for the rows on screen). ctx stops it between
// reads and within big ones (shown in Reading), with an error wrapping
// ErrCanceled. Panics are recovered into errors (ErrPanic). No columns
// (cols empty) give a record batch of the batch's row count and no
// column, nothing read but its header.
func (f *File) ReadColumns(ctx context.Context, i int, cols []int) (rec arrow.RecordBatch, err error) {
	defer guard(&err, "reading columns of %s %d", f.batchNoun(), i)
	if err := f.checkCols(cols); err != nil {
		return nil, err
	}
	switch {
	case f.set != nil:
		return f.set.readColumns(ctx, i, cols)
	case ctx.Err() != nil:
		return nil, ErrCanceled
	case f.meter.isClosed():
		return nil, errClosed
	case len(cols) == 0:
		// No column: the batch's rows alone (its header), nothing read.
		n, err := f.BatchRowCount(i)
		if err != nil {
			return nil, err
		}
		md := f.Schema.Metadata()
		return array.NewRecordBatch(arrow.NewSchema(nil, &md), nil, n), nil
	case f.pq != nil:
		return f.parquetColumns(ctx, i, cols)
	case f.Format == IPCTensor:
		return f.tensorColumns(ctx, cols)
	}
	return f.ipcColumns(ctx, i, cols)
}

// ColumnBytes returns how many bytes of the file ReadColumns(ctx, i, cols)
// reads for the columns' data: their buffers in record batch i, as stored
// (compressed in a compressed body), without the batch's header, the
// dictionaries, or the gaps read with the buffers (at most an eighth
// more); the whole message for a lone IPC Tensor message. For a Parquet
// file it is the compressed bytes of the columns' chunks in row group i
// when the footer says them (ParquetRowGroup.Chunks), else the row group's
// compressed bytes shared by its leaf columns. It reads the batch's header
// when it was not read before (a few hundred bytes, kept with those of
// the last 256 batches read for ReadColumns or by row windows). A scan
// uses it for its progress ("reading 2.1 GB of column image") and
// to see how much of the file it read.
func (f *File) ColumnBytes(i int, cols []int) (n int64, err error) {
	defer guard(&err, "reading the header of %s %d", f.batchNoun(), i)
	if err := f.checkCols(cols); err != nil {
		return 0, err
	}
	if f.set != nil {
		return f.set.columnBytes(i, cols)
	}
	b, _, ok := f.index.batchAt(i)
	switch {
	case !ok:
		return 0, fmt.Errorf("no %s %d (yet)", f.batchNoun(), i)
	case f.pq != nil:
		return f.pq.columnBytes(i, b, cols, f.Schema.NumFields()), nil
	case f.Format == IPCTensor:
		return b.length, nil
	}
	at, err := f.columnLayout(i, b)
	if err != nil {
		return 0, err
	}
	pos, err := fieldRanges(at.layout, f.types())
	if err != nil {
		return 0, fmt.Errorf("record batch %d: %w", i, err)
	}
	for _, k := range cols {
		for _, buf := range at.layout.buffers[pos[k].buf:pos[k+1].buf] {
			n += buf.length
		}
	}
	return n, nil
}

// ColumnsBytes returns the bytes of the file ReadColumns reads for cols
// over every record batch (the sum of ColumnBytes over the batches known),
// and whether that sum is exact. It reads at most one batch header: the
// batches of an IPC file whose header is not at hand (not indexed yet, or
// no longer kept) are estimated from those that are, by their share of
// the batches' bytes. A scan says it in its progress line before it starts
// ("reading ≈ 63 MiB of columns label, score").
func (f *File) ColumnsBytes(cols []int) (n int64, exact bool, err error) {
	if err := f.checkCols(cols); err != nil {
		return 0, false, err
	}
	if f.set != nil {
		return f.set.columnsBytes(cols)
	}
	exact = f.Indexed()
	var known, knownLen, unknownLen int64
	for i := range f.NumBatches() {
		b, _, ok := f.index.batchAt(i)
		if !ok {
			break
		}
		_, cached := f.layouts.get(b.offset)
		if f.pq == nil && f.Format == IPCFile && !cached && !(i == 0 && knownLen == 0) {
			unknownLen += b.length
			continue
		}
		c, err := f.ColumnBytes(i, cols)
		if err != nil {
			return 0, false, err
		}
		known += c
		knownLen += b.length
	}
	n = known
	if unknownLen > 0 {
		exact = false
		if knownLen > 0 {
			n += int64(float64(unknownLen) * float64(known) / float64(knownLen))
		}
	}
	return n, exact, nil
}

// BatchRowCount returns record batch i's exact row count, reading its
// header (a few hundred bytes) when Index has not: a scan that reads the
// batches in file order knows each one's rows, and so the global numbers
// of its rows, without waiting for the whole index (the batches are placed
// again before a row is next located, so that batches 0…i are numbered
// exactly once their counts are known). Errors: there is no batch i (yet), or its header cannot be read
// (the error names the batch and its offset).
func (f *File) BatchRowCount(i int) (rows int64, err error) {
	defer guard(&err, "reading the header of %s %d", f.batchNoun(), i)
	if f.set != nil {
		return f.set.batchRowCount(i)
	}
	b, _, ok := f.index.batchAt(i)
	switch {
	case !ok:
		return 0, fmt.Errorf("no %s %d (yet)", f.batchNoun(), i)
	case b.rows >= 0:
		return b.rows, nil
	case f.Format != IPCFile || f.pq != nil:
		return 0, fmt.Errorf("the row count of %s %d is not known", f.batchNoun(), i)
	}
	if err := f.index.readHeader(i); err != nil {
		return 0, err
	}
	b, _, _ = f.index.batchAt(i)
	return b.rows, nil
}

// BatchRows returns where the rows of record batch i (row group i) are
// among the file's: its first global row and its row count, which a scan
// adds to the rows of ReadColumns' answer to number them as the grid does.
// ok is false when there is no batch i or the file is not indexed yet
// (Indexed; Index completes it): before, starts and counts may be
// estimates.
func (f *File) BatchRows(i int) (start, rows int64, ok bool) {
	if f.set != nil {
		return f.set.batchRows(i)
	}
	if !f.Indexed() {
		return 0, 0, false
	}
	b, _, ok := f.index.batchAt(i)
	if !ok || b.rows < 0 {
		return 0, 0, false
	}
	return b.start, b.rows, true
}

// ValueIn returns value i of arr, a column that ReadColumns (or Batch)
// read for column col, as Value returns a value of the column: read as
// the column is read (Tensor: canonical tensors, dialects, decoded
// images; Encoded; Nested). A scan reads tensor statistics and image sizes
// of ReadColumns' answer through it. An array of another type than col's
// reads as errors from those methods.
func (f *File) ValueIn(col int, arr arrow.Array, i int) (Value, error) {
	switch {
	case col < 0 || col >= len(f.fields):
		return Value{}, fmt.Errorf("no column %d", col)
	case arr == nil || i < 0 || i >= arr.Len():
		return Value{}, fmt.Errorf("no value %d in the column", i)
	}
	return Value{Array: arr, Index: i, Field: &f.fields[col], f: f, read: f.tensors[col], bytesOf: f.images[col]}, nil
}

// batchNoun names the file's record batches: "row group" for Parquet.
func (f *File) batchNoun() string {
	if f.pq != nil {
		return "row group"
	}
	return "record batch"
}

// checkCols checks that cols are indices of the schema's fields, in
// increasing order.
func (f *File) checkCols(cols []int) error {
	for j, k := range cols {
		if k < 0 || k >= f.Schema.NumFields() {
			return fmt.Errorf("no column %d: the file has %d", k, f.Schema.NumFields())
		}
		if j > 0 && k <= cols[j-1] {
			return fmt.Errorf("columns %v are not in increasing order", cols)
		}
	}
	return nil
}

// columnsWhat names the columns cols of batch (such as "record batch 3")
// for errors.
func (f *File) columnsWhat(batch string, cols []int) string {
	if len(cols) > 4 {
		return fmt.Sprintf("%d columns of %s", len(cols), batch)
	}
	names := make([]string, len(cols))
	for j, k := range cols {
		names[j] = fmt.Sprintf("%q", truncate(f.Schema.Field(k).Name, 40))
	}
	if len(cols) == 1 {
		return fmt.Sprintf("column %s of %s", names[0], batch)
	}
	return fmt.Sprintf("columns %s of %s", strings.Join(names, ", "), batch)
}

// types returns the types of the schema's fields.
func (f *File) types() []arrow.DataType {
	out := make([]arrow.DataType, f.Schema.NumFields())
	for k, fld := range f.Schema.Fields() {
		out[k] = fld.Type
	}
	return out
}

// projected returns the file's schema with only the fields cols.
func (f *File) projected(cols []int) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for j, k := range cols {
		fields[j] = f.Schema.Field(k)
	}
	md := f.Schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// checkColumns validates the columns of rec, fields cols of batch i, as
// validate does the columns of a row window, and returns rec with the
// projected schema; a column found broken is recorded (Fields) and
// returned as a *ColumnError.
func (f *File) checkColumns(i int, rec arrow.RecordBatch, cols []int) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != len(cols) {
		return nil, fmt.Errorf("%s %d decoded to %d columns, not the %d asked for", f.batchNoun(), i, rec.NumCols(), len(cols))
	}
	arrs := make([]arrow.Array, len(cols))
	for j, k := range cols {
		arr := rec.Column(j)
		fld := f.Schema.Field(k)
		if !arrow.TypeEqual(arr.DataType(), fld.Type) {
			return nil, fmt.Errorf("column %q of %s %d decoded as %s, not as its schema's %s", truncate(fld.Name, maxNameLen), f.batchNoun(), i, arr.DataType(), fld.Type)
		}
		if err := validateArray(arr); err != nil {
			f.notes.columnErr(k, fmt.Sprintf("%s %d: %v", f.batchNoun(), i, err))
			return nil, &ColumnError{Batch: i, Column: k, Name: fld.Name, Err: err.Error()}
		}
		settle(arr)
		arrs[j] = arr
	}
	return array.NewRecordBatch(f.projected(cols), arrs, rec.NumRows()), nil
}

// tensorColumns reads the one row of a lone IPC Tensor message.
func (f *File) tensorColumns(ctx context.Context, cols []int) (arrow.RecordBatch, error) {
	b, _, _ := f.index.batchAt(0)
	rec, err := f.decodeBatch(ctx, 0, b, nil)
	if err != nil {
		return nil, err
	}
	arrs := make([]arrow.Array, len(cols))
	for j, k := range cols {
		arrs[j] = rec.Column(k)
	}
	return f.checkColumns(0, array.NewRecordBatch(f.projected(cols), arrs, rec.NumRows()), cols)
}

// columnLayout returns the checked layout of record batch i, which b
// locates, and the length of its message before the body: from the
// headers kept for row windows, or read (and kept) now. Reading the
// header of a file's batch records its row count when unknown.
func (f *File) columnLayout(i int, b batchInfo) (batchLayoutAt, error) {
	if at, ok := f.layouts.get(b.offset); ok {
		return at, nil // read by windowLayout or here, after the index checked it
	}
	var meta []byte
	var l batchLayout
	if f.Format == IPCFile {
		var info messageInfo
		var err error
		if meta, info, l, err = f.index.readBlockLayout(b.block(), msgRecordBatch); err != nil {
			return batchLayoutAt{}, fmt.Errorf("cannot read record batch %d (offset %d): %w", i, b.offset, err)
		}
		f.index.header(i, info) // placed again before a row is next located
	} else {
		m, info, eos, err := f.index.readMessage(b.offset)
		if err == nil && (eos || info.kind != msgRecordBatch || int64(len(m))+info.bodyLen != b.length) {
			err = errors.New("not the record batch the index found there")
		}
		if err == nil {
			l, err = f.index.layout(m, nil, info)
		}
		if err != nil {
			return batchLayoutAt{}, fmt.Errorf("cannot read record batch %d (offset %d): %w", i, b.offset, err)
		}
		meta = m
	}
	at := batchLayoutAt{l, int64(len(meta))}
	if b.metaLen > 0 {
		at.metaLen = b.metaLen
	}
	f.layouts.put(b.offset, at)
	return at, nil
}

// layoutPos is where a field's field nodes, buffers and variadic buffer
// counts start in a record batch's layout.
type layoutPos struct{ node, buf, variadic int }

// fieldRanges returns where the field nodes, buffers and variadic counts
// of each top-level field of types lie in l (one more entry: where the last
// field's end), taken as arrow-go takes them.
func fieldRanges(l batchLayout, types []arrow.DataType) ([]layoutPos, error) {
	w := &layoutWalk{l: l}
	pos := make([]layoutPos, len(types)+1)
	for k, t := range types {
		pos[k] = layoutPos{w.node, w.buf, w.nVariadic}
		if err := w.walk(t, 0); err != nil {
			return nil, fmt.Errorf("column %d: %w", k, err)
		}
	}
	pos[len(types)] = layoutPos{w.node, w.buf, w.nVariadic}
	return pos, nil
}

// projectLayout returns the layout of the fields cols of l (pos from
// fieldRanges), its buffers where they are in l's body.
func projectLayout(l batchLayout, pos []layoutPos, cols []int) batchLayout {
	p := batchLayout{version: l.version, rows: l.rows, compressed: l.compressed, codec: l.codec}
	for _, k := range cols {
		p.nodes = append(p.nodes, l.nodes[pos[k].node:pos[k+1].node]...)
		p.buffers = append(p.buffers, l.buffers[pos[k].buf:pos[k+1].buf]...)
		p.variadic = append(p.variadic, l.variadic[pos[k].variadic:pos[k+1].variadic]...)
	}
	return p
}

// run is a range of a record batch body read in one read (off, n) and
// where it lies in the body made of the runs read (at).
type run struct{ off, n, at int64 }

// coalesce returns the runs that cover the buffers bufs (ranges of a
// body), in order: overlapping or touching buffers in one run, and runs
// whose gap is small read as one, the smallest gaps first, while the gaps
// read add at most an eighth to the buffers' bytes. Each run lies in the
// new body at the next offset that keeps its alignment mod 8. It returns
// the runs and the new body's length.
func coalesce(bufs []ipcBuffer) ([]run, int64) {
	var spans []span
	for _, b := range bufs {
		if b.length > 0 {
			spans = append(spans, span{b.offset, b.length})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].off < spans[j].off })
	var merged []span
	var want int64
	for _, sp := range spans {
		if k := len(merged) - 1; k >= 0 && sp.off <= merged[k].off+merged[k].n {
			if end := sp.off + sp.n; end > merged[k].off+merged[k].n {
				want += end - (merged[k].off + merged[k].n)
				merged[k].n = end - merged[k].off
			}
			continue
		}
		merged = append(merged, sp)
		want += sp.n
	}
	// Join across the smallest gaps while they add at most want/8.
	gaps := make([]int, 0, max(0, len(merged)-1))
	for k := 1; k < len(merged); k++ {
		gaps = append(gaps, k)
	}
	gapOf := func(k int) int64 { return merged[k].off - (merged[k-1].off + merged[k-1].n) }
	sort.SliceStable(gaps, func(a, b int) bool { return gapOf(gaps[a]) < gapOf(gaps[b]) })
	join := make([]bool, len(merged))
	var extra int64
	for _, k := range gaps {
		if extra+gapOf(k) > want/8 {
			break
		}
		extra += gapOf(k)
		join[k] = true
	}
	var runs []run
	var at int64
	for k, sp := range merged {
		if k > 0 && join[k] {
			r := &runs[len(runs)-1]
			r.n = sp.off + sp.n - r.off
			continue
		}
		if len(runs) > 0 {
			at = runs[len(runs)-1].at + runs[len(runs)-1].n
		}
		at += ((sp.off-at)%8 + 8) % 8 // the same alignment mod 8 as in the file
		runs = append(runs, run{off: sp.off, n: sp.n, at: at})
	}
	if len(runs) == 0 {
		return nil, 0
	}
	last := runs[len(runs)-1]
	return runs, last.at + last.n
}

// relocate returns l's buffers where they lie in the body made of runs.
func relocate(l batchLayout, runs []run) batchLayout {
	bufs := make([]ipcBuffer, len(l.buffers))
	for k, b := range l.buffers {
		if b.length == 0 {
			continue
		}
		r := runs[sort.Search(len(runs), func(j int) bool { return runs[j].off+runs[j].n > b.offset })]
		bufs[k] = ipcBuffer{offset: r.at + b.offset - r.off, length: b.length}
	}
	l.buffers = bufs
	return l
}

// readRuns reads the runs of the body that starts at file offset body
// through r into a new body of n bytes, stopping between reads when ctx
// is done.
func readRuns(ctx context.Context, r io.ReaderAt, body int64, runs []run, n int64) ([]byte, error) {
	out := make([]byte, n)
	for _, rn := range runs {
		if ctx.Err() != nil {
			return nil, ErrCanceled
		}
		if err := readFull(r, out[rn.at:rn.at+rn.n], body+rn.off); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ipcColumns reads the fields cols of IPC record batch i.
func (f *File) ipcColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, error) {
	b, dicts, ok := f.index.batchAt(i)
	if !ok {
		return nil, fmt.Errorf("no record batch %d (yet)", i)
	}
	at, err := f.columnLayout(i, b)
	if err != nil {
		return nil, err
	}
	what := f.columnsWhat(fmt.Sprintf("record batch %d", i), cols)
	pos, err := fieldRanges(at.layout, f.types())
	if err != nil {
		return nil, fmt.Errorf("record batch %d: %w", i, err)
	}
	proj := projectLayout(at.layout, pos, cols)
	runs, bodyLen := coalesce(proj.buffers)
	schemaMsg, ids, err := f.schemaFor(cols)
	if err != nil {
		return nil, fmt.Errorf("cannot read the schema of %s: %w", what, err)
	}
	r := f.ends.with(view{f.meter, ctx})
	dictMsgs, dictBytes, err := f.columnDicts(r, dicts, ids, bodyLen, what)
	if err != nil {
		return nil, err
	}
	body, err := readRuns(ctx, r, b.offset+at.metaLen, runs, bodyLen)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %w", what, ErrCanceled)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	proj = relocate(proj, runs)
	types := make([]arrow.DataType, len(cols))
	for j, k := range cols {
		types[j] = f.Schema.Field(k).Type
	}
	// The decoded sizes of compressed buffers are in the body read: check
	// them, as for a batch read whole.
	if err := checkLayout(proj, bodyLen, types, body); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	meta := recordBatchMessage(proj, bodyLen)
	mem := newBudgetAllocator(f.budget, f.Size, what)
	mem.used = bodyLen + dictBytes // held while arrow-go decodes
	msgs := append(append([]*ipc.Message{newMessage(schemaMsg, nil)}, dictMsgs...), newMessage(meta, body))
	rec, err := decodeMessages(msgs, what, mem)
	if ref := mem.Err(); ref != nil {
		return nil, ref
	}
	if err != nil {
		return nil, err
	}
	return f.checkColumns(i, rec, cols)
}

// newMessage is an IPC message of metadata meta (a Message flatbuffer,
// without prefix) and body.
func newMessage(meta, body []byte) *ipc.Message {
	return ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body))
}

// messageList hands arrow-go's stream reader messages already in memory.
type messageList []*ipc.Message

func (l *messageList) Message() (*ipc.Message, error) {
	if len(*l) == 0 {
		return nil, io.EOF
	}
	m := (*l)[0]
	*l = (*l)[1:]
	return m, nil
}

func (l *messageList) Retain()  {}
func (l *messageList) Release() {}

// decodeMessages decodes a schema message, dictionary batches and a record
// batch with arrow-go's stream reader, allocating through mem.
func decodeMessages(msgs messageList, what string, mem memory.Allocator) (arrow.RecordBatch, error) {
	rd, err := ipc.NewReaderFromMessageReader(&msgs, ipc.WithAllocator(mem))
	if err != nil {
		return nil, arrowErr("cannot decode "+what, err)
	}
	return firstRecord(rd, what)
}

// columnDicts returns the dictionary batch messages of the dictionaries ids
// (those the columns read use): for a stream, of dicts, those before the
// record batch; for a file, of the file's, read through r and checked
// again. It returns their bytes too, refusing with an error wrapping
// ErrTooLarge when they and held bytes (the columns' buffers) exceed the
// budget.
func (f *File) columnDicts(r io.ReaderAt, dicts [][]byte, ids map[int64]bool, held int64, what string) ([]*ipc.Message, int64, error) {
	if len(ids) == 0 {
		return nil, 0, checkSize(what, held, f.budget, f.Size)
	}
	var out []*ipc.Message
	var n int64
	if f.Format == IPCFile {
		var want []fileDict
		for _, d := range f.index.dicts {
			if ids[d.id] {
				want = append(want, d)
				n += d.block.metaLen + d.block.bodyLen
			}
		}
		if err := checkSize(what, held+n, f.budget, f.Size); err != nil {
			return nil, 0, err
		}
		for _, d := range want {
			msg, _, err := f.index.readDictBlock(r, d.block)
			if err != nil {
				return nil, 0, fmt.Errorf("cannot read the dictionary of %s: %w", what, err)
			}
			m, err := dictMessage(msg, d.block.metaLen)
			if err != nil {
				return nil, 0, fmt.Errorf("cannot read the dictionary of %s: %w", what, err)
			}
			out = append(out, m)
		}
		return out, n, nil
	}
	for _, msg := range dicts {
		plen, size, err := messagePrefix(msg)
		if err != nil {
			return nil, 0, err
		}
		l, err := parseBatchLayout(msg[plen : int64(plen)+size])
		if err != nil {
			return nil, 0, err
		}
		if !ids[l.dictID] {
			continue
		}
		if n += int64(len(msg)); held+n > f.budget {
			return nil, 0, checkSize(what, held+n, f.budget, f.Size)
		}
		m, err := dictMessage(slices.Clone(msg), int64(plen)+size) // arrow-go may swap its bytes' order in place
		if err != nil {
			return nil, 0, err
		}
		out = append(out, m)
	}
	return out, n, checkSize(what, held+n, f.budget, f.Size)
}

// dictMessage is the dictionary batch message msg (prefix, metadata, then
// its body from metaLen on), checked before.
func dictMessage(msg []byte, metaLen int64) (*ipc.Message, error) {
	plen, size, err := messagePrefix(msg)
	if err != nil {
		return nil, err
	}
	if size < 0 || int64(plen)+size > metaLen || metaLen > int64(len(msg)) {
		return nil, errFlatbuffer
	}
	return newMessage(msg[plen:int64(plen)+size], msg[metaLen:]), nil
}

// schemaFor returns a schema message of the fields cols and the ids of
// the dictionaries they use, kept for the next call with the same cols (a
// scan reads the same columns of every batch).
func (f *File) schemaFor(cols []int) ([]byte, map[int64]bool, error) {
	f.colSchema.mu.Lock()
	defer f.colSchema.mu.Unlock()
	if c := &f.colSchema; c.msg != nil && slices.Equal(c.cols, cols) {
		return c.msg, c.ids, nil
	}
	msg, ids, err := f.schemaOf(cols)
	if err != nil {
		return nil, nil, err
	}
	f.colSchema.cols, f.colSchema.msg, f.colSchema.ids = slices.Clone(cols), msg, ids
	return msg, ids, nil
}

// schemaOf is schemaFor without keeping what it returns.
func (f *File) schemaOf(cols []int) ([]byte, map[int64]bool, error) {
	var fb []byte
	which := messageHeader
	if f.Format == IPCFile {
		footer, err := f.index.readFooter() // in the cached end of the file, usually
		if err != nil {
			return nil, nil, err
		}
		if err := ipcverify.Footer(footer); err != nil {
			return nil, nil, err
		}
		fb, which = footer, footerSchema
	} else {
		plen, size, err := messagePrefix(f.index.schemaMsg)
		if err != nil {
			return nil, nil, err
		}
		fb = f.index.schemaMsg[plen : int64(plen)+size]
	}
	return schemaMessage(fb, which, cols)
}

// colSchema is the schema message of the last columns read.
type colSchema struct {
	mu   sync.Mutex
	cols []int
	msg  []byte
	ids  map[int64]bool
}

// schemaMessage returns a Schema message (a Message flatbuffer, without
// prefix) whose schema is the Schema table that field which of the
// verified flatbuffer fb's root refers to (a Footer's schema, or a schema
// Message's header), with only its fields cols; and the ids of the
// dictionaries those fields use. The message is a new Message table
// followed by a copy of fb, whose fields vector is cut to cols: the
// fields' tables, their dictionary ids included, stay as the file wrote
// them.
func schemaMessage(fb []byte, which int, cols []int) ([]byte, map[int64]bool, error) {
	root, err := flatbuf.Root(fb)
	if err != nil {
		return nil, nil, err
	}
	at, ok, err := root.Ref(which)
	if err != nil || !ok {
		return nil, nil, orErr(err, "no schema")
	}
	version, _ := root.Int16(0) // Footer.version, Message.version
	// The Message table: vtable at 4 (version at +8, header_type at +10,
	// header at +4), table at 16, fb at head.
	const head = 32
	le := binary.LittleEndian
	m := make([]byte, head+len(fb))
	le.PutUint32(m[0:], 16)
	for k, v := range []uint16{10, 12, 8, 10, 4} { // vtable length, table size, then the fields' offsets
		le.PutUint16(m[4+2*k:], v)
	}
	le.PutUint32(m[16:], 16-4)
	le.PutUint32(m[20:], uint32(head+at-20))
	le.PutUint16(m[24:], uint16(int16(version)))
	m[26] = msgSchema
	copy(m[head:], fb)

	msg, err := flatbuf.Root(m)
	if err != nil {
		return nil, nil, err
	}
	s, ok, err := msg.TableField(messageHeader)
	if err != nil || !ok {
		return nil, nil, orErr(err, "no schema")
	}
	start, n, err := s.Vector(1, 4)
	if err != nil {
		return nil, nil, err
	}
	targets := make([]int, len(cols))
	for j, k := range cols {
		if k >= n {
			return nil, nil, fmt.Errorf("the schema has %d fields, not %d", n, k+1)
		}
		p := start + 4*k
		targets[j] = p + int(le.Uint32(m[p:]))
	}
	for j, t := range targets {
		p := start + 4*j
		le.PutUint32(m[p:], uint32(t-p))
	}
	le.PutUint32(m[start-4:], uint32(len(cols)))
	if err := ipcverify.Message(m); err != nil {
		return nil, nil, err
	}
	ids := map[int64]bool{}
	err = s.Tables(1, func(_ int, fld flatbuf.Table) error { return dictIDs(fld, 0, ids) })
	return m, ids, err
}

// dictIDs adds the ids of the dictionaries a Field table (verified) and
// its children use to ids.
func dictIDs(fld flatbuf.Table, depth int, ids map[int64]bool) error {
	if depth > maxDepth {
		return fmt.Errorf("types nested more than %d deep", maxDepth)
	}
	d, ok, err := fld.TableField(4) // dictionary: DictionaryEncoding
	if err != nil {
		return err
	}
	if ok {
		id, err := d.Int64(0)
		if err != nil {
			return err
		}
		ids[id] = true
	}
	return fld.Tables(5, func(_ int, c flatbuf.Table) error { return dictIDs(c, depth+1, ids) })
}
