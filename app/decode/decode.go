package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	_ "github.com/tensorview/tensorview/tensorext" // registers the tensor extension types
)

// Format names the container a file was read from.
type Format string

// The formats Open reads.
const (
	IPCFile   Format = "Arrow IPC file"
	IPCStream Format = "Arrow IPC stream"
	// IPCTensor is one Arrow IPC Tensor message, what
	// pyarrow.ipc.write_tensor writes: it opens as one row of one
	// arrow.fixed_shape_tensor column (see readTensorMessage).
	IPCTensor Format = "Arrow IPC Tensor message"
)

// KV is one key/value pair of Arrow custom metadata, in file order.
type KV struct{ Key, Value string }

// ErrPanic wraps a panic recovered while decoding.
var ErrPanic = errors.New("internal error while decoding")

// guard turns a panic into an error: a refused allocation into its own
// error (wrapping ErrTooLarge), anything else into one wrapping ErrPanic.
// The error then says what was being read (format and args); so does that
// of a panic recovered in a shared load of the batch cache (loadPanic).
func guard(err *error, format string, args ...any) {
	if r := recover(); r != nil {
		if repanic {
			panic(r)
		}
		*err = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), recovered(r))
		return
	}
	if p, ok := (*err).(*loadPanic); ok {
		*err = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), p.err)
	}
}

// repanic makes guard panic again, for a stack trace in tests
// (TENSORVIEW_REPANIC=1 go test ./app/summary -run FuzzOpen/…): set by
// that variable of the environment, which a page has not.
var repanic = os.Getenv("TENSORVIEW_REPANIC") != ""

// recovered is the error for a recovered panic value.
func recovered(r any) error {
	if ref, ok := r.(*refusal); ok {
		return ref
	}
	return fmt.Errorf("%w: %v", ErrPanic, r)
}

// Sniff returns the format of data from its first bytes, not its name,
// or an error describing what the bytes are instead.
func Sniff(data []byte) (Format, error) {
	switch {
	case len(data) >= 6 && string(data[:6]) == "ARROW1":
		return IPCFile, nil
	case len(data) >= 4 && string(data[:4]) == "PAR1":
		return Parquet, nil // read by a ParquetSource: see OpenParquet
	case len(data) >= 4 && string(data[:4]) == "FEA1":
		return "", errors.New("this is a Feather version 1 file, which predates the Arrow IPC format and is not supported; re-save it with Feather version 2 (Arrow IPC)")
	case len(data) >= 8 && binary.LittleEndian.Uint32(data) == 0xFFFFFFFF:
		return IPCStream, nil
	case len(data) >= 8 && int32(binary.LittleEndian.Uint32(data)) > 0 && isFlatbufferStart(data[4:]):
		return IPCStream, nil // legacy stream: no continuation marker
	case len(data) == 0:
		return "", errors.New("the file is empty")
	}
	return "", fmt.Errorf("not an Arrow IPC file or stream (it starts with % x)", data[:min(8, len(data))])
}

// isFlatbufferStart checks the root table offset of a legacy stream's first
// message is plausible.
func isFlatbufferStart(b []byte) bool {
	off := binary.LittleEndian.Uint32(b)
	return off >= 4 && off < 1<<16 && off%4 == 0
}

// Open decodes a file held in memory; see OpenReader.
func Open(name string, data []byte) (*File, error) {
	return OpenReader(name, bytes.NewReader(data), int64(len(data)), Options{})
}

// validateArray checks, before any value of an array is read, that its
// buffers hold what its type and length need (validity bitmap, fixed-width
// values), then runs the type's own full validation of arrow-go (offsets,
// UTF-8, list and struct children), recursively through children and
// dictionaries, and checks dictionary indices against their dictionary. For
// an extension array it checks the storage (the tensor types check their
// rows one by one, so that one bad row does not hide the others). It catches
// bodies arrow-go read without understanding them, such as the experimental
// compression of Arrow 0.17 Feather files, and corrupt ones.
//
// arrow-go's generic array.ValidateFull is not used: it rejects the Null
// arrays arrow-go's own IPC reader makes (no buffers).
func validateArray(arr arrow.Array) error {
	return validateData(arr.Data())
}

// validateData is validateArray on an array's data: its buffers, children
// and dictionary are checked before any array is made of them (arrow-go's
// constructors slice buffers by the length and panic when they are short).
func validateData(d arrow.ArrayData) (err error) {
	dt := d.DataType()
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	if dt.ID() == arrow.NULL {
		return nil
	}
	bufs := d.Buffers()
	need := int64(d.Offset()) + int64(d.Len())
	if len(bufs) > 0 && bufs[0] != nil && int64(bufs[0].Len())*8 < need {
		return fmt.Errorf("%s: its validity bitmap has %d bytes for %d values", dt, bufs[0].Len(), need)
	}
	if fw, ok := dt.(arrow.FixedWidthDataType); ok && need > 0 {
		if len(bufs) < 2 || bufs[1] == nil {
			return fmt.Errorf("%s: no values buffer for %d values", dt, need)
		}
		if int64(bufs[1].Len())*8 < need*int64(fw.BitWidth()) {
			return fmt.Errorf("%s: its values buffer has %d bytes for %d values", dt, bufs[1].Len(), need)
		}
	}
	if err := checkOffsets(dt, d); err != nil {
		return fmt.Errorf("%s: %w", dt, err)
	}
	for _, c := range d.Children() {
		if err := validateData(c); err != nil {
			return err
		}
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		if err := validateData(dict); err != nil {
			return fmt.Errorf("dictionary: %w", err)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, bug := r.(runtime.Error); bug { // what the checks above missed
				err = fmt.Errorf("%s: %w", dt, recovered(r))
			} else { // arrow-go's own word on the data, such as nulls in map keys
				err = fmt.Errorf("%s: %v", dt, r)
			}
		}
	}()
	arr := array.MakeFromData(d)
	defer arr.Release()
	if ext, ok := arr.(array.ExtensionArray); ok {
		arr = ext.Storage()
	}
	if err := validateOwn(arr); err != nil {
		return err
	}
	if a, ok := arr.(*array.Dictionary); ok {
		return checkIndices(a)
	}
	return nil
}

// checkOffsets checks the offsets of strings, binaries, lists and maps:
// enough of them, non-decreasing, within the data they index (arrow-go's
// constructors and validation index by them without checking first).
func checkOffsets(dt arrow.DataType, d arrow.ArrayData) error {
	var width, data int64
	bufs := d.Buffers()
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		width = 4
		if dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY {
			width = 8
		}
		if len(bufs) > 2 && bufs[2] != nil {
			data = int64(bufs[2].Len())
		}
	case arrow.LIST, arrow.MAP, arrow.LARGE_LIST:
		width = 4
		if dt.ID() == arrow.LARGE_LIST {
			width = 8
		}
		if ch := d.Children(); len(ch) > 0 {
			data = int64(ch[0].Len())
		}
	default:
		return nil
	}
	if d.Len() == 0 {
		return nil
	}
	first, n := int64(d.Offset()), int64(d.Len())
	if len(bufs) < 2 || bufs[1] == nil || int64(bufs[1].Len()) < (first+n+1)*width {
		return fmt.Errorf("too few offsets for %d values", n)
	}
	b := bufs[1].Bytes()
	at := func(i int64) int64 {
		if width == 4 {
			return int64(int32(binary.LittleEndian.Uint32(b[i*4:])))
		}
		return int64(binary.LittleEndian.Uint64(b[i*8:]))
	}
	prev := at(first)
	if prev < 0 {
		return fmt.Errorf("negative offset %d", prev)
	}
	for i := first + 1; i <= first+n; i++ {
		o := at(i)
		if o < prev {
			return fmt.Errorf("offsets decrease at %d (%d after %d)", i, o, prev)
		}
		prev = o
	}
	if prev > data {
		return fmt.Errorf("offset %d is past the end of its %d values", prev, data)
	}
	return nil
}

// validateOwn runs arr's ValidateFull, if it has one. arrow-go's
// validation itself panics on some corrupt arrays (String.ValidateFull on
// decreasing offsets): that is a finding too.
func validateOwn(arr arrow.Array) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: malformed array (%v)", arr.DataType(), r)
		}
	}()
	if v, ok := arr.(interface{ ValidateFull() error }); ok {
		return v.ValidateFull()
	}
	return nil
}

// checkIndices checks that every valid index of a dictionary array names an
// entry of its dictionary.
func checkIndices(a *array.Dictionary) error {
	n := a.Dictionary().Len()
	for i := 0; i < a.Len(); i++ {
		if a.IsValid(i) {
			if k := a.GetValueIndex(i); k < 0 || k >= n {
				return fmt.Errorf("dictionary index %d at %d is outside the dictionary of %d values", k, i, n)
			}
		}
	}
	return nil
}

// readFull reads exactly len(p) bytes at off, or says where the file ended.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return fmt.Errorf("the file ends early: wanted %d bytes at offset %d, got %d", len(p), off, n)
	}
	return err
}
