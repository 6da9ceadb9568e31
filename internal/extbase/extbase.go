package extbase

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// MetadataObject decodes extension metadata into its top-level keys.
// The empty string (the spec's minimal metadata) decodes to no keys.
func MetadataObject(data string) (map[string]json.RawMessage, error) {
	if strings.TrimSpace(data) == "" {
		return map[string]json.RawMessage{}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(data), &obj); err != nil {
		return nil, fmt.Errorf("extension metadata is not a JSON object: %v", err)
	}
	if obj == nil { // the literal null
		return nil, fmt.Errorf("extension metadata is not a JSON object: null")
	}
	return obj, nil
}

// IsNull reports whether a raw JSON value is absent or the literal null;
// arrow-rs writes absent parameters as null.
func IsNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// Clip shortens a JSON value for an error message.
func Clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// checkData verifies that an array's buffers are large enough for its
// length and offset, recursively: validity bitmaps, fixed-width values,
// list offsets (monotonic and within the child) and children's lengths.
// arrow-go trusts buffers read from IPC, so without this a malformed file
// makes element access panic.
func checkData(d arrow.ArrayData) error {
	if d.Offset() < 0 || d.Len() < 0 {
		return fmt.Errorf("negative length %d or offset %d", d.Len(), d.Offset())
	}
	n := int64(d.Offset()) + int64(d.Len())
	if n > 1<<48 { // beyond any buffer; also keeps the byte counts below from overflowing
		return fmt.Errorf("implausible length %d", d.Len())
	}
	bufs := d.Buffers()
	need := func(i int, bytes int64, what string) error {
		if i >= len(bufs) || bufs[i] == nil {
			if bytes == 0 {
				return nil
			}
			return fmt.Errorf("%s buffer is missing", what)
		}
		// Bytes, not Len: a buffer's recorded length can exceed its bytes.
		if have := int64(len(bufs[i].Bytes())); have < bytes {
			return fmt.Errorf("%s buffer has %d bytes, %d needed for %d elements", what, have, bytes, n)
		}
		return nil
	}
	if len(bufs) > 0 && bufs[0] != nil && d.DataType().ID() != arrow.NULL {
		if err := need(0, (n+7)/8, "validity"); err != nil {
			return err
		}
	}
	dt := d.DataType()
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	children := d.Children()
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return need(1, (n+7)/8, "values")
	case arrow.FixedWidthDataType:
		if dt.ID() == arrow.DICTIONARY {
			return nil
		}
		return need(1, (n*int64(t.BitWidth())+7)/8, "values")
	case *arrow.FixedSizeListType:
		if t.Len() < 0 || (t.Len() > 0 && n > (1<<48)/int64(t.Len())) {
			return fmt.Errorf("implausible fixed-size list of %d × %d", n, t.Len())
		}
		if len(children) != 1 || int64(children[0].Len()) < n*int64(t.Len()) {
			return fmt.Errorf("fixed-size list of %d elements needs %d values", n, n*int64(t.Len()))
		}
		return checkData(children[0])
	case *arrow.ListType, *arrow.LargeListType, *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		width := int64(4)
		if id := dt.ID(); id == arrow.LARGE_LIST || id == arrow.LARGE_STRING || id == arrow.LARGE_BINARY {
			width = 8
		}
		isList := dt.ID() == arrow.LIST || dt.ID() == arrow.LARGE_LIST
		if d.Len() == 0 {
			return nil
		}
		if err := need(1, (n+1)*width, "offsets"); err != nil {
			return err
		}
		if isList && len(children) != 1 {
			return fmt.Errorf("list without a child array")
		}
		raw := bufs[1].Bytes()
		at := func(i int64) int64 {
			if width == 4 {
				return int64(int32(binary.LittleEndian.Uint32(raw[i*4:])))
			}
			return int64(binary.LittleEndian.Uint64(raw[i*8:]))
		}
		prev := at(int64(d.Offset()))
		if prev < 0 {
			return fmt.Errorf("list offset %d is negative", prev)
		}
		for i := int64(d.Offset()) + 1; i <= n; i++ {
			o := at(i)
			if o < prev {
				return fmt.Errorf("list offsets decrease at %d (%d < %d)", i, o, prev)
			}
			prev = o
		}
		if !isList {
			return need(2, prev, "data")
		}
		if prev > int64(children[0].Len()) {
			return fmt.Errorf("list offsets reach %d, past the %d values", prev, children[0].Len())
		}
		return checkData(children[0])
	case *arrow.StructType:
		for _, c := range children {
			if int64(c.Len()) < n {
				return fmt.Errorf("struct child has %d elements, %d needed", c.Len(), n)
			}
			if err := checkData(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckStorage runs checkData and arrow-go's array.ValidateFull (dictionary
// indices, views, unions, ...) on an extension array's storage. A panic inside
// arrow-go's validation counts as malformed storage.
func CheckStorage(storage arrow.Array) (err error) {
	if err := checkData(storage.Data()); err != nil {
		return fmt.Errorf("malformed storage: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed storage: %v", r)
		}
	}()
	if err := array.ValidateFull(storage); err != nil {
		return fmt.Errorf("malformed storage: %w", err)
	}
	return nil
}

// ArrayString is the extension arrays' String: every row's ValueStr in
// brackets.
func ArrayString(a arrow.Array) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < a.Len(); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.ValueStr(i))
	}
	b.WriteByte(']')
	return b.String()
}

// StorageCheck remembers the result of checking an extension array's
// storage, so that the check (CheckStorage, a pass over the buffers) runs
// once per array whatever the number of rows read. The zero value is
// ready to use; it must not be copied after first use (it holds a
// sync.Once).
type StorageCheck struct {
	once sync.Once
	err  error // the storage's buffers are too small (a malformed file)
}

// Do runs check the first time it is called and returns its error, then
// and on every later call.
func (c *StorageCheck) Do(check func() error) error {
	c.once.Do(func() { c.err = check() })
	return c.err
}
