package inspect

// The .npy writer is this package's own rather than github.com/sbinet/npyio
// (v0.6.0, the newest version on the Go module proxy), because npyio's
// writer does not fit: it has no float16 ('<f2'); it takes Go values, so an
// n-D array must be a Go array of compile-time size or a gonum mat.Dense
// (float64, 2-D) built by copying (nested slices fail), where this writer
// streams the strided view directly; it always writes format version 2.0,
// with a header padding that leaves the data misaligned (offset 76 for a
// small float32 array, where numpy aligns to 64); and it would link gonum
// into the WebAssembly binary. The format is small (NEP 1,
// https://numpy.org/neps/nep-0001-npy-format.html, and numpy/lib/format.py)
// and this writer reproduces numpy.save's header byte for byte. The tests
// read every file back with npyio's reader (header and, for every dtype
// npyio has, the values) as well as with their own parser.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/tensorview/tensorview/tensorext"
)

// NPYDescr returns the NumPy dtype descr WriteNPY writes for an Arrow value
// type ('|u1', '<i2', '<f2', '|b1', ...) and whether the type is supported:
// the eight integer types, float16/32/64 and bool, little-endian, and types
// implementing tensorext.FloatType, written as the float32 or float64 they
// name ('<f4' for Lance's bfloat16, which NumPy lacks; NPYNote says so).
func NPYDescr(dt arrow.DataType) (string, bool) {
	if dt == nil {
		return "", false
	}
	switch dt := tensorext.StandardType(dt); dt.ID() {
	case arrow.BOOL:
		return "|b1", true
	case arrow.UINT8:
		return "|u1", true
	case arrow.INT8:
		return "|i1", true
	case arrow.UINT16:
		return "<u2", true
	case arrow.INT16:
		return "<i2", true
	case arrow.UINT32:
		return "<u4", true
	case arrow.INT32:
		return "<i4", true
	case arrow.UINT64:
		return "<u8", true
	case arrow.INT64:
		return "<i8", true
	case arrow.FLOAT16:
		return "<f2", true
	case arrow.FLOAT32:
		return "<f4", true
	case arrow.FLOAT64:
		return "<f8", true
	}
	return "", false
}

// NPYNote returns, for a value type WriteNPY writes as another dtype than
// its own (a tensorext.FloatType such as Lance's bfloat16), a sentence
// saying so for the person saving the file, for example
// "extension<lance.bfloat16> values are written as float32 ('<f4'), exactly:
// NumPy has no extension<lance.bfloat16> dtype"; "" for every other type.
func NPYNote(dt arrow.DataType) string {
	std := tensorext.StandardType(dt)
	if std == dt || std == nil {
		return ""
	}
	descr, ok := NPYDescr(std)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s values are written as %s ('%s'), exactly: NumPy has no %s dtype", dt, std, descr, dt)
}

// npyAlign is the alignment of the data numpy.save uses (ARRAY_ALIGN).
const npyAlign = 64

// WriteNPY writes t to w as a NumPy .npy file (format version 1.0, or 2.0
// when the header exceeds 65535 bytes, as numpy.save does), in t's logical
// order: the array written is t.Logical() — numpy.transpose(physical,
// Permutation) for a physical view with a permutation, t itself otherwise —
// with its shape, in C order, exact values, and dtype from NPYDescr. The
// header is built as current numpy.save builds it (numpy/lib/format.py):
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } followed by
// numpy's spare room for growing axis 0 and by spaces and a newline so that
// the data start at a multiple of 64 bytes. float16 bits and NaN payloads
// are copied unchanged. Values of a tensorext.FloatType (bfloat16) are
// converted exactly to the float32 or float64 it names, through
// tensorext.Float64Reader (NaNs stay NaN; their payload bits may not).
// (NumPy itself loads at most 64 dimensions, 32 before NumPy 2.)
//
// It returns an error, before writing anything, for a value type NPYDescr
// does not support, for a null element (NumPy arrays have no nulls; the
// error names the first null's logical index), or for a tensor whose
// strides reach outside its values; otherwise only w's errors.
func WriteNPY(w io.Writer, t tensorext.Tensor) error {
	if t.Values == nil || len(t.Strides) != len(t.Shape) || (t.Permutation != nil && len(t.Permutation) != len(t.Shape)) {
		return errors.New("inspect: malformed tensor (no values, or shape, strides and permutation of different lengths)")
	}
	descr, ok := NPYDescr(t.ValueType())
	if !ok {
		return fmt.Errorf("inspect: cannot write values of type %s to .npy; need an integer, float16/32/64 or bool type", t.ValueType())
	}
	l := t.Logical()
	if err := l.Check(); err != nil {
		return err
	}
	if idx, found := l.FirstNull(); found {
		return fmt.Errorf("inspect: element at index %s is null; NumPy arrays have no nulls", tensorext.FormatShape(idx))
	}
	if _, err := w.Write(npyHeader(descr, l.Shape)); err != nil {
		return err
	}
	switch a := l.Values.(type) {
	case *array.Uint8:
		return writeData(w, l, a.Uint8Values(), 1, func(b []byte, v uint8) { b[0] = v })
	case *array.Int8:
		return writeData(w, l, a.Int8Values(), 1, func(b []byte, v int8) { b[0] = byte(v) })
	case *array.Uint16:
		return writeData(w, l, a.Uint16Values(), 2, binary.LittleEndian.PutUint16)
	case *array.Int16:
		return writeData(w, l, a.Int16Values(), 2, func(b []byte, v int16) { binary.LittleEndian.PutUint16(b, uint16(v)) })
	case *array.Uint32:
		return writeData(w, l, a.Uint32Values(), 4, binary.LittleEndian.PutUint32)
	case *array.Int32:
		return writeData(w, l, a.Int32Values(), 4, func(b []byte, v int32) { binary.LittleEndian.PutUint32(b, uint32(v)) })
	case *array.Uint64:
		return writeData(w, l, a.Uint64Values(), 8, binary.LittleEndian.PutUint64)
	case *array.Int64:
		return writeData(w, l, a.Int64Values(), 8, func(b []byte, v int64) { binary.LittleEndian.PutUint64(b, uint64(v)) })
	case *array.Float16:
		return writeData(w, l, a.Values(), 2, func(b []byte, v float16.Num) { binary.LittleEndian.PutUint16(b, v.Uint16()) })
	case *array.Float32:
		return writeData(w, l, a.Float32Values(), 4, func(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) })
	case *array.Float64:
		return writeData(w, l, a.Float64Values(), 8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) })
	case *array.Boolean:
		return writeBool(w, l, boolOf(a))
	}
	if at, ok := tensorext.Float64Reader(l.Values); ok {
		switch descr {
		case "<f4":
			return writeFunc(w, l, at, 4, func(b []byte, v float64) { binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v))) })
		case "<f8":
			return writeFunc(w, l, at, 8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) })
		}
	}
	return fmt.Errorf("inspect: cannot write %T to .npy", l.Values)
}

// npyHeader returns magic, version, header length and the header dict,
// exactly as numpy/lib/format.py's _write_array_header and _wrap_header
// build them.
func npyHeader(descr string, shape []int) []byte {
	var h strings.Builder
	h.WriteString("{'descr': '" + descr + "', 'fortran_order': False, 'shape': ")
	h.WriteString(shapeRepr(shape))
	h.WriteString(", }")
	if len(shape) > 0 {
		// numpy's spare room for growing axis 0 (GROWTH_AXIS_MAX_DIGITS = 21)
		h.WriteString(strings.Repeat(" ", max(0, 21-len(strconv.Itoa(shape[0])))))
	}
	hlen := h.Len() + 1 // with the final newline
	major, prefix := byte(1), 6+2+2
	if pad := npyAlign - (prefix+hlen)%npyAlign; hlen+pad > math.MaxUint16 {
		major, prefix = 2, 6+2+4
	}
	pad := npyAlign - (prefix+hlen)%npyAlign // 1..64, as numpy pads
	out := make([]byte, 0, prefix+hlen+pad)
	out = append(out, "\x93NUMPY"...)
	out = append(out, major, 0)
	if major == 1 {
		out = binary.LittleEndian.AppendUint16(out, uint16(hlen+pad))
	} else {
		out = binary.LittleEndian.AppendUint32(out, uint32(hlen+pad))
	}
	out = append(out, h.String()...)
	for i := 0; i < pad; i++ {
		out = append(out, ' ')
	}
	return append(out, '\n')
}

// shapeRepr formats a shape as Python's repr of a tuple: (), (5,), (2, 3).
func shapeRepr(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return "(" + strconv.Itoa(shape[0]) + ",)"
	}
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = strconv.Itoa(d)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// npyChunk is the size of the buffer data is written through.
const npyChunk = 64 << 10

// npyWriter writes to w through a buffer of npyChunk bytes; err is the
// first error of w.
type npyWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func newNPYWriter(w io.Writer) *npyWriter {
	return &npyWriter{w: w, buf: make([]byte, 0, npyChunk)}
}

// next returns the size bytes to write the next element into, after
// writing out the buffer when they do not fit in it.
func (nw *npyWriter) next(size int) []byte {
	n := len(nw.buf)
	if n+size > cap(nw.buf) {
		_, nw.err = nw.w.Write(nw.buf)
		n = 0
	}
	nw.buf = nw.buf[:n+size]
	return nw.buf[n:]
}

// flush writes out what the buffer holds and returns the first error.
func (nw *npyWriter) flush() error {
	if nw.err == nil && len(nw.buf) > 0 {
		_, nw.err = nw.w.Write(nw.buf)
	}
	return nw.err
}

// writeData writes the elements of l in C order, size bytes each.
func writeData[T any](w io.Writer, l tensorext.Tensor, vals []T, size int, put func([]byte, T)) error {
	nw := newNPYWriter(w)
	l.Positions(func(pos int) bool {
		put(nw.next(size), vals[pos])
		return nw.err == nil
	})
	return nw.flush()
}

// writeFunc writes the elements of l in C order as read by at, size bytes
// each.
func writeFunc(w io.Writer, l tensorext.Tensor, at func(pos int) float64, size int, put func([]byte, float64)) error {
	nw := newNPYWriter(w)
	l.Positions(func(pos int) bool {
		put(nw.next(size), at(pos))
		return nw.err == nil
	})
	return nw.flush()
}

// writeBool writes booleans as bytes 0 and 1 in C order.
func writeBool(w io.Writer, l tensorext.Tensor, r boolReader) error {
	nw := newNPYWriter(w)
	l.Positions(func(pos int) bool {
		nw.next(1)[0] = byte(r.at(pos))
		return nw.err == nil
	})
	return nw.flush()
}
