package decode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// This file decodes a whole record batch with arrow-go; window.go reads a
// window of its rows.

// decodeBatch reads and decodes record batch i: with a FileReader of
// arrow-go's for IPC files, and for streams by handing arrow-go's stream
// reader the schema, the dictionaries before the batch and the batch's own
// message. Each decode has its own budgetAllocator, so that what arrow-go
// allocates for it, however large the lengths the file declares, stays
// within the cache budget: past it the decode fails with an error wrapping
// ErrTooLarge.
//
// A big read for a context (see LoadContext) goes through a reader that
// shows in Reading and stops when ctx is done.
func (f *File) decodeBatch(ctx context.Context, i int, b batchInfo, dicts [][]byte) (rec arrow.RecordBatch, err error) {
	r := io.ReaderAt(f.ends)
	if ctx.Done() != nil && b.length >= BigRead { // ctx can be cancelled
		r = f.ends.with(view{f.meter, ctx})
	}
	if f.Format == IPCTensor {
		return readTensorMessage(r, f.Size, f.budget)
	}
	if parts := f.parts.get(b.offset); len(parts) > 0 {
		r = &partsReader{r: r, parts: parts, minPart: minPart} // what its row windows read is not read again
	}
	what := fmt.Sprintf("record batch %d", i)
	mem := newBudgetAllocator(f.budget, f.Size, what)
	defer func() {
		if ref := mem.Err(); ref != nil {
			rec, err = nil, ref
		}
	}()
	if f.Format == IPCFile {
		return f.decodeFileBatch(r, i, what, mem)
	}
	return f.decodeStreamBatch(r, b, dicts, what, mem)
}

// decodeFileBatch decodes record batch i of an IPC file with arrow-go's
// FileReader, reading through r.
func (f *File) decodeFileBatch(r io.ReaderAt, i int, what string, mem *budgetAllocator) (arrow.RecordBatch, error) {
	if f.meter.isClosed() {
		return nil, fmt.Errorf("cannot read %s: %w", what, errClosed)
	}
	if err := f.index.readHeader(i); err != nil { // verifies its metadata
		return nil, err
	}
	b, _, _ := f.index.batchAt(i)
	if b.compressed {
		// The decoded sizes of compressed buffers are in the body: read
		// the message here, check it whole, and hand it to arrow-go.
		msg, err := f.readChecked(r, b, what)
		if err != nil {
			return nil, err
		}
		r = &overlay{r: r, off: b.offset, b: msg}
	}
	// The footer and schema come from the cached end of the file.
	fr, err := ipc.NewFileReader(io.NewSectionReader(r, 0, f.Size), ipc.WithBodySizeLimit(f.Size),
		ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem))
	if err != nil {
		return nil, arrowErr("cannot read "+what, err)
	}
	defer fr.Close()
	rec, err := fr.RecordBatchAt(i)
	if err != nil {
		return nil, arrowErr("cannot read "+what, err)
	}
	return rec, nil
}

// decodeStreamBatch decodes the record batch b of an IPC stream with
// arrow-go's stream reader, handing it the schema message, the dictionary
// batch messages dicts and the batch's message, read whole through r.
func (f *File) decodeStreamBatch(r io.ReaderAt, b batchInfo, dicts [][]byte, what string, mem *budgetAllocator) (arrow.RecordBatch, error) {
	msg, err := f.readChecked(r, b, what)
	if err != nil {
		return nil, err
	}
	parts := make([]io.Reader, 0, len(dicts)+2)
	parts = append(parts, bytes.NewReader(f.index.schemaMsg))
	for _, d := range dicts {
		parts = append(parts, bytes.NewReader(d))
	}
	parts = append(parts, bytes.NewReader(msg))
	sr, err := ipc.NewReader(io.MultiReader(parts...), ipc.WithBodySizeLimit(f.Size),
		ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("cannot decode %s: %w", what, err)
	}
	return firstRecord(sr, what)
}

// firstRecord returns the first record batch rd decodes (a batch of what),
// and releases rd.
func firstRecord(rd *ipc.Reader, what string) (arrow.RecordBatch, error) {
	defer rd.Release()
	if !rd.Next() {
		return nil, arrowErr("cannot decode "+what, orErr(rd.Err(), "no record batch in the message"))
	}
	rec := rd.RecordBatch()
	rec.Retain()
	return rec, nil
}

// readChecked reads the whole message of record batch b (within the cache
// budget) through r, checks its body layout with the decoded sizes of
// compressed buffers, and patches metadata written the Arrow 0.17 way.
func (f *File) readChecked(r io.ReaderAt, b batchInfo, what string) ([]byte, error) {
	if err := checkSize(what, b.length, f.budget, f.Size); err != nil {
		return nil, err
	}
	msg := make([]byte, b.length)
	if err := readFull(r, msg, b.offset); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	var err error
	if b.metaLen > 0 { // an IPC file: the metadata is what its block says
		_, err = f.index.layout(msg[:b.metaLen], msg[b.metaLen:], messageInfo{kind: msgRecordBatch, bodyLen: b.length - b.metaLen})
	} else {
		err = f.index.checkWhole(msg, msgRecordBatch)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := patchInPlace(msg); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return msg, nil
}

// validate runs arrow-go's validation on every column of a decoded record
// batch (or window) of batch i: a column it finds broken shows its error in
// its cells, whose values are never read, and in its field (Fields). The
// others are settled: the window is read by many goroutines once cached.
func (f *File) validate(i int, rec arrow.RecordBatch) *decoded {
	c := &decoded{rec: rec, colErr: make([]string, rec.NumCols())}
	for k := range c.colErr {
		if err := validateArray(rec.Column(k)); err != nil {
			c.colErr[k] = fmt.Sprintf("record batch %d: %v", i, err)
			f.notes.columnErr(k, c.colErr[k])
			continue
		}
		settle(rec.Column(k))
	}
	return c
}

// settle computes what arrow-go's arrays compute on first use and keep
// (the null count of an array data whose count is unknown, such as a row
// window's; a dictionary array's dictionary), through nested arrays, so
// that readers of a shared window only read. Call it on a valid array.
func settle(arr arrow.Array) {
	arr.NullN()
	switch a := arr.(type) {
	case array.ExtensionArray:
		settle(a.Storage())
	case *array.Dictionary:
		settle(a.Dictionary())
	case array.ListLike:
		settle(a.ListValues())
	case *array.Struct:
		for k := range a.NumField() {
			settle(a.Field(k))
		}
	case array.Union:
		for k := range a.NumFields() {
			settle(a.Field(k))
		}
	case *array.RunEndEncoded:
		settle(a.RunEndsArr())
		settle(a.Values())
	}
}

// patchInPlace rewrites the metadata of a whole message (prefix, metadata,
// body) compressed the Arrow 0.17 way, as patchLegacy does.
func patchInPlace(msg []byte) error {
	plen, size, err := messagePrefix(msg)
	if err != nil {
		return err
	}
	if size < 0 || int64(plen)+size > int64(len(msg)) {
		return errFlatbuffer
	}
	patched, ok, err := patchLegacy(msg[:int64(plen)+size])
	if ok {
		copy(msg, patched)
	}
	return err
}

// arrowErr says what went wrong in arrow-go's reader after context. arrow-go
// turns errors inside its readers, such as a decompressor's on corrupt
// lz4/zstd data, into panics that it recovers and reports with generic
// words ("unknown error while reading"); those words are dropped, and what
// is left (the decompressor's error) is said to make the data corrupt.
func arrowErr(context string, err error) error {
	msg := err.Error()
	for _, p := range []string{"arrow/ipc: unknown error while reading: ", "arrow/ipc: error reading record batch: "} {
		if rest, ok := strings.CutPrefix(msg, p); ok && !strings.Contains(rest, "runtime error") {
			return fmt.Errorf("%s: its data is corrupt: %s", context, rest)
		}
	}
	return fmt.Errorf("%s: %w", context, err)
}

// recordBytes is the memory a decoded record batch holds: its buffers.
func recordBytes(rec arrow.RecordBatch) int64 { return bufferBytes(rec, true) }

// bufferBytes is the memory of rec's buffers, with those of its
// dictionaries when dicts (a row window's are shared: windowDicts).
func bufferBytes(rec arrow.RecordBatch, dicts bool) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		if d, ok := d.(*array.Data); !ok || d == nil {
			return
		}
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
		if dicts {
			walk(d.Dictionary())
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}
