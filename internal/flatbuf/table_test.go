package flatbuf

import (
	"encoding/binary"
	"errors"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
)

// tensorMessage builds a Message flatbuffer with a Tensor header
// (Tensor.fbs): an Int {bitWidth: 16, is_signed}, shape [2 "rows", 3 ""],
// strides [6, 2], data {8, 12}.
func tensorMessage() []byte {
	b := flatbuffers.NewBuilder(256)
	rows, empty := b.CreateString("rows"), b.CreateString("")
	dims := make([]flatbuffers.UOffsetT, 2)
	for k, d := range []struct {
		size int64
		name flatbuffers.UOffsetT
	}{{2, rows}, {3, empty}} {
		b.StartObject(2) // TensorDim {size: long; name: string}
		b.PrependInt64Slot(0, d.size, 0)
		b.PrependUOffsetTSlot(1, d.name, 0)
		dims[k] = b.EndObject()
	}
	b.StartVector(4, 2, 4)
	b.PrependUOffsetT(dims[1])
	b.PrependUOffsetT(dims[0])
	shape := b.EndVector(2)
	b.StartVector(8, 2, 8)
	b.PrependInt64(2)
	b.PrependInt64(6)
	strides := b.EndVector(2)
	b.StartObject(2) // Int {bitWidth: int; is_signed: bool}
	b.PrependInt32Slot(0, 16, 0)
	b.PrependBoolSlot(1, true, false)
	typ := b.EndObject()
	b.StartObject(5) // Tensor
	b.PrependByteSlot(0, 2, 0)
	b.PrependUOffsetTSlot(1, typ, 0)
	b.PrependUOffsetTSlot(2, shape, 0)
	b.PrependUOffsetTSlot(3, strides, 0)
	b.Prep(8, 16) // data: struct Buffer {offset: long; length: long}
	b.PrependInt64(12)
	b.PrependInt64(8)
	b.Slot(4)
	tensor := b.EndObject()
	b.StartObject(5) // Message
	b.PrependInt16Slot(0, 4, -1)
	b.PrependByteSlot(1, headerTensor, 0)
	b.PrependUOffsetTSlot(2, tensor, 0)
	b.PrependInt64Slot(3, 20, -1)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

// headerTensor is Message.fbs's MessageHeader Tensor.
const headerTensor = 4

// TestTable reads a Tensor message with Table, as app/decode does.
func TestTable(t *testing.T) {
	meta := tensorMessage()
	m, err := Root(meta)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Scalars(2, 1, 0, 8); err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Int16(0); !ok || v != 4 {
		t.Errorf("version %d %v, want 4", v, ok)
	}
	if k, err := m.Uint8(1); err != nil || k != headerTensor {
		t.Errorf("header_type %d %v, want %d", k, err, headerTensor)
	}
	if n, err := m.Int64(3); err != nil || n != 20 {
		t.Errorf("bodyLength %d %v, want 20", n, err)
	}
	if n, err := m.Int64(4); err != nil || n != 0 {
		t.Errorf("absent field: %d %v, want 0", n, err)
	}
	tensor, ok, err := m.TableField(2)
	if err != nil || !ok {
		t.Fatalf("TableField(2): %v %v", ok, err)
	}
	if _, ok, err := m.TableField(4); ok || err != nil {
		t.Errorf("absent TableField(4): %v %v", ok, err)
	}

	if k, _ := tensor.Uint8(0); k != 2 {
		t.Errorf("type_type %d, want 2 (Int)", k)
	}
	at, ok, err := tensor.Ref(1)
	if err != nil || !ok {
		t.Fatalf("Ref(1): %v %v", ok, err)
	}
	typ, err := tensor.TableAt(at)
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := typ.Int32(0); !ok || w != 16 {
		t.Errorf("bitWidth %d %v, want 16", w, ok)
	}

	start, n, err := tensor.Vector(2, 4)
	if err != nil || n != 2 {
		t.Fatalf("shape: %d %v", n, err)
	}
	for k, want := range []struct {
		size int64
		name string
	}{{2, "rows"}, {3, ""}} {
		dim, err := tensor.VectorTable(start, k)
		if err != nil {
			t.Fatal(err)
		}
		size, err := dim.Int64(0)
		s, l, err2 := dim.Vector(1, 1)
		if err != nil || err2 != nil || size != want.size || string(meta[s:s+l]) != want.name {
			t.Errorf("dimension %d: %d %q (%v, %v), want %d %q", k, size, meta[s:s+l], err, err2, want.size, want.name)
		}
	}
	start, n, err = tensor.Vector(3, 8)
	if err != nil || n != 2 || binary.LittleEndian.Uint64(meta[start:]) != 6 || binary.LittleEndian.Uint64(meta[start+8:]) != 2 {
		t.Errorf("strides: %d %v", n, err)
	}
	p, ok, err := tensor.Inline(4, 16)
	if err != nil || !ok || binary.LittleEndian.Uint64(meta[p:]) != 8 || binary.LittleEndian.Uint64(meta[p+8:]) != 12 {
		t.Errorf("data: %v %v", ok, err)
	}
	// One byte more than the buffer holds from the data struct on.
	past := len(meta) - tensor.pos - tensor.off(4) + 1
	if _, _, err := tensor.Inline(4, past); !errors.Is(err, ErrMalformed) {
		t.Errorf("Inline(4, %d): %v, want ErrMalformed", past, err)
	}
	if err := tensor.Scalars(1, 0, 0, 0, past); !errors.Is(err, ErrMalformed) {
		t.Errorf("Scalars(…, %d): %v, want ErrMalformed", past, err)
	}
	if _, ok := tensor.Int32(4); !ok {
		t.Errorf("Int32(4) of a 16-byte field: absent")
	}
	// A vector claimed longer than the buffer.
	if _, _, err := tensor.Vector(3, 1<<20); !errors.Is(err, ErrMalformed) {
		t.Errorf("Vector(3, 1<<20): %v, want ErrMalformed", err)
	}
	// A position outside the buffer.
	for _, pos := range []int{-1, len(meta) - 3, len(meta)} {
		if _, err := tensor.TableAt(pos); !errors.Is(err, ErrMalformed) {
			t.Errorf("TableAt(%d): %v, want ErrMalformed", pos, err)
		}
		if _, err := tensor.VectorTable(pos, 0); !errors.Is(err, ErrMalformed) {
			t.Errorf("VectorTable(%d, 0): %v, want ErrMalformed", pos, err)
		}
	}
}

// TestRoot: a buffer too short or whose root or vtable lies outside it.
func TestRoot(t *testing.T) {
	meta := tensorMessage()
	vtPast := append([]byte(nil), meta...)
	root := binary.LittleEndian.Uint32(meta)
	binary.LittleEndian.PutUint32(vtPast[root:], uint32(int32(-len(meta)))) // vtable after the end
	for name, b := range map[string][]byte{
		"nil":                  nil,
		"three bytes":          {4, 0, 0},
		"root past the end":    binary.LittleEndian.AppendUint32(nil, 1<<31),
		"root at the last two": binary.LittleEndian.AppendUint32([]byte{}, 2),
		"vtable past the end":  vtPast,
	} {
		if _, err := Root(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: Root: %v, want ErrMalformed", name, err)
		}
	}
}

// TestTooManyTables: a vector of a million and more references to one
// table is refused after MaxTables tables.
func TestTooManyTables(t *testing.T) {
	b := flatbuffers.NewBuilder(1 << 23)
	b.StartObject(1)
	leaf := b.EndObject()
	n := MaxTables + 1
	b.StartVector(4, n, 4)
	for k := 0; k < n; k++ {
		b.PrependUOffsetT(leaf)
	}
	vec := b.EndVector(n)
	b.StartObject(1)
	b.PrependUOffsetTSlot(0, vec, 0)
	b.Finish(b.EndObject())
	root, err := Root(b.FinishedBytes())
	if err != nil {
		t.Fatal(err)
	}
	err = root.Tables(0, func(int, Table) error { return nil })
	if !errors.Is(err, ErrTooManyTables) || err.Error() != "malformed IPC metadata (too many tables)" {
		t.Fatalf("tables: %v, want too many tables", err)
	}
}

// TestSharedVtable: the Go flatbuffers builder shares one vtable between
// tables whose fields have the same offsets, whatever their inline sizes
// (arrow-go's IPC metadata has such tables): a field past the inline size
// the shared vtable records, within the buffer, reads.
func TestSharedVtable(t *testing.T) {
	b := flatbuffers.NewBuilder(0)
	b.StartObject(1)
	b.PrependInt32Slot(0, 7, 0)
	small := b.EndObject()
	b.StartObject(1)
	b.PrependInt64Slot(0, 1<<40+3, 0)
	big := b.EndObject()
	b.StartVector(4, 2, 4)
	b.PrependUOffsetT(big)
	b.PrependUOffsetT(small)
	vec := b.EndVector(2)
	b.StartObject(1)
	b.PrependUOffsetTSlot(0, vec, 0)
	b.Finish(b.EndObject())
	root, err := Root(b.FinishedBytes())
	if err != nil {
		t.Fatal(err)
	}
	start, n, err := root.Vector(0, 4)
	if err != nil || n != 2 {
		t.Fatalf("vector: %d, %v", n, err)
	}
	s, err1 := root.VectorTable(start, 0)
	l, err2 := root.VectorTable(start, 1)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if s.vt != l.vt {
		t.Fatal("the builder did not share the vtable: the test proves nothing")
	}
	if v, ok := s.Int32(0); !ok || v != 7 {
		t.Errorf("the small table's int32: %d %v", v, ok)
	}
	if v, err := l.Int64(0); err != nil || v != 1<<40+3 {
		t.Errorf("the big table's int64 past the shared vtable's size: %d, %v", v, err)
	}
	if err := l.Scalars(8); err != nil {
		t.Errorf("Scalars(8): %v", err)
	}
}
