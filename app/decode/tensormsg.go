package decode

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/tensorext"
)

// This file reads an Arrow IPC Tensor message, what pyarrow.ipc.write_tensor
// (Arrow C++ arrow::ipc::WriteTensor) writes: not an IPC stream or file but
// one encapsulated message alone (apache/arrow format/Message.fbs, Tensor.fbs,
// Schema.fbs; written by cpp/src/arrow/ipc/writer.cc WriteTensor and
// metadata_internal.cc WriteTensorMessage, read by reader.cc ReadTensor and
// metadata_internal.cc GetTensorMetadata):
//
//	0xFFFFFFFF              continuation marker (absent before Arrow 0.15)
//	int32                   metadata length, padding included (to 64 bytes
//	                        with the prefix, kTensorAlignment)
//	Message flatbuffer      header_type = Tensor (4), bodyLength
//	padding
//	body                    bodyLength bytes: the tensor's values
//
// The Tensor table (Tensor.fbs) holds type (the Type union of Schema.fbs:
// Int or FloatingPoint in practice), shape ([TensorDim{size: long, name:
// string}]), strides ([long], in bytes, one per dimension) and data (struct
// Buffer{offset, length}: where the values are in the body). Arrow C++ writes
// the strides of the tensor when it is contiguous, row-major (C order) or
// column-major (Fortran order, what numpy gives for a transposed array), and
// otherwise copies the values into row-major order first; it always writes a
// name (empty when unnamed) for every dimension and data = {0, bodyLength}.
// Nothing follows the body (no end-of-stream marker).
//
// ipcverify.Message does not look into Tensor headers: the flatbuffer is
// read here with internal/flatbuf, which checks every field it reads.

// errNotTensorMessage is returned by readTensorMessage when the file does
// not start with an IPC message whose header is a Tensor (or a
// SparseTensor): the caller reads the file as a stream instead, and reports
// that reader's errors.
var errNotTensorMessage = errors.New("not an Arrow IPC Tensor message")

// errSparseTensorMessage is returned by readTensorMessage for a file that
// starts with an IPC SparseTensor message (Message.fbs header type 5,
// SparseTensor.fbs).
var errSparseTensorMessage = errors.New("an Arrow IPC SparseTensor message (pyarrow.ipc.write_sparse_tensor): tensorview does not read sparse tensors")

// tensorMessageField is the name of the one column of the record batch
// readTensorMessage returns (a Tensor message names no tensor).
const tensorMessageField = "tensor"

// maxTensorDims bounds the dimensions of a Tensor message (numpy's limit).
const maxTensorDims = 64

// tensorTypeNames are the members of the Type union (Schema.fbs), for errors.
var tensorTypeNames = []string{"NONE", "Null", "Int", "FloatingPoint", "Binary", "Utf8", "Bool", "Decimal",
	"Date", "Time", "Timestamp", "Interval", "List", "Struct_", "Union", "FixedSizeBinary",
	"FixedSizeList", "Map", "Duration", "LargeBinary", "LargeUtf8", "LargeList", "RunEndEncoded",
	"BinaryView", "Utf8View", "ListView", "LargeListView"}

// tensorMsgErr is the error of a Tensor message that cannot be read.
func tensorMsgErr(format string, args ...any) error {
	return fmt.Errorf("cannot read the Arrow IPC Tensor message (pyarrow.ipc.write_tensor): "+format, args...)
}

// readTensorMessage reads the file of size bytes read through r as an
// Arrow IPC Tensor message (see above) and returns a record batch of one
// row and one column, named "tensor", of type arrow.fixed_shape_tensor
// (tensorext.FixedShapeTensorType) that holds the tensor:
//
//   - the value type is the tensor's: Int of 8, 16, 32 or 64 bits, signed
//     or not, or FloatingPoint HALF, SINGLE or DOUBLE; other types are an
//     error naming the type;
//   - dim_names are the TensorDim names when every dimension has a
//     non-empty one;
//   - row-major strides (C order) give the shape as written and no
//     permutation; strides of any other contiguous layout (column-major,
//     Fortran order, or any order of the dimensions) share the values
//     without copying them: the physical shape is the dimensions in memory
//     order, outermost first, and the permutation maps each logical (written)
//     dimension to its physical one, so that the logical view
//     (transpose(physical, permutation)) is the tensor as written:
//     permutation[i] is the memory-order position of written dimension i.
//     A Fortran-order [a,b,c] becomes physical [c,b,a], permutation
//     [2,1,0]; numpy's x.transpose(2, 0, 1) of a C-order x of shape
//     [2,3,4] (shape [4,2,3], byte strides [w, 12w, 4w]) becomes x itself,
//     physical [2,3,4], with permutation [2,0,1], the transpose's axes.
//     Strides of size-1 dimensions are ignored, as numpy and Arrow C++
//     allow any;
//   - any other strides (gaps, repeated or overlapping elements) are
//     gathered into a row-major copy of the tensor as written.
//
// Everything the file declares is checked before it is used: flatbuffer
// offsets and vector lengths against the metadata, the body against the
// file, the data buffer against the body, the shape's product against
// overflow and the 2^31-1 elements of a FixedSizeList, the strides
// (non-negative, Tensor.fbs, as Arrow C++ requires: the first element is
// at the start of the data buffer) against the data buffer, the data length
// against shape × value width for a contiguous layout. What it reads and
// allocates, values and copy together, must fit budget bytes (DefaultBudget
// when budget <= 0), or the error wraps ErrTooLarge and names the sizes.
//
// It returns errNotTensorMessage when the file does not start with an IPC
// message whose header is a Tensor (including when its first message cannot
// be framed: the stream reader reports why), errSparseTensorMessage for a
// SparseTensor message, and an error that starts "cannot read the Arrow IPC
// Tensor message" for a Tensor message it cannot read.
func readTensorMessage(r io.ReaderAt, size int64, budget int64) (rec arrow.RecordBatch, err error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	defer func() { // no panic is expected; none must escape to the viewer
		if p := recover(); p != nil {
			if repanic {
				panic(p)
			}
			rec, err = nil, tensorMsgErr("%w", recovered(p))
		}
	}()
	m, err := readTensorMeta(r, size)
	if err != nil {
		return nil, err
	}
	return m.batch(r, size, budget)
}

// tensorMeta is what a Tensor message's metadata says.
type tensorMeta struct {
	valueType  arrow.DataType
	width      int64 // bytes per value
	shape      []int64
	names      []string
	strides    []int64 // bytes; nil for row-major
	bodyStart  int64   // in the file
	bodyLen    int64
	data       ipcBuffer // in the body
	n          int64     // elements
	typeString string    // for errors
}

// readTensorAt reads exactly len(p) bytes at off.
func readTensorAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return tensorMsgErr("the file ends early: wanted %d bytes at offset %d, got %d", len(p), off, n)
	}
	return tensorMsgErr("%w", err)
}

// readTensorMeta reads and checks the prefix and the Message flatbuffer.
func readTensorMeta(r io.ReaderAt, size int64) (*tensorMeta, error) {
	if size < 8 {
		return nil, errNotTensorMessage
	}
	head := make([]byte, 8)
	if err := readTensorAt(r, head, 0); err != nil {
		return nil, err
	}
	plen, metaLen, err := messagePrefix(head)
	if err != nil || metaLen < 8 || metaLen > maxMetadata || metaLen > size-int64(plen) {
		return nil, errNotTensorMessage
	}
	meta := make([]byte, metaLen)
	if err := readTensorAt(r, meta, int64(plen)); err != nil {
		return nil, err
	}
	msg, err := flatbuf.Root(meta)
	if err != nil || msg.Scalars(2, 1) != nil {
		return nil, errNotTensorMessage
	}
	switch kind, _ := msg.Uint8(1); kind {
	case msgSparseTensor:
		return nil, errSparseTensorMessage
	case msgTensor:
	default:
		return nil, errNotTensorMessage
	}
	// From here on the file is a Tensor message: errors say what is wrong.
	m := &tensorMeta{bodyStart: int64(plen) + metaLen}
	if m.bodyLen, err = msg.Int64(3); err != nil {
		return nil, tensorMsgErr("%v", err)
	}
	if m.bodyLen < 0 || m.bodyLen > size-m.bodyStart {
		return nil, tensorMsgErr("its body of %d bytes at offset %d runs past the end of the file (%d bytes)", m.bodyLen, m.bodyStart, size)
	}
	t, ok, err := msg.TableField(2)
	if err != nil {
		return nil, tensorMsgErr("%v", err)
	}
	if !ok {
		return nil, tensorMsgErr("the message has no Tensor header")
	}
	if err := t.Scalars(1, 0, 0, 0, 16); err != nil { // type_type, …, data
		return nil, tensorMsgErr("%v", err)
	}
	if err := m.readType(t); err != nil {
		return nil, err
	}
	if err := m.readShape(t, meta); err != nil {
		return nil, err
	}
	if err := m.readStrides(t, meta); err != nil {
		return nil, err
	}
	// data: struct Buffer {offset: long; length: long}, inline in the table.
	// Arrow C++'s reader takes the whole body; its writer writes {0, body
	// length}. Absent, it is the whole body.
	m.data = ipcBuffer{0, m.bodyLen}
	if p, ok, err := t.Inline(4, 16); err != nil {
		return nil, tensorMsgErr("%v", err)
	} else if ok {
		m.data = ipcBuffer{int64(binary.LittleEndian.Uint64(meta[p:])), int64(binary.LittleEndian.Uint64(meta[p+8:]))}
	}
	if m.data.offset < 0 || m.data.length < 0 || m.data.offset > m.bodyLen || m.data.length > m.bodyLen-m.data.offset {
		return nil, tensorMsgErr("its data buffer (offset %d, length %d) is not inside its %d-byte body", m.data.offset, m.data.length, m.bodyLen)
	}
	return m, nil
}

// readType reads the Type union (Schema.fbs) of the Tensor table.
func (m *tensorMeta) readType(t flatbuf.Table) error {
	kind, _ := t.Uint8(0)
	name := fmt.Sprintf("unknown type %d", kind)
	if kind < len(tensorTypeNames) {
		name = tensorTypeNames[kind]
	}
	at, ok, err := t.Ref(1)
	if err != nil {
		return tensorMsgErr("%v", err)
	}
	if kind == 0 || !ok {
		return tensorMsgErr("it declares no value type")
	}
	ty, err := t.TableAt(at)
	if err != nil {
		return tensorMsgErr("%v", err)
	}
	switch kind {
	case 2: // Int {bitWidth: int; is_signed: bool}
		if err := ty.Scalars(4, 1); err != nil {
			return tensorMsgErr("%v", err)
		}
		w, _ := ty.Int32(0)
		signed, _ := ty.Uint8(1)
		types := map[int][2]arrow.DataType{
			8:  {arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int8},
			16: {arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int16},
			32: {arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int32},
			64: {arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Int64},
		}
		pair, ok := types[w]
		if !ok {
			return tensorMsgErr("its value type is an integer of %d bits (Schema.fbs Int allows 8, 16, 32, 64)", w)
		}
		m.valueType = pair[0]
		if signed != 0 {
			m.valueType = pair[1]
		}
		m.width = int64(w / 8)
	case 3: // FloatingPoint {precision: Precision (short) = HALF}
		if err := ty.Scalars(2); err != nil {
			return tensorMsgErr("%v", err)
		}
		p, _ := ty.Int16(0)
		switch p {
		case 0:
			m.valueType, m.width = arrow.FixedWidthTypes.Float16, 2
		case 1:
			m.valueType, m.width = arrow.PrimitiveTypes.Float32, 4
		case 2:
			m.valueType, m.width = arrow.PrimitiveTypes.Float64, 8
		default:
			return tensorMsgErr("its value type is a floating point number of unknown precision %d (Schema.fbs: HALF 0, SINGLE 1, DOUBLE 2)", p)
		}
	default:
		return tensorMsgErr("its value type is %s; tensorview reads tensors of integers (Int) and floating point numbers (FloatingPoint)", name)
	}
	m.typeString = m.valueType.String()
	return nil
}

// readShape reads the [TensorDim] vector: sizes, names, element count.
func (m *tensorMeta) readShape(t flatbuf.Table, meta []byte) error {
	start, ndim, err := t.Vector(2, 4)
	if err != nil {
		return tensorMsgErr("%v", err)
	}
	if ndim > maxTensorDims {
		return tensorMsgErr("it declares %d dimensions; tensorview reads at most %d", ndim, maxTensorDims)
	}
	m.shape = make([]int64, ndim)
	names := make([]string, ndim)
	named, nameBytes := true, 0
	for k := range ndim {
		dim, err := t.VectorTable(start, k)
		if err != nil {
			return tensorMsgErr("%v", err)
		}
		if m.shape[k], err = dim.Int64(0); err != nil {
			return tensorMsgErr("%v", err)
		}
		s, l, err := dim.Vector(1, 1)
		if err != nil {
			return tensorMsgErr("%v", err)
		}
		// Strings may be shared: their copies must not add up past the
		// metadata (64 dimensions × one 64 MiB name).
		if nameBytes += l; nameBytes > len(meta) {
			return tensorMsgErr("its dimension names add up to more bytes than its metadata holds")
		}
		names[k] = string(meta[s : s+l])
		named = named && l > 0
	}
	if named && ndim > 0 {
		m.names = names
	}
	m.n = 1
	for k, d := range m.shape {
		if d < 0 {
			return tensorMsgErr("dimension %d has size %d", k, d)
		}
		if d != 0 && m.n > math.MaxInt64/d {
			return tensorMsgErr("the product of its shape %s overflows a 64-bit integer", tensorext.FormatShape(m.shape))
		}
		m.n *= d
	}
	if m.n == 0 {
		return tensorMsgErr("its shape %s holds no elements, which a fixed_shape_tensor column cannot hold (arrow-go has no FixedSizeList[0])", tensorext.FormatShape(m.shape))
	}
	if m.n > math.MaxInt32 {
		return tensorMsgErr("its shape %s holds %d elements; a fixed_shape_tensor column (a FixedSizeList) holds at most %d", tensorext.FormatShape(m.shape), m.n, math.MaxInt32)
	}
	return nil
}

// readStrides reads the strides vector ([long], bytes): absent or empty
// means row-major (as Arrow C++ reads it).
func (m *tensorMeta) readStrides(t flatbuf.Table, meta []byte) error {
	start, n, err := t.Vector(3, 8)
	if err != nil {
		return tensorMsgErr("%v", err)
	}
	if n == 0 {
		return nil
	}
	if n != len(m.shape) {
		return tensorMsgErr("it declares %d strides for %d dimensions", n, len(m.shape))
	}
	m.strides = make([]int64, n)
	for k := range m.strides {
		m.strides[k] = int64(binary.LittleEndian.Uint64(meta[start+8*k:]))
	}
	return nil
}

// tensorStrides is how the tensor's values lie in its data buffer.
type tensorStrides struct {
	contiguous bool
	order      []int // contiguous: order[j] is the written dimension at physical position j
	span       int64 // bytes of the data buffer the strides reach (gather)
	strides    []int64
}

// tensorLayout checks the strides against the data buffer and tells a
// contiguous layout (in some order of the dimensions) from one that must be
// gathered.
func (m *tensorMeta) tensorLayout() (tensorStrides, error) {
	ndim := len(m.shape)
	need := m.n * m.width // ≤ (2^31-1) × 8
	if m.strides == nil {
		if m.data.length != need {
			return tensorStrides{}, tensorMsgErr("its data buffer holds %d bytes; shape %s of %s needs %d", m.data.length, tensorext.FormatShape(m.shape), m.typeString, need)
		}
		return tensorStrides{contiguous: true, order: identityPerm(ndim)}, nil
	}
	// Strides of size-1 dimensions move nowhere: ignore them (numpy and
	// Arrow C++ allow any value there).
	st := make([]int64, ndim)
	reach := int64(0) // the largest byte offset of an element
	limit := m.data.length - m.width
	if limit < 0 {
		return tensorStrides{}, tensorMsgErr("its data buffer holds %d bytes, less than one %s value", m.data.length, m.typeString)
	}
	for k, d := range m.shape {
		if d <= 1 {
			continue
		}
		s := m.strides[k]
		if s < 0 {
			return tensorStrides{}, tensorMsgErr("dimension %d has stride %d; strides are non-negative byte offsets (Tensor.fbs)", k, s)
		}
		if s > (limit-reach)/(d-1) {
			return tensorStrides{}, tensorMsgErr("its strides %s reach past its %d-byte data buffer (shape %s of %s)", tensorext.FormatShape(m.strides), m.data.length, tensorext.FormatShape(m.shape), m.typeString)
		}
		st[k] = s
		reach += s * (d - 1)
	}
	// The dimensions of size > 1 in memory order (largest stride first) in
	// their own slots; size-1 dimensions stay where they are.
	var big []int
	for k, d := range m.shape {
		if d > 1 {
			big = append(big, k)
		}
	}
	sorted := slices.Clone(big)
	slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(st[b], st[a]) })
	order := identityPerm(ndim)
	for j, k := range big {
		order[k] = sorted[j]
	}
	expect, contiguous := m.width, true
	for j := ndim - 1; j >= 0; j-- {
		k := order[j]
		if m.shape[k] > 1 && st[k] != expect {
			contiguous = false
			break
		}
		expect *= m.shape[k]
	}
	if contiguous {
		if m.data.length != need {
			return tensorStrides{}, tensorMsgErr("its data buffer holds %d bytes; shape %s of %s needs %d", m.data.length, tensorext.FormatShape(m.shape), m.typeString, need)
		}
		return tensorStrides{contiguous: true, order: order}, nil
	}
	return tensorStrides{span: reach + m.width, strides: st}, nil
}

func identityPerm(n int) []int {
	p := make([]int, n)
	for k := range p {
		p[k] = k
	}
	return p
}

// batch reads the values and makes the record batch.
func (m *tensorMeta) batch(r io.ReaderAt, size, budget int64) (arrow.RecordBatch, error) {
	l, err := m.tensorLayout()
	if err != nil {
		return nil, err
	}
	ndim := len(m.shape)
	need := m.n * m.width
	if total := need + l.span; total > budget {
		ref := &refusal{want: total, limit: budget, size: size, what: fmt.Sprintf("the IPC Tensor message's %s tensor of shape %s", m.typeString, tensorext.FormatShape(m.shape)), read: true}
		return nil, tensorMsgErr("%w", ref)
	}
	off := m.bodyStart + m.data.offset
	var values []byte
	shape := make([]int, ndim)
	var perm []int
	var names []string
	if l.contiguous {
		values = make([]byte, need)
		if err := readTensorAt(r, values, off); err != nil {
			return nil, err
		}
		// physical dimension j is written dimension order[j]; the
		// permutation is order's inverse: perm[order[j]] = j.
		perm = make([]int, ndim)
		for j, k := range l.order {
			shape[j] = int(m.shape[k])
			perm[k] = j
		}
		if m.names != nil {
			names = make([]string, ndim)
			for j, k := range l.order {
				names[j] = m.names[k]
			}
		}
		if slices.Equal(perm, identityPerm(ndim)) {
			perm = nil
		}
	} else {
		src := make([]byte, l.span)
		if err := readTensorAt(r, src, off); err != nil {
			return nil, err
		}
		values = make([]byte, need)
		gatherBytes(values, src, m.shape, l.strides, int(m.width))
		for k, d := range m.shape {
			shape[k] = int(d)
		}
		names = m.names
	}
	typ, err := tensorext.NewFixedShapeTensorType(m.valueType, shape, perm, names)
	if err != nil {
		return nil, tensorMsgErr("%v", err)
	}
	child := array.NewData(m.valueType, int(m.n), []*memory.Buffer{nil, memory.NewBufferBytes(values)}, nil, 0, 0)
	defer child.Release()
	list := array.NewData(typ.StorageType(), 1, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer list.Release()
	storage := array.MakeFromData(list)
	defer storage.Release()
	col := array.NewExtensionArrayWithStorage(typ, storage)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: tensorMessageField, Type: typ}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, 1), nil
}

// gatherBytes copies the elements of width bytes at byte offsets
// Σ index[k]·strides[k] of src into dst in row-major order of shape. The
// caller checked that every offset lies in src and dst holds them all.
func gatherBytes(dst, src []byte, shape, strides []int64, width int) {
	ndim := len(shape)
	idx := make([]int64, ndim)
	off := int64(0)
	for out := 0; out < len(dst); out += width {
		copy(dst[out:out+width], src[off:off+int64(width)])
		for k := ndim - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				off += strides[k]
				break
			}
			off -= strides[k] * (shape[k] - 1)
			idx[k] = 0
		}
	}
}
