// Package decode opens Arrow data (IPC file and stream format) with
// arrow-go and turns it into what the viewer shows: file facts, schema fields
// and per-cell summaries of tensors. It is pure Go (no syscall/js), and every
// entry point recovers panics from arrow-go or tensorext into errors so a bad
// file can never take the page down.
package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	_ "github.com/tensorview/tensorview/tensorext" // registers the tensor extension types
)

// Format names the container a file was read from.
type Format string

// The formats Open reads.
const (
	IPCFile   Format = "Arrow IPC file"
	IPCStream Format = "Arrow IPC stream"
)

// KV is one key/value pair of Arrow custom metadata, in file order.
type KV struct{ Key, Value string }

// File is an opened Arrow file: its schema, its record batches and what the
// viewer shows about them. Rows are numbered globally across batches.
type File struct {
	Name     string
	Size     int64
	Format   Format
	Schema   *arrow.Schema
	Metadata []KV // schema-level custom metadata
	Fields   []Field
	Batches  []arrow.RecordBatch
	NumRows  int64
	// Warnings are problems that did not stop the file from opening, for
	// example a stream whose later batches could not be read.
	Warnings []string
	starts   []int64 // global index of each batch's first row
}

// ErrPanic wraps a panic recovered while decoding.
var ErrPanic = errors.New("internal error while decoding")

// guard turns a panic into an error wrapping ErrPanic.
func guard(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %w: %v", what, ErrPanic, r)
	}
}

// Sniff returns the format of data from its first bytes, not its name, or an error describing what the bytes are instead.
func Sniff(data []byte) (Format, error) {
	switch {
	case len(data) >= 6 && string(data[:6]) == "ARROW1":
		return IPCFile, nil
	case len(data) >= 4 && string(data[:4]) == "PAR1":
		// arrow-go's pqarrow imports arrow/compute and gRPC, which makes the
		// wasm 80 MB instead of 17 MB; Parquet waits for a lighter path.
		return "", errors.New("this is a Parquet file; tensorview reads Arrow IPC files and streams (.arrow, .arrows, .feather) for now")
	case len(data) >= 4 && string(data[:4]) == "FEA1":
		return "", errors.New("this is a Feather version 1 file, which predates the Arrow IPC format and is not supported; re-save it with Feather version 2 (Arrow IPC)")
	case len(data) >= 8 && binary.LittleEndian.Uint32(data) == 0xFFFFFFFF:
		return IPCStream, nil
	case len(data) >= 8 && int32(binary.LittleEndian.Uint32(data)) > 0 && int(binary.LittleEndian.Uint32(data)) < len(data) && data[4] != 0 && isFlatbufferStart(data[4:]):
		return IPCStream, nil // legacy stream: no continuation marker
	case len(data) == 0:
		return "", errors.New("the file is empty")
	}
	return "", fmt.Errorf("not an Arrow IPC file or stream, (it starts with % x)", data[:min(8, len(data))])
}

// isFlatbufferStart checks the root table offset of a legacy stream's first
// message is plausible.
func isFlatbufferStart(b []byte) bool {
	off := binary.LittleEndian.Uint32(b)
	return off >= 4 && off < 1<<16 && off%4 == 0
}

// Open decodes a whole file held in memory. name is shown to the user only;
// the format is sniffed from the bytes. A file that cannot be read at all
// returns an error; a stream that breaks after some batches opens with those
// batches and a warning.
func Open(name string, data []byte) (f *File, err error) {
	defer guard(&err, "reading "+name)
	format, err := Sniff(data)
	if err != nil {
		return nil, err
	}
	f = &File{Name: name, Size: int64(len(data)), Format: format}
	mem := memory.DefaultAllocator
	switch format {
	case IPCFile:
		r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		if err != nil {
			return nil, fmt.Errorf("cannot read the Arrow IPC file: %w", err)
		}
		defer r.Close()
		f.Schema = r.Schema()
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.RecordBatchAt(i)
			if err != nil {
				f.release()
				return nil, fmt.Errorf("cannot read record batch %d of %d: %w", i, r.NumRecords(), err)
			}
			f.add(rec)
		}
	case IPCStream:
		r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		if err != nil {
			return nil, fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
		}
		defer r.Release()
		f.Schema = r.Schema()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			f.add(rec)
		}
		if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
			if len(f.Batches) == 0 {
				return nil, fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
			}
			f.Warnings = append(f.Warnings, fmt.Sprintf("the stream broke after %d record batches: %v", len(f.Batches), err))
		}
	}
	f.describe()
	return f, nil
}

func (f *File) add(rec arrow.RecordBatch) {
	f.starts = append(f.starts, f.NumRows)
	f.Batches = append(f.Batches, rec)
	f.NumRows += rec.NumRows()
}

func (f *File) release() {
	for _, b := range f.Batches {
		b.Release()
	}
	f.Batches = nil
}

// Close releases the record batches.
func (f *File) Close() { f.release() }

// describe fills Metadata and Fields from the schema.
func (f *File) describe() {
	if md := f.Schema.Metadata(); md.Len() > 0 {
		for i, k := range md.Keys() {
			f.Metadata = append(f.Metadata, KV{k, md.Values()[i]})
		}
	}
	for i, fld := range f.Schema.Fields() {
		f.Fields = append(f.Fields, describeField(i, fld))
	}
	for b, rec := range f.Batches {
		for c := range f.Fields {
			if f.Fields[c].Err != "" || c >= int(rec.NumCols()) {
				continue
			}
			if err := validateArray(rec.Column(c)); err != nil {
				f.Fields[c].Err = fmt.Sprintf("record batch %d: %v", b, err)
			}
		}
	}
}

// validateArray runs arrow-go's own full validation (offsets within buffers,
// UTF-8) on an array and its children, where arrow-go has one. It catches
// bodies arrow-go read without understanding them, such as the experimental
// compression of Arrow 0.17 Feather files. A panic inside arrow-go's
// validation (its union check panics on valid integration files) counts as
// no finding: the cells are still read under their own recover.
func validateArray(arr arrow.Array) (err error) {
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	if v, ok := arr.(interface{ ValidateFull() error }); ok {
		if _, tensor := arr.(tensorArray); !tensor {
			if err := v.ValidateFull(); err != nil {
				return err
			}
		}
	}
	switch a := arr.(type) {
	case array.ExtensionArray:
		return validateArray(a.Storage())
	case *array.Struct:
		for i := 0; i < a.NumField(); i++ {
			if err := validateArray(a.Field(i)); err != nil {
				return err
			}
		}
	case array.ListLike:
		return validateArray(a.ListValues())
	}
	return nil
}

// Locate returns the batch holding global row and the row's index in it;
// ok is false when row is out of range.
func (f *File) Locate(row int64) (batch, local int, ok bool) {
	if row < 0 || row >= f.NumRows {
		return 0, 0, false
	}
	lo, hi := 0, len(f.starts)-1
	for lo < hi { // last batch whose start <= row
		mid := (lo + hi + 1) / 2
		if f.starts[mid] <= row {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, int(row - f.starts[lo]), true
}
