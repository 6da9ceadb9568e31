package flatbuf

import (
	"encoding/binary"
	"errors"
)

// ErrMalformed is the error of an offset or length that points outside
// the buffer. Its text names IPC metadata, the only flatbuffers tensorview
// reads.
var ErrMalformed = errors.New("malformed IPC metadata (a flatbuffer offset or length points outside it)")

// ErrTooManyTables is the error of a buffer from which more than MaxTables
// tables are reached: deeply nested or cyclic input.
var ErrTooManyTables = errors.New("malformed IPC metadata (too many tables)")

// MaxTables bounds the tables reached from one Root (by TableAt,
// TableField, VectorTable and Tables together).
const MaxTables = 1 << 20

// buffer is one flatbuffer and the tables reached in it so far.
type buffer struct {
	b      []byte
	tables int
}

// Table is a flatbuffer table whose vtable lies in the buffer. Its methods
// take field numbers (0 for the first field of the
// table in its .fbs file; a union takes two: its _type byte, then its
// value) and check that each field they read lies in the buffer. The zero
// Table is not usable; Tables come from Root and from the methods that
// reach other tables.
//
// A field is checked against the buffer, not against the table's inline
// size its vtable records: writers share one vtable between tables whose
// fields have the same offsets (the Go builder compares the offsets only),
// so that size may be another table's. The flatbuffers verifier checks the
// same (a field within the buffer).
type Table struct {
	buf   *buffer
	pos   int // the table's position in the buffer
	vt    int // its vtable's
	vtLen int // the vtable's length in bytes
}

func (b *buffer) u16(at int) int { return int(binary.LittleEndian.Uint16(b.b[at:])) }

// table checks the table at pos: its offset to its vtable and the vtable
// lie in the buffer.
func (b *buffer) table(pos int) (Table, error) {
	if b.tables++; b.tables > MaxTables {
		return Table{}, ErrTooManyTables
	}
	if pos < 0 || pos+4 > len(b.b) {
		return Table{}, ErrMalformed
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(b.b[pos:])))
	if vt < 0 || vt+4 > len(b.b) {
		return Table{}, ErrMalformed
	}
	t := Table{buf: b, pos: pos, vt: vt, vtLen: b.u16(vt)}
	if t.vtLen < 4 || t.vtLen%2 != 0 || vt+t.vtLen > len(b.b) {
		return Table{}, ErrMalformed
	}
	return t, nil
}

// Root returns the root table of the flatbuffer b (the table its first
// uoffset refers to). It returns ErrMalformed when b is shorter than 4
// bytes or the table or its vtable does not lie in b.
//
// Root is small enough to be inlined, so that where the tables read do not
// outlive the caller the buffer's record stays on its stack.
func Root(b []byte) (Table, error) {
	buf := &buffer{b: b}
	return buf.root()
}

func (b *buffer) root() (Table, error) {
	if len(b.b) < 4 {
		return Table{}, ErrMalformed
	}
	return b.table(int(binary.LittleEndian.Uint32(b.b)))
}

// Bytes returns the whole buffer t lies in. Positions the methods return
// are in it, checked to hold what they were asked for.
func (t Table) Bytes() []byte { return t.buf.b }

// TableAt checks the table at position pos of t's buffer (a position from
// Ref) and returns it.
func (t Table) TableAt(pos int) (Table, error) {
	return t.buf.table(pos)
}

// off is field i's offset in the table, 0 when absent.
func (t Table) off(i int) int {
	at := 4 + 2*i
	if at+2 > t.vtLen {
		return 0
	}
	return t.buf.u16(t.vt + at)
}

// fits reports whether n bytes at offset o of the table lie in the buffer.
func (t Table) fits(o, n int) bool { return t.pos+o+n <= len(t.buf.b) }

// scalar checks that field i, when present, holds n bytes in the buffer.
func (t Table) scalar(i, n int) error {
	if o := t.off(i); o != 0 && !t.fits(o, n) {
		return ErrMalformed
	}
	return nil
}

// Scalars checks that the inline fields 0, 1, … hold, when present,
// sizes[0], sizes[1], … bytes within the buffer; a size of 0 skips a field
// (a reference, or one not checked).
func (t Table) Scalars(sizes ...int) error {
	for i, n := range sizes {
		if n > 0 {
			if err := t.scalar(i, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// Inline checks that inline field i (a scalar or a struct, such as
// Message.fbs's Buffer), when present, holds n bytes within the buffer, and
// returns its position in the buffer; ok is false when it is absent.
func (t Table) Inline(i, n int) (pos int, ok bool, err error) {
	o := t.off(i)
	if o == 0 {
		return 0, false, nil
	}
	if !t.fits(o, n) {
		return 0, false, ErrMalformed
	}
	return t.pos + o, true, nil
}

// Uint8 returns the byte field i (a ubyte, bool or union _type field), 0
// when absent, or ErrMalformed when it lies outside the buffer.
func (t Table) Uint8(i int) (int, error) {
	if err := t.scalar(i, 1); err != nil {
		return 0, err
	}
	if o := t.off(i); o != 0 {
		return int(t.buf.b[t.pos+o]), nil
	}
	return 0, nil
}

// Int16 returns the signed 16-bit field i (a short, or an enum of type
// short) and whether it is present within the buffer; one that runs past
// the buffer reads as absent (Scalars tells it from absent).
func (t Table) Int16(i int) (int, bool) {
	if o := t.off(i); o != 0 && t.fits(o, 2) {
		return int(int16(binary.LittleEndian.Uint16(t.buf.b[t.pos+o:]))), true
	}
	return 0, false
}

// Int32 returns the signed 32-bit field i (an int) and whether it is
// present within the buffer; one that runs past the table reads as absent
// (Scalars tells it from absent).
func (t Table) Int32(i int) (int, bool) {
	if o := t.off(i); o != 0 && t.fits(o, 4) {
		return int(int32(binary.LittleEndian.Uint32(t.buf.b[t.pos+o:]))), true
	}
	return 0, false
}

// Int64 returns the signed 64-bit field i (a long), 0 when absent, or
// ErrMalformed when it lies outside the buffer.
func (t Table) Int64(i int) (int64, error) {
	o := t.off(i)
	if o == 0 {
		return 0, nil
	}
	if !t.fits(o, 8) {
		return 0, ErrMalformed
	}
	return int64(binary.LittleEndian.Uint64(t.buf.b[t.pos+o:])), nil
}

// Ref returns the position in the buffer that reference field i (a table,
// string or vector) refers to, with at least 4 bytes there; ok is false
// when the field is absent. The target itself is not checked: TableAt
// checks a table, Vector a vector.
func (t Table) Ref(i int) (pos int, ok bool, err error) {
	o := t.off(i)
	if o == 0 {
		return 0, false, nil
	}
	if !t.fits(o, 4) {
		return 0, false, ErrMalformed
	}
	p := t.pos + o
	pos = p + int(binary.LittleEndian.Uint32(t.buf.b[p:]))
	if pos < 0 || pos+4 > len(t.buf.b) {
		return 0, false, ErrMalformed
	}
	return pos, true, nil
}

// TableField checks table field i and returns it; ok is false when the
// field is absent.
func (t Table) TableField(i int) (Table, bool, error) {
	at, ok, err := t.Ref(i)
	if !ok || err != nil {
		return Table{}, false, err
	}
	s, err := t.buf.table(at)
	if err != nil {
		return Table{}, false, err
	}
	return s, true, nil
}

// Vector checks vector field i whose elements are elemSize bytes each (a
// string is a vector of 1-byte elements; a vector of tables, of 4-byte
// uoffsets) and returns the position of its first element in the buffer
// and its length; 0, 0 when absent.
func (t Table) Vector(i, elemSize int) (start, n int, err error) {
	at, ok, err := t.Ref(i)
	if !ok || err != nil {
		return 0, 0, err
	}
	n = int(binary.LittleEndian.Uint32(t.buf.b[at:]))
	if int64(at)+4+int64(n)*int64(elemSize) > int64(len(t.buf.b)) {
		return 0, 0, ErrMalformed
	}
	return at + 4, n, nil
}

// String returns the bytes of string field i, "" when absent.
func (t Table) String(i int) (string, error) {
	start, n, err := t.Vector(i, 1)
	if err != nil {
		return "", err
	}
	return string(t.buf.b[start : start+n]), nil
}

// VectorTable checks element k of a vector of tables whose elements start
// at start (as Vector(i, 4) returned it, with k below its length) and
// returns it.
func (t Table) VectorTable(start, k int) (Table, error) {
	p := start + 4*k
	if p < 0 || p+4 > len(t.buf.b) {
		return Table{}, ErrMalformed
	}
	return t.buf.table(p + int(binary.LittleEndian.Uint32(t.buf.b[p:])))
}

// Tables calls fn with each table of vector field i (a vector of tables),
// in order, checked, and stops at fn's first error. An absent vector has
// no tables.
func (t Table) Tables(i int, fn func(k int, e Table) error) error {
	start, n, err := t.Vector(i, 4)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		e, err := t.VectorTable(start, k)
		if err != nil {
			return err
		}
		if err := fn(k, e); err != nil {
			return err
		}
	}
	return nil
}
