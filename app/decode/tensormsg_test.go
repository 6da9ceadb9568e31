package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/tensorview/tensorview/tensorext"
)

// tmSpec describes an IPC Tensor message file as Arrow C++'s WriteTensor
// (pyarrow.ipc.write_tensor) writes it (apache/arrow cpp/src/arrow/ipc/
// writer.cc WriteTensor, metadata_internal.cc WriteTensorMessage,
// message.cc WriteMessage; format/Message.fbs, Tensor.fbs, Schema.fbs):
// continuation marker, metadata length, Message{version V5, header Tensor,
// bodyLength}, zero padding to a multiple of 64 bytes (kTensorAlignment)
// counted from the file's start, then the body. Fields left zero take what
// pyarrow writes; the others make hostile files.
type tmSpec struct {
	header    byte  // Message header type; 0: Tensor (4)
	typeType  byte  // Type union: 2 Int, 3 FloatingPoint, …
	bitWidth  int32 // Int
	signed    bool  // Int
	precision int16 // FloatingPoint: 0 HALF, 1 SINGLE, 2 DOUBLE
	noType    bool  // leave the type table out

	shape     []int64
	names     []string // nil: every name empty, as pyarrow writes unnamed dims
	strides   []int64  // bytes
	noStrides bool     // leave the strides vector out

	body    []byte
	data    *[2]int64 // Buffer{offset, length}; nil: {0, len(body)}
	noData  bool      // leave the data struct out
	bodyLen *int64    // Message.bodyLength; nil: len(body)
	legacy  bool      // 4-byte prefix without the continuation marker
}

// file returns the bytes of the message.
func (s tmSpec) file() []byte {
	b := flatbuffers.NewBuilder(256)
	var typ flatbuffers.UOffsetT
	switch s.typeType {
	case 2: // Int
		b.StartObject(2)
		b.PrependBoolSlot(1, s.signed, false)
		b.PrependInt32Slot(0, s.bitWidth, 0)
		typ = b.EndObject()
	case 3: // FloatingPoint
		b.StartObject(1)
		b.PrependInt16Slot(0, s.precision, 0)
		typ = b.EndObject()
	default: // an empty table: Utf8, Bool, Null, …
		b.StartObject(0)
		typ = b.EndObject()
	}
	dims := make([]flatbuffers.UOffsetT, len(s.shape))
	for k, d := range s.shape {
		name := ""
		if s.names != nil {
			name = s.names[k]
		}
		n := b.CreateString(name)
		b.StartObject(2) // TensorDim
		b.PrependInt64Slot(0, d, 0)
		b.PrependUOffsetTSlot(1, n, 0)
		dims[k] = b.EndObject()
	}
	b.StartVector(4, len(dims), 4)
	for k := len(dims) - 1; k >= 0; k-- {
		b.PrependUOffsetT(dims[k])
	}
	shape := b.EndVector(len(dims))
	var strides flatbuffers.UOffsetT
	if !s.noStrides {
		b.StartVector(8, len(s.strides), 8)
		for k := len(s.strides) - 1; k >= 0; k-- {
			b.PrependInt64(s.strides[k])
		}
		strides = b.EndVector(len(s.strides))
	}
	data := [2]int64{0, int64(len(s.body))}
	if s.data != nil {
		data = *s.data
	}
	b.StartObject(5) // Tensor
	if !s.noData {
		b.Prep(8, 16) // struct Buffer {offset: long; length: long}
		b.PlaceInt64(data[1])
		b.PlaceInt64(data[0])
		b.Slot(4)
	}
	if !s.noStrides {
		b.PrependUOffsetTSlot(3, strides, 0)
	}
	b.PrependUOffsetTSlot(2, shape, 0)
	if !s.noType {
		b.PrependUOffsetTSlot(1, typ, 0)
	}
	b.PrependByteSlot(0, s.typeType, 0)
	tensor := b.EndObject()
	header := s.header
	if header == 0 {
		header = 4
	}
	bodyLen := int64(len(s.body))
	if s.bodyLen != nil {
		bodyLen = *s.bodyLen
	}
	b.StartObject(5) // Message
	b.PrependInt64Slot(3, bodyLen, 0)
	b.PrependUOffsetTSlot(2, tensor, 0)
	b.PrependInt16Slot(0, 4, 0) // MetadataVersion V5
	b.PrependByteSlot(1, header, 0)
	b.Finish(b.EndObject())
	fb := b.FinishedBytes()
	prefix := 8
	if s.legacy {
		prefix = 4
	}
	padded := (prefix + len(fb) + 63) / 64 * 64
	var out []byte
	if !s.legacy {
		out = binary.LittleEndian.AppendUint32(out, 0xFFFFFFFF)
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(padded-prefix))
	out = append(out, fb...)
	out = append(out, make([]byte, padded-len(out))...)
	return append(out, s.body...)
}

// Value types as Tensor.fbs types, with their little-endian encoding.
func tmInt(bits int32, signed bool) tmSpec {
	return tmSpec{typeType: 2, bitWidth: bits, signed: signed}
}
func tmFloat(precision int16) tmSpec { return tmSpec{typeType: 3, precision: precision} }

func le[T any](v ...T) [][]byte {
	out := make([][]byte, len(v))
	for k, x := range v {
		var b bytes.Buffer
		if err := binary.Write(&b, binary.LittleEndian, x); err != nil {
			panic(err)
		}
		out[k] = b.Bytes()
	}
	return out
}

// cStrides and fStrides are numpy's byte strides of a C-order and a
// Fortran-order array.
func cStrides(shape []int64, width int64) []int64 {
	st := make([]int64, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		st[k] = width
		width *= shape[k]
	}
	return st
}

func fStrides(shape []int64, width int64) []int64 {
	st := make([]int64, len(shape))
	for k := range shape {
		st[k] = width
		width *= shape[k]
	}
	return st
}

// place lays out values (the tensor's elements in row-major order of its
// logical shape) in a body of size bytes at the byte offsets the strides
// give, which is where numpy's ndarray of that shape and strides has them.
func place(size int, shape, strides []int64, values [][]byte) []byte {
	body := make([]byte, size)
	idx := make([]int64, len(shape))
	for _, v := range values {
		off := int64(0)
		for k, i := range idx {
			off += i * strides[k]
		}
		copy(body[off:], v)
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return body
}

func strs[T any](v ...T) []string {
	out := make([]string, len(v))
	for k, x := range v {
		out[k] = fmt.Sprint(x)
	}
	return out
}

func seq(n int) []int64 {
	v := make([]int64, n)
	for k := range v {
		v[k] = int64(k)
	}
	return v
}

// tmCase is one file and what the batch must hold: the tensorext type's
// physical shape, permutation and dim names, and the logical view's shape,
// dim names and values (ValueStr, row-major).
type tmCase struct {
	name         string
	spec         tmSpec
	file         []byte // instead of spec
	valueType    arrow.DataType
	physShape    []int
	perm         []int
	physNames    []string
	logShape     []int
	logNames     []string
	values       []string
	wantErr      string // substring of the error
	wantSentinel error  // errors.Is
}

func tmCases() []tmCase {
	var cases []tmCase
	add := func(c tmCase) { cases = append(cases, c) }

	// int32 C order [2,3,4]: values k*7-30.
	{
		shape := []int64{2, 3, 4}
		vals := make([]int32, 24)
		for k := range vals {
			vals[k] = int32(k*7 - 30)
		}
		s := tmInt(32, true)
		s.shape, s.strides = shape, cStrides(shape, 4)
		s.body = place(96, shape, s.strides, le(vals...))
		add(tmCase{name: "int32 C order", spec: s, valueType: arrow.PrimitiveTypes.Int32,
			physShape: []int{2, 3, 4}, logShape: []int{2, 3, 4}, values: strs(vals...)})
	}
	// float64 Fortran order [3,4]: numpy's
	// np.asfortranarray(np.arange(12.).reshape(3, 4) * 1.5) holds, in memory,
	// column after column: 0 4 8 1 5 9 2 6 10 3 7 11 (× 1.5), strides (8, 24).
	{
		mem := []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}
		var body []byte
		for _, v := range mem {
			body = binary.LittleEndian.AppendUint64(body, math.Float64bits(v*1.5))
		}
		s := tmFloat(2)
		s.shape, s.strides, s.body = []int64{3, 4}, []int64{8, 24}, body
		var want []float64
		for k := range 12 {
			want = append(want, float64(k)*1.5)
		}
		add(tmCase{name: "float64 Fortran order", spec: s, valueType: arrow.PrimitiveTypes.Float64,
			physShape: []int{4, 3}, perm: []int{1, 0}, logShape: []int{3, 4}, values: strs(want...)})
	}
	// int16 Fortran order [2,3,4] with dim names a, b, c.
	{
		shape := []int64{2, 3, 4}
		vals := make([]int16, 24)
		for k := range vals {
			vals[k] = int16(100 - k)
		}
		s := tmInt(16, true)
		s.shape, s.names, s.strides = shape, []string{"a", "b", "c"}, fStrides(shape, 2)
		s.body = place(48, shape, s.strides, le(vals...))
		add(tmCase{name: "int16 Fortran order named", spec: s, valueType: arrow.PrimitiveTypes.Int16,
			physShape: []int{4, 3, 2}, perm: []int{2, 1, 0}, physNames: []string{"c", "b", "a"},
			logShape: []int{2, 3, 4}, logNames: []string{"a", "b", "c"}, values: strs(vals...)})
	}
	// int64: numpy x = arange(24).reshape(2, 3, 4); y = x.transpose(2, 0, 1)
	// has shape (4, 2, 3), strides (8, 96, 32), and y[i, j, k] = x[j, k, i].
	// Its physical layout is x's, and its permutation the transpose's axes.
	{
		var want []int64
		for i := range 4 {
			for j := range 2 {
				for k := range 3 {
					want = append(want, int64(j*12+k*4+i))
				}
			}
		}
		s := tmInt(64, true)
		s.shape, s.strides = []int64{4, 2, 3}, []int64{8, 96, 32}
		s.names = []string{"w", "y", "x"}
		s.body = place(192, []int64{2, 3, 4}, cStrides([]int64{2, 3, 4}, 8), le(seq(24)...))
		add(tmCase{name: "int64 transposed (2,0,1)", spec: s, valueType: arrow.PrimitiveTypes.Int64,
			physShape: []int{2, 3, 4}, perm: []int{2, 0, 1}, physNames: []string{"y", "x", "w"},
			logShape: []int{4, 2, 3}, logNames: []string{"w", "y", "x"}, values: strs(want...)})
	}
	// Named C order; a single empty name leaves all out.
	{
		shape := []int64{2, 2}
		s := tmInt(64, false)
		s.shape, s.names, s.strides = shape, []string{"rows", "cols"}, cStrides(shape, 8)
		s.body = place(32, shape, s.strides, le(uint64(1), 2, 3, math.MaxUint64))
		add(tmCase{name: "uint64 named", spec: s, valueType: arrow.PrimitiveTypes.Uint64,
			physShape: []int{2, 2}, physNames: []string{"rows", "cols"}, logShape: []int{2, 2},
			logNames: []string{"rows", "cols"}, values: []string{"1", "2", "3", "18446744073709551615"}})
		s.names = []string{"rows", ""}
		add(tmCase{name: "one name empty", spec: s, valueType: arrow.PrimitiveTypes.Uint64,
			physShape: []int{2, 2}, logShape: []int{2, 2}, values: []string{"1", "2", "3", "18446744073709551615"}})
	}
	// uint8 [5], int8 [3], uint16, uint32, float32.
	{
		s := tmInt(8, false)
		s.shape, s.strides, s.body = []int64{5}, []int64{1}, []byte{0, 1, 127, 128, 255}
		add(tmCase{name: "uint8", spec: s, valueType: arrow.PrimitiveTypes.Uint8,
			physShape: []int{5}, logShape: []int{5}, values: []string{"0", "1", "127", "128", "255"}})
		s = tmInt(8, true)
		s.shape, s.strides, s.body = []int64{3}, []int64{1}, []byte{0x80, 0xFF, 0x7F}
		add(tmCase{name: "int8", spec: s, valueType: arrow.PrimitiveTypes.Int8,
			physShape: []int{3}, logShape: []int{3}, values: []string{"-128", "-1", "127"}})
		s = tmInt(16, false)
		s.shape, s.strides, s.body = []int64{2}, []int64{2}, bytes.Join(le(uint16(7), 65535), nil)
		add(tmCase{name: "uint16", spec: s, valueType: arrow.PrimitiveTypes.Uint16,
			physShape: []int{2}, logShape: []int{2}, values: []string{"7", "65535"}})
		s = tmInt(32, false)
		s.shape, s.strides, s.body = []int64{2}, []int64{4}, bytes.Join(le(uint32(7), math.MaxUint32), nil)
		add(tmCase{name: "uint32", spec: s, valueType: arrow.PrimitiveTypes.Uint32,
			physShape: []int{2}, logShape: []int{2}, values: []string{"7", "4294967295"}})
		s = tmFloat(1)
		s.shape, s.strides, s.body = []int64{2}, []int64{4}, bytes.Join(le(float32(0.5), -3.25), nil)
		add(tmCase{name: "float32", spec: s, valueType: arrow.PrimitiveTypes.Float32,
			physShape: []int{2}, logShape: []int{2}, values: []string{"0.5", "-3.25"}})
	}
	// float16 [2,2] (precision HALF is the flatbuffer default: written or not).
	{
		var body []byte
		for _, v := range []float32{1.5, -2, 0.25, 65504} {
			body = binary.LittleEndian.AppendUint16(body, float16.New(v).Uint16())
		}
		s := tmFloat(0)
		s.shape, s.strides, s.body = []int64{2, 2}, []int64{4, 2}, body
		add(tmCase{name: "float16", spec: s, valueType: arrow.FixedWidthTypes.Float16,
			physShape: []int{2, 2}, logShape: []int{2, 2}, values: []string{"1.5", "-2", "0.25", "65504"}})
	}
	// Strided: numpy x = arange(24, dtype=int32).reshape(4, 6);
	// y = x[::2, ::3] has shape (2, 2), strides (48, 12) over x's 96 bytes:
	// gathered row-major.
	{
		s := tmInt(32, true)
		vals := make([]int32, 24)
		for k := range vals {
			vals[k] = int32(k)
		}
		s.shape, s.strides, s.body = []int64{2, 2}, []int64{48, 12}, bytes.Join(le(vals...), nil)
		add(tmCase{name: "strided gaps", spec: s, valueType: arrow.PrimitiveTypes.Int32,
			physShape: []int{2, 2}, logShape: []int{2, 2}, values: []string{"0", "3", "12", "15"}})
		// Broadcast: numpy.broadcast_to(array([5, 6]), (3, 2)): strides (0, 4).
		s.shape, s.strides, s.body = []int64{3, 2}, []int64{0, 4}, bytes.Join(le(int32(5), 6), nil)
		s.names = []string{"n", "m"}
		add(tmCase{name: "broadcast", spec: s, valueType: arrow.PrimitiveTypes.Int32,
			physShape: []int{3, 2}, physNames: []string{"n", "m"}, logShape: []int{3, 2},
			logNames: []string{"n", "m"}, values: []string{"5", "6", "5", "6", "5", "6"}})
		// Column-major with a gap between columns (a slice of a Fortran
		// array): strides (4, 16) for shape (3, 2): gathered.
		s.names = nil
		s.shape, s.strides = []int64{3, 2}, []int64{4, 16}
		s.body = bytes.Join(le(int32(1), 2, 3, -1, 4, 5, 6), nil)
		add(tmCase{name: "strided Fortran with gap", spec: s, valueType: arrow.PrimitiveTypes.Int32,
			physShape: []int{3, 2}, logShape: []int{3, 2}, values: []string{"1", "4", "2", "5", "3", "6"}})
		// Unaligned strides (3 bytes apart for int16) are bytes like any.
		s = tmInt(16, false)
		s.shape, s.strides, s.body = []int64{3}, []int64{3}, []byte{1, 0, 9, 2, 0, 9, 3, 0}
		add(tmCase{name: "unaligned stride", spec: s, valueType: arrow.PrimitiveTypes.Uint16,
			physShape: []int{3}, logShape: []int{3}, values: []string{"1", "2", "3"}})
	}
	// Size-1 dimensions: their strides are ignored (numpy writes anything).
	{
		shape := []int64{3, 1, 4}
		vals := make([]float32, 12)
		for k := range vals {
			vals[k] = float32(k) / 4
		}
		s := tmFloat(1)
		s.shape, s.strides = shape, fStrides(shape, 4) // (4, 12, 12)
		s.body = place(48, shape, s.strides, le(vals...))
		add(tmCase{name: "Fortran with a size-1 dim", spec: s, valueType: arrow.PrimitiveTypes.Float32,
			physShape: []int{4, 1, 3}, perm: []int{2, 1, 0}, logShape: []int{3, 1, 4}, values: strs(vals...)})
		s.strides = []int64{16, -7, 4}
		s.body = place(48, shape, cStrides(shape, 4), le(vals...))
		add(tmCase{name: "C order, size-1 dim with a negative stride", spec: s, valueType: arrow.PrimitiveTypes.Float32,
			physShape: []int{3, 1, 4}, logShape: []int{3, 1, 4}, values: strs(vals...)})
	}
	// A scalar (0-D); row-major without a strides vector; without a data
	// struct (the whole body); the legacy prefix.
	{
		s := tmInt(64, true)
		s.shape, s.strides, s.body = []int64{}, []int64{}, bytes.Join(le(int64(-42)), nil)
		add(tmCase{name: "0-D", spec: s, valueType: arrow.PrimitiveTypes.Int64,
			physShape: []int{}, logShape: []int{}, values: []string{"-42"}})
		s.shape, s.noStrides, s.body = []int64{2, 1}, true, bytes.Join(le(int64(1), 2), nil)
		add(tmCase{name: "no strides", spec: s, valueType: arrow.PrimitiveTypes.Int64,
			physShape: []int{2, 1}, logShape: []int{2, 1}, values: []string{"1", "2"}})
		s.noData = true
		add(tmCase{name: "no data struct", spec: s, valueType: arrow.PrimitiveTypes.Int64,
			physShape: []int{2, 1}, logShape: []int{2, 1}, values: []string{"1", "2"}})
		s.legacy = true
		add(tmCase{name: "legacy prefix", spec: s, valueType: arrow.PrimitiveTypes.Int64,
			physShape: []int{2, 1}, logShape: []int{2, 1}, values: []string{"1", "2"}})
		// Data at an offset in a larger body.
		s = tmInt(32, true)
		s.shape, s.strides = []int64{2}, []int64{4}
		s.body = bytes.Join(le(int32(9), 9, 10, 11, 9), nil)
		s.data = &[2]int64{8, 8}
		add(tmCase{name: "data at an offset", spec: s, valueType: arrow.PrimitiveTypes.Int32,
			physShape: []int{2}, logShape: []int{2}, values: []string{"10", "11"}})
	}
	// The message of hostile_test.go's TestTensorMessage: int64 [1, 2, 3].
	add(tmCase{name: "hostile_test tensorMessage", file: tensorMessage(4), valueType: arrow.PrimitiveTypes.Int64,
		physShape: []int{3}, logShape: []int{3}, values: []string{"1", "2", "3"}})

	// Errors.
	base := func() tmSpec { // int32 [2,3] C order
		s := tmInt(32, true)
		s.shape, s.strides = []int64{2, 3}, []int64{12, 4}
		s.body = bytes.Join(le(int32(1), 2, 3, 4, 5, 6), nil)
		return s
	}
	bad := func(name, want string, edit func(*tmSpec)) {
		s := base()
		edit(&s)
		add(tmCase{name: name, spec: s, wantErr: want})
	}
	i64 := func(v int64) *int64 { return &v }
	bad("sparse tensor", "an Arrow IPC SparseTensor message (pyarrow.ipc.write_sparse_tensor): tensorview does not read sparse tensors",
		func(s *tmSpec) { s.header = 5 })
	cases[len(cases)-1].wantSentinel = errSparseTensorMessage
	bad("shape overflow", "overflows a 64-bit integer", func(s *tmSpec) { s.shape = []int64{1 << 40, 1 << 40}; s.strides = []int64{0, 0} })
	bad("too many elements", "holds at most 2147483647", func(s *tmSpec) { s.shape = []int64{1 << 31}; s.strides = []int64{0} })
	bad("negative size", "dimension 1 has size -3", func(s *tmSpec) { s.shape = []int64{2, -3} })
	bad("no elements", "holds no elements", func(s *tmSpec) { s.shape = []int64{2, 0} })
	bad("too many dims", "at most 64", func(s *tmSpec) { s.shape = make([]int64, 65); s.strides = make([]int64, 65) })
	bad("data out of body", "is not inside its 24-byte body", func(s *tmSpec) { s.data = &[2]int64{8, 24} })
	bad("negative data offset", "is not inside", func(s *tmSpec) { s.data = &[2]int64{-8, 8} })
	bad("huge data length", "is not inside", func(s *tmSpec) { s.data = &[2]int64{8, math.MaxInt64} })
	bad("body past the end", "runs past the end of the file", func(s *tmSpec) { s.bodyLen = i64(25) })
	bad("64 GiB body in a small file", "runs past the end of the file", func(s *tmSpec) {
		s.shape, s.strides, s.bodyLen, s.data = []int64{8 << 30}, []int64{8}, i64(64<<30), &[2]int64{0, 64 << 30}
	})
	bad("negative body length", "runs past the end of the file", func(s *tmSpec) { s.bodyLen = i64(-1) })
	bad("negative stride", "dimension 0 has stride -12; strides are non-negative byte offsets (Tensor.fbs)", func(s *tmSpec) { s.strides = []int64{-12, 4} })
	bad("stride past data", "reach past its 24-byte data buffer", func(s *tmSpec) { s.strides = []int64{100, 4} })
	bad("huge stride", "reach past", func(s *tmSpec) { s.strides = []int64{math.MaxInt64, 4} })
	bad("strides count", "2 strides for 3 dimensions", func(s *tmSpec) { s.shape = []int64{2, 3, 1} })
	bad("contiguous but data too long", "data buffer holds 32 bytes; shape [2,3] of int32 needs 24", func(s *tmSpec) {
		s.body = append(s.body, make([]byte, 8)...)
	})
	bad("no strides, data too short", "data buffer holds 20 bytes", func(s *tmSpec) { s.noStrides = true; s.data = &[2]int64{0, 20} })
	bad("data shorter than a value", "less than one int32 value", func(s *tmSpec) { s.data = &[2]int64{0, 2} })
	bad("16 GiB broadcast", "needs more memory than the cache budget (256.0 MiB) allows: it declares 16.0 GiB", func(s *tmSpec) {
		s.typeType, s.precision = 3, 2 // float64: (2^31-1) × 8 bytes from 8 bytes
		s.shape, s.strides, s.body = []int64{math.MaxInt32}, []int64{0}, make([]byte, 8)
	})
	bad("utf8 values", "its value type is Utf8", func(s *tmSpec) { s.typeType = 5 })
	bad("bool values", "its value type is Bool", func(s *tmSpec) { s.typeType = 6 })
	bad("unknown type", "unknown type 99", func(s *tmSpec) { s.typeType = 99 })
	bad("int of 12 bits", "an integer of 12 bits", func(s *tmSpec) { s.bitWidth = 12 })
	bad("float precision 7", "unknown precision 7", func(s *tmSpec) { s.typeType, s.precision = 3, 7 })
	bad("no type", "declares no value type", func(s *tmSpec) { s.noType = true })
	return cases
}

// tensorValues returns the logical view of the batch's tensor and its
// elements as text (row-major).
func tensorValues(t testing.TB, rec arrow.RecordBatch) (*tensorext.FixedShapeTensorType, tensorext.Tensor, []string) {
	t.Helper()
	if rec.NumRows() != 1 || rec.NumCols() != 1 || rec.Schema().Field(0).Name != "tensor" {
		t.Fatalf("batch: %d rows, %d columns, schema %v", rec.NumRows(), rec.NumCols(), rec.Schema())
	}
	col, ok := rec.Column(0).(*tensorext.FixedShapeTensorArray)
	if !ok {
		t.Fatalf("column is %T", rec.Column(0))
	}
	if err := validateArray(col); err != nil {
		t.Fatalf("validateArray: %v", err)
	}
	if err := col.ValidateFull(); err != nil {
		t.Fatalf("ValidateFull: %v", err)
	}
	tt, err := col.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	lg := tt.Logical()
	var got []string
	lg.Positions(func(pos int) bool {
		got = append(got, lg.ValueStr(pos))
		if _, ok := lg.Float64(pos); !ok {
			t.Errorf("element at %d is not numeric", pos)
		}
		return true
	})
	return col.TensorType(), lg, got
}

func TestReadTensorMessage(t *testing.T) {
	for _, c := range tmCases() {
		t.Run(c.name, func(t *testing.T) {
			data := c.file
			if data == nil {
				data = c.spec.file()
			}
			rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 0)
			if c.wantErr != "" {
				if err == nil {
					rec.Release()
					t.Fatalf("no error, want %q", c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) || errors.Is(err, ErrPanic) {
					t.Fatalf("error %q, want %q", err, c.wantErr)
				}
				if c.wantSentinel != nil && !errors.Is(err, c.wantSentinel) {
					t.Fatalf("error %v is not %v", err, c.wantSentinel)
				}
				if c.wantSentinel == nil && !strings.HasPrefix(err.Error(), "cannot read the Arrow IPC Tensor message (pyarrow.ipc.write_tensor): ") {
					t.Errorf("error %q does not say what it is about", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Release()
			typ, lg, got := tensorValues(t, rec)
			if !arrow.TypeEqual(typ.ValueType(), c.valueType) {
				t.Errorf("value type %v, want %v", typ.ValueType(), c.valueType)
			}
			if !slices.Equal(typ.Shape(), c.physShape) || !slices.Equal(typ.Permutation(), c.perm) || !slices.Equal(typ.DimNames(), c.physNames) {
				t.Errorf("type %v: shape %v permutation %v dim_names %q, want %v %v %q",
					typ, typ.Shape(), typ.Permutation(), typ.DimNames(), c.physShape, c.perm, c.physNames)
			}
			if !slices.Equal(lg.Shape, c.logShape) || !slices.Equal(lg.DimNames, c.logNames) {
				t.Errorf("logical shape %v dim names %q, want %v %q", lg.Shape, lg.DimNames, c.logShape, c.logNames)
			}
			if !slices.Equal(got, c.values) {
				t.Errorf("logical values\n%v\nwant\n%v", got, c.values)
			}
			// A contiguous layout shares the file's bytes: no copy, no
			// permutation needed to read them in memory order.
			if c.perm != nil && typ.Permutation() == nil {
				t.Errorf("no permutation")
			}
		})
	}
}

// TestTensorMessageExact reads single elements of the int32 C-order and
// float64 Fortran-order tensors by index through the logical view.
func TestTensorMessageExact(t *testing.T) {
	cases := tmCases()
	get := func(name string) tmCase {
		for _, c := range cases {
			if c.name == name {
				return c
			}
		}
		t.Fatalf("no case %q", name)
		return tmCase{}
	}
	check := func(name string, want map[[3]int]string, ndim int) {
		c := get(name)
		data := c.spec.file()
		rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		_, lg, _ := tensorValues(t, rec)
		for idx, v := range want {
			pos, ok := lg.Pos(idx[:ndim]...)
			if !ok || lg.ValueStr(pos) != v {
				t.Errorf("%s%v = %q (%v), want %s", name, idx[:ndim], lg.ValueStr(pos), ok, v)
			}
		}
	}
	// int32 C order [2,3,4]: x[i,j,k] = (12i+4j+k)*7-30.
	check("int32 C order", map[[3]int]string{{0, 0, 0}: "-30", {0, 0, 1}: "-23", {0, 1, 0}: "-2", {1, 0, 0}: "54", {1, 2, 3}: "131"}, 3)
	// numpy: a = np.asfortranarray(np.arange(12.).reshape(3, 4) * 1.5);
	// a[0, 1] == 1.5, a[1, 0] == 6.0, a[2, 3] == 16.5.
	check("float64 Fortran order", map[[3]int]string{{0, 1}: "1.5", {1, 0}: "6", {2, 3}: "16.5", {2, 0}: "12"}, 2)
}

// TestTensorMessageNotTensor: files that are not Tensor messages give
// errNotTensorMessage, so the caller reads them as streams.
func TestTensorMessageNotTensor(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	var stream, file bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	fw, err := ipc.NewFileWriter(&file, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	inputs := map[string][]byte{
		"stream":         stream.Bytes(),
		"file":           file.Bytes(),
		"empty":          nil,
		"short":          {0xFF, 0xFF, 0xFF, 0xFF},
		"eos":            {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0},
		"metadata large": {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0},
		"bad root":       append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 8, 0, 0, 0}, 0xF0, 0xFF, 0, 0, 0, 0, 0, 0),
		"text":           []byte("hello, world, this is not arrow"),
	}
	for name, data := range inputs {
		rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 0)
		if !errors.Is(err, errNotTensorMessage) {
			if rec != nil {
				rec.Release()
			}
			t.Errorf("%s: %v, want errNotTensorMessage", name, err)
		}
	}
}

// TestTensorMessageBudget: the values must fit the budget; the error names
// the sizes and wraps ErrTooLarge.
func TestTensorMessageBudget(t *testing.T) {
	c := tmCases()[0] // int32 [2,3,4]: 96 bytes
	data := c.spec.file()
	if rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 96); err != nil {
		t.Fatal(err)
	} else {
		rec.Release()
	}
	_, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 95)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "96 B") || !strings.Contains(err.Error(), "95 B") {
		t.Fatalf("%v", err)
	}
	// A gathered tensor reads the bytes its strides reach (48+12+4) and
	// writes the copy (16).
	s := tmInt(32, true)
	s.shape, s.strides, s.body = []int64{2, 2}, []int64{48, 12}, make([]byte, 96)
	data = s.file()
	if _, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 79); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("gather within 79 bytes: %v", err)
	}
	if rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), 80); err != nil {
		t.Fatal(err)
	} else {
		rec.Release()
	}
}

// TestTensorMessageTruncated: every prefix of a Tensor message file is an
// error (errNotTensorMessage while the metadata is incomplete), never a
// panic or a batch.
func TestTensorMessageTruncated(t *testing.T) {
	for _, c := range tmCases() {
		if c.wantErr != "" {
			continue
		}
		data := c.file
		if data == nil {
			data = c.spec.file()
		}
		for n := range len(data) {
			rec, err := readTensorMessage(bytes.NewReader(data[:n]), int64(n), 0)
			if err == nil {
				rec.Release()
				t.Fatalf("%s cut at %d of %d: no error", c.name, n, len(data))
			}
			if errors.Is(err, ErrPanic) {
				t.Fatalf("%s cut at %d: %v", c.name, n, err)
			}
			if n >= len(data)-len(c.spec.body) && c.file == nil && !strings.Contains(err.Error(), "runs past the end of the file") {
				t.Errorf("%s cut at %d in the body: %v", c.name, n, err)
			}
		}
	}
}

// TestTensorMessageFlips flips every byte of the metadata of a few files:
// errors or batches whose values read, never a panic.
func TestTensorMessageFlips(t *testing.T) {
	for _, c := range tmCases()[:4] {
		data := c.spec.file()
		meta := len(data) - len(c.spec.body)
		for k := range meta {
			for _, v := range []byte{0, 0xFF, data[k] ^ 0x80, data[k] + 1} {
				mut := slices.Clone(data)
				mut[k] = v
				checkTensorMessage(t, mut, 1<<20)
			}
		}
	}
}

// checkTensorMessage reads data and, when it gives a batch, every element
// of its tensor.
func checkTensorMessage(t testing.TB, data []byte, budget int64) {
	rec, err := readTensorMessage(bytes.NewReader(data), int64(len(data)), budget)
	if err != nil {
		if errors.Is(err, ErrPanic) {
			t.Fatalf("% x: %v", data, err)
		}
		return
	}
	defer rec.Release()
	_, lg, got := tensorValues(t, rec)
	if len(got) != lg.Len() {
		t.Fatalf("%d values for shape %v", len(got), lg.Shape)
	}
	for _, s := range got {
		if s == "" || s == "(null)" {
			t.Fatalf("value %q", s)
		}
	}
}

// FuzzTensorMessage: readTensorMessage never panics, and any batch it
// returns holds a tensor whose every element reads. Seeds: the files of
// TestReadTensorMessage (good and bad).
func FuzzTensorMessage(f *testing.F) {
	for _, c := range tmCases() {
		data := c.file
		if data == nil {
			data = c.spec.file()
		}
		f.Add(data)
	}
	f.Add(tensorMessage(5))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkTensorMessage(t, data, 1<<20)
	})
}

// TestJSTensorMessage reads testdata/js_tensor_message.arrow, a Tensor
// message written by testdata/gen_tensor_message.mjs with npm's flatbuffers
// (not by this package's test builder): a column-major uint8 image of shape
// (H, W, C) = (4, 6, 3) whose element (h, w, c) is (40h + 20w + 90c + 7) mod
// 256. It opens as physical [3,6,4] (C,W,H), permutation [2,1,0], logical
// [4,6,3] (H,W,C), every element as written.
func TestJSTensorMessage(t *testing.T) {
	data, err := os.ReadFile("../../testdata/js_tensor_message.arrow")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open("js_tensor_message.arrow", data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tn, err := f.Tensor(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != IPCTensor || !slices.Equal(tn.Shape, []int{3, 6, 4}) || !slices.Equal(tn.Permutation, []int{2, 1, 0}) ||
		!slices.Equal(tn.DimNames, []string{"C", "W", "H"}) || !slices.Equal(tn.LogicalShape(), []int{4, 6, 3}) {
		t.Fatalf("%s: shape %v, permutation %v, dim_names %v, logical shape %v", f.Format, tn.Shape, tn.Permutation, tn.DimNames, tn.LogicalShape())
	}
	l := tn.Logical()
	for h := range 4 {
		for w := range 6 {
			for c := range 3 {
				pos, ok := l.Pos(h, w, c)
				if want := strconv.Itoa((40*h + 20*w + 90*c + 7) % 256); !ok || l.ValueStr(pos) != want {
					t.Errorf("(%d,%d,%d) = %s, want %s", h, w, c, l.ValueStr(pos), want)
				}
			}
		}
	}
}
