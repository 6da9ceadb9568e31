package tensorext

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

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

// checkStorage runs checkData and arrow-go's array.ValidateFull (dictionary
// indices, views, unions, ...) on a tensor array's storage. A panic inside
// arrow-go's validation counts as malformed storage.
func checkStorage(storage arrow.Array) (err error) {
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

// storageStr is the storage's text for row i of an array whose tensors
// cannot be viewed (err says why); for malformed storage, whose own ValueStr
// would panic, it is err's text.
func storageStr(storage arrow.Array, i int, err error) (s string) {
	defer func() {
		if recover() != nil {
			s = "(invalid: " + err.Error() + ")"
		}
	}()
	return storage.ValueStr(i)
}

// rowStr is the tensor arrays' ValueStr: row i's values nested in physical
// order, "(null)", or the storage's text when the row has no view.
func rowStr(a array.ExtensionArray, tensor func(int) (Tensor, error), i int) string {
	t, err := tensor(i)
	if err == ErrNullTensor {
		return array.NullValueStr
	}
	if err != nil {
		return storageStr(a.Storage(), i, err)
	}
	return t.String()
}

// arrayStr is the tensor arrays' String: every row's ValueStr in brackets.
func arrayStr(a arrow.Array) string {
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
