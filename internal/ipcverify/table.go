package ipcverify

import (
	"encoding/binary"
	"errors"
)

// The flatbuffers binary format (flatbuffers.dev, "Internals"), as far as
// verification needs it:
//
//   - a buffer starts with a uoffset (uint32) to its root table;
//   - a table starts with a soffset (int32): its vtable is at the table's
//     position minus it;
//   - a vtable holds uint16s: its own length in bytes, the length of the
//     table's inline part, then per field (in .fbs declaration order, union
//     fields counting twice: the _type byte, then the value) the field's
//     offset in the table, 0 when absent;
//   - a reference field (table, string, vector) holds a uoffset from where it
//     is stored to its target; a string or vector starts with its uint32
//     length (a string's bytes follow, then a 0 byte); a vector of tables
//     holds one uoffset per element, each from where it is stored.
//
// Table reads such a buffer with every position checked, so that no offset
// or length in it makes a read leave the buffer.

// ErrFlatbuffer is the error of a flatbuffer offset or length that points
// outside the buffer (or of a table too short for the field it declares).
var ErrFlatbuffer = errors.New("malformed IPC metadata (a flatbuffer offset or length points outside it)")

// maxTables bounds the tables one verification (one Root and the tables
// reached from it) visits: deeply nested or cyclic input.
const maxTables = 1 << 20

// verifier is one buffer under verification and the tables it visited.
type verifier struct {
	buf   []byte
	steps int
}

// Table is a verified flatbuffer table: its vtable and its inline part lie
// in the buffer. Its methods take field numbers (0 for the first field of
// the table in its .fbs file) and check each field they read. The zero
// Table is not usable; Tables come from Root and from the methods that
// reach other tables.
type Table struct {
	v           *verifier
	pos, vt     int // the table's and its vtable's positions in the buffer
	vtLen, size int // the vtable's length and the table's inline size, in bytes
}

func (v *verifier) u16(at int) int { return int(binary.LittleEndian.Uint16(v.buf[at:])) }

// table verifies the table at pos: its vtable and inline part lie in the
// buffer.
func (v *verifier) table(pos int) (Table, error) {
	if v.steps++; v.steps > maxTables {
		return Table{}, errors.New("malformed IPC metadata (too many tables)")
	}
	if pos < 0 || pos+4 > len(v.buf) {
		return Table{}, ErrFlatbuffer
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(v.buf[pos:])))
	if vt < 0 || vt+4 > len(v.buf) {
		return Table{}, ErrFlatbuffer
	}
	t := Table{v: v, pos: pos, vt: vt, vtLen: v.u16(vt), size: v.u16(vt + 2)}
	if t.vtLen < 4 || t.vtLen%2 != 0 || vt+t.vtLen > len(v.buf) || t.size < 4 || pos+t.size > len(v.buf) {
		return Table{}, ErrFlatbuffer
	}
	return t, nil
}

// Root verifies the root table of the flatbuffer b (the table its first
// uoffset refers to). It returns ErrFlatbuffer when b is shorter than 4
// bytes or the table or its vtable does not lie in b.
func Root(b []byte) (Table, error) {
	if len(b) < 4 {
		return Table{}, ErrFlatbuffer
	}
	v := &verifier{buf: b}
	return v.table(int(binary.LittleEndian.Uint32(b)))
}

// TableAt verifies the table at position pos of t's buffer (a position
// from Ref) and returns it. It counts towards the tables one verification
// may visit.
func (t Table) TableAt(pos int) (Table, error) {
	return t.v.table(pos)
}

// off is field i's offset in the table, 0 when absent.
func (t Table) off(i int) int {
	at := 4 + 2*i
	if at+2 > t.vtLen {
		return 0
	}
	return t.v.u16(t.vt + at)
}

// scalar verifies that field i, when present, holds n bytes in the table.
func (t Table) scalar(i, n int) error {
	if o := t.off(i); o != 0 && o+n > t.size {
		return ErrFlatbuffer
	}
	return nil
}

// Scalars verifies that the inline fields 0, 1, … hold, when present,
// sizes[0], sizes[1], … bytes within the table; a size of 0 skips a field
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

// Inline verifies that inline field i (a scalar or a struct, such as
// Message.fbs's Buffer), when present, holds n bytes within the table, and
// returns its position in the buffer; ok is false when it is absent.
func (t Table) Inline(i, n int) (pos int, ok bool, err error) {
	o := t.off(i)
	if o == 0 {
		return 0, false, nil
	}
	if o+n > t.size {
		return 0, false, ErrFlatbuffer
	}
	return t.pos + o, true, nil
}

// Uint8 returns the byte field i (a ubyte, bool or union _type field), 0
// when absent, or ErrFlatbuffer when it lies outside the table.
func (t Table) Uint8(i int) (int, error) {
	if err := t.scalar(i, 1); err != nil {
		return 0, err
	}
	if o := t.off(i); o != 0 {
		return int(t.v.buf[t.pos+o]), nil
	}
	return 0, nil
}

// Int16 returns the signed 16-bit field i (a short, or an enum of type
// short) and whether it is present within the table; one that runs past
// the table reads as absent (Scalars tells it from absent).
func (t Table) Int16(i int) (int, bool) {
	if o := t.off(i); o != 0 && o+2 <= t.size {
		return int(int16(binary.LittleEndian.Uint16(t.v.buf[t.pos+o:]))), true
	}
	return 0, false
}

// Int32 returns the signed 32-bit field i (an int) and whether it is
// present within the table; one that runs past the table reads as absent
// (Scalars tells it from absent).
func (t Table) Int32(i int) (int, bool) {
	if o := t.off(i); o != 0 && o+4 <= t.size {
		return int(int32(binary.LittleEndian.Uint32(t.v.buf[t.pos+o:]))), true
	}
	return 0, false
}

// Int64 returns the signed 64-bit field i (a long), 0 when absent, or
// ErrFlatbuffer when it lies outside the table.
func (t Table) Int64(i int) (int64, error) {
	o := t.off(i)
	if o == 0 {
		return 0, nil
	}
	if o+8 > t.size {
		return 0, ErrFlatbuffer
	}
	return int64(binary.LittleEndian.Uint64(t.v.buf[t.pos+o:])), nil
}

// Ref returns the position in the buffer that reference field i (a table,
// string or vector) refers to, with at least 4 bytes there; ok is false
// when the field is absent. The target itself is not verified: TableAt
// verifies a table.
func (t Table) Ref(i int) (pos int, ok bool, err error) {
	o := t.off(i)
	if o == 0 {
		return 0, false, nil
	}
	if o+4 > t.size {
		return 0, false, ErrFlatbuffer
	}
	p := t.pos + o
	pos = p + int(binary.LittleEndian.Uint32(t.v.buf[p:]))
	if pos < 0 || pos+4 > len(t.v.buf) {
		return 0, false, ErrFlatbuffer
	}
	return pos, true, nil
}

// TableField verifies table field i and returns it; ok is false when the
// field is absent.
func (t Table) TableField(i int) (Table, bool, error) {
	at, ok, err := t.Ref(i)
	if !ok || err != nil {
		return Table{}, false, err
	}
	s, err := t.v.table(at)
	if err != nil {
		return Table{}, false, err
	}
	return s, true, nil
}

// Vector verifies vector field i whose elements are elemSize bytes each (a
// string is a vector of 1-byte elements; a vector of tables, of 4-byte
// uoffsets) and returns the position of its first element in the buffer
// and its length; 0, 0 when absent.
func (t Table) Vector(i, elemSize int) (start, n int, err error) {
	at, ok, err := t.Ref(i)
	if !ok || err != nil {
		return 0, 0, err
	}
	n = int(binary.LittleEndian.Uint32(t.v.buf[at:]))
	if int64(at)+4+int64(n)*int64(elemSize) > int64(len(t.v.buf)) {
		return 0, 0, ErrFlatbuffer
	}
	return at + 4, n, nil
}

// VectorTable verifies element k of a vector of tables whose elements
// start at start (as Vector(i, 4) returned it, with k below its length)
// and returns it.
func (t Table) VectorTable(start, k int) (Table, error) {
	p := start + 4*k
	if p < 0 || p+4 > len(t.v.buf) {
		return Table{}, ErrFlatbuffer
	}
	return t.v.table(p + int(binary.LittleEndian.Uint32(t.v.buf[p:])))
}

// str verifies string field i.
func (t Table) str(i int) error {
	_, _, err := t.Vector(i, 1)
	return err
}

// sub verifies table field i with check, when present.
func (t Table) sub(i int, check func(Table) error) error {
	s, ok, err := t.TableField(i)
	if !ok || err != nil {
		return err
	}
	return check(s)
}

// tables verifies vector field i of tables, each with check.
func (t Table) tables(i int, check func(Table) error) error {
	start, n, err := t.Vector(i, 4)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		s, err := t.VectorTable(start, k)
		if err != nil {
			return err
		}
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}
