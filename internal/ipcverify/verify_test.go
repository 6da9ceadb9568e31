package ipcverify

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/tensorview/tensorview/internal/flatbuf"
)

// recordBatchSpec describes a RecordBatch message (Message.fbs) for
// recordBatchMessage; dictionary wraps the RecordBatch in a DictionaryBatch.
type recordBatchSpec struct {
	buffers    int     // Buffer structs, all {0, 0}
	variadic   []int64 // variadicBufferCounts; nil: absent
	codec      int8    // BodyCompression.codec; -1: no compression table
	dictionary bool
}

// recordBatchMessage builds a Message flatbuffer of a RecordBatch (or a
// DictionaryBatch holding it) with flatbuffers' builder, as arrow-go's
// writer lays one out.
func recordBatchMessage(s recordBatchSpec) []byte {
	b := flatbuffers.NewBuilder(256)
	var counts flatbuffers.UOffsetT
	if s.variadic != nil {
		b.StartVector(8, len(s.variadic), 8)
		for k := len(s.variadic) - 1; k >= 0; k-- {
			b.PrependInt64(s.variadic[k])
		}
		counts = b.EndVector(len(s.variadic))
	}
	b.StartVector(16, s.buffers, 8) // struct Buffer {offset: long; length: long}
	for k := 0; k < s.buffers; k++ {
		b.PrependInt64(0)
		b.PrependInt64(0)
	}
	bufs := b.EndVector(s.buffers)
	var compression flatbuffers.UOffsetT
	if s.codec >= 0 {
		b.StartObject(2) // BodyCompression {codec: byte; method: byte}
		b.PrependInt8Slot(0, s.codec, -1)
		compression = b.EndObject()
	}
	b.StartObject(5)             // RecordBatch
	b.PrependInt64Slot(0, 1, -1) // length
	b.PrependUOffsetTSlot(2, bufs, 0)
	if s.codec >= 0 {
		b.PrependUOffsetTSlot(3, compression, 0)
	}
	if s.variadic != nil {
		b.PrependUOffsetTSlot(4, counts, 0)
	}
	header := b.EndObject()
	kind := byte(HeaderRecordBatch)
	if s.dictionary {
		b.StartObject(3) // DictionaryBatch {id: long; data: RecordBatch; isDelta: bool}
		b.PrependInt64Slot(0, 7, -1)
		b.PrependUOffsetTSlot(1, header, 0)
		header = b.EndObject()
		kind = HeaderDictionaryBatch
	}
	b.StartObject(5)             // Message
	b.PrependInt16Slot(0, 4, -1) // version: V5
	b.PrependByteSlot(1, kind, 0)
	b.PrependUOffsetTSlot(2, header, 0)
	b.PrependInt64Slot(3, 0, -1) // bodyLength
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

// TestVariadicBufferCounts: a record batch's variadic buffer counts (one
// per BinaryView or Utf8View column) are each at most its buffers; arrow-go
// sizes a slice by them.
func TestVariadicBufferCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec recordBatchSpec
		want string // "" for none
	}{
		{"absent", recordBatchSpec{buffers: 3, codec: -1}, ""},
		{"empty", recordBatchSpec{buffers: 3, variadic: []int64{}, codec: -1}, ""},
		{"zero", recordBatchSpec{buffers: 3, variadic: []int64{0}, codec: -1}, ""},
		{"all buffers", recordBatchSpec{buffers: 3, variadic: []int64{1, 3}, codec: -1}, ""},
		{"one more than the buffers", recordBatchSpec{buffers: 3, variadic: []int64{4}, codec: -1},
			"malformed IPC message: a variadic buffer count of 4 for 3 buffers"},
		{"the second of two", recordBatchSpec{buffers: 2, variadic: []int64{2, 5}, codec: -1},
			"malformed IPC message: a variadic buffer count of 5 for 2 buffers"},
		{"no buffers", recordBatchSpec{buffers: 0, variadic: []int64{1}, codec: -1},
			"malformed IPC message: a variadic buffer count of 1 for 0 buffers"},
		{"negative", recordBatchSpec{buffers: 3, variadic: []int64{-1}, codec: -1},
			"malformed IPC message: a variadic buffer count of -1 for 3 buffers"},
		{"huge", recordBatchSpec{buffers: 3, variadic: []int64{1 << 62}, codec: -1},
			"malformed IPC message: a variadic buffer count of 4611686018427387904 for 3 buffers"},
		{"in a dictionary batch", recordBatchSpec{buffers: 2, variadic: []int64{3}, codec: -1, dictionary: true},
			"malformed IPC message: a variadic buffer count of 3 for 2 buffers"},
		{"in a dictionary batch, within", recordBatchSpec{buffers: 2, variadic: []int64{2}, codec: -1, dictionary: true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Message(recordBatchMessage(tc.spec))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Message: %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Message: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestMessageErrors: what Message says of malformed messages.
func TestMessageErrors(t *testing.T) {
	good := recordBatchMessage(recordBatchSpec{buffers: 2, variadic: []int64{1}, codec: 1})
	if err := Message(good); err != nil {
		t.Fatalf("Message of a well-formed record batch: %v", err)
	}
	rootPast := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(rootPast, uint32(len(good)))
	noHeader := func(kind byte) []byte {
		b := flatbuffers.NewBuilder(64)
		b.StartObject(5)
		b.PrependInt16Slot(0, 4, -1)
		b.PrependByteSlot(1, kind, 0)
		b.Finish(b.EndObject())
		return b.FinishedBytes()
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
		flat bool // errors.Is(err, ErrFlatbuffer)
	}{
		{"empty", nil, ErrFlatbuffer.Error(), true},
		{"three bytes", good[:3], ErrFlatbuffer.Error(), true},
		{"root past the end", rootPast, ErrFlatbuffer.Error(), true},
		{"schema without header", noHeader(HeaderSchema), "malformed IPC message: a schema message without its header", false},
		{"dictionary batch without header", noHeader(HeaderDictionaryBatch), "malformed IPC message: a dictionary batch message without its header", false},
		{"record batch without header", noHeader(HeaderRecordBatch), "malformed IPC message: a record batch message without its header", false},
		{"tensor: not looked into", noHeader(HeaderTensor), "", false},
		{"compression codec 2", recordBatchMessage(recordBatchSpec{buffers: 1, codec: 2}), "malformed IPC message: compression codec 2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Message(tc.b)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Message: %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Message: %v, want %q", err, tc.want)
			}
			if errors.Is(err, ErrFlatbuffer) != tc.flat {
				t.Fatalf("errors.Is(%v, ErrFlatbuffer) = %v", err, !tc.flat)
			}
		})
	}
}

// TestBuffersVectorPastTheEnd: a vector length that runs past the metadata
// (what makes arrow-go allocate without bound) is ErrFlatbuffer.
func TestBuffersVectorPastTheEnd(t *testing.T) {
	b := recordBatchMessage(recordBatchSpec{buffers: 1, codec: -1})
	// The buffers vector is the only one: find its length (1) followed by
	// the one {0, 0} Buffer and make it claim a billion.
	at := bytes.Index(b, append([]byte{1, 0, 0, 0}, make([]byte, 16)...))
	if at < 0 {
		t.Fatal("buffers vector not found")
	}
	binary.LittleEndian.PutUint32(b[at:], 1<<30)
	if err := Message(b); !errors.Is(err, ErrFlatbuffer) {
		t.Fatalf("Message: %v, want ErrFlatbuffer", err)
	}
}

// ipcBytes writes a record batch of int64, string_view (with strings long
// enough for variadic data buffers) and dictionary-encoded string columns
// with arrow-go, as a stream and as a file.
func ipcBytes(t *testing.T) (stream, file []byte) {
	t.Helper()
	mem := memory.NewGoAllocator()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "view", Type: arrow.BinaryTypes.StringView, Nullable: true},
		{Name: "dict", Type: dictType},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32)},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	rb.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	rb.Field(1).(*array.StringViewBuilder).AppendValues([]string{"short", "a string longer than twelve bytes", ""}, []bool{true, true, false})
	db := rb.Field(2).(*array.BinaryDictionaryBuilder)
	for _, s := range []string{"x", "y", "x"} {
		if err := db.AppendString(s); err != nil {
			t.Fatal(err)
		}
	}
	lb := rb.Field(3).(*array.ListBuilder)
	for k := 0; k < 3; k++ {
		lb.Append(true)
		lb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, 2}, nil)
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()

	var s, f bytes.Buffer
	w := ipc.NewWriter(&s, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fw, err := ipc.NewFileWriter(&f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return s.Bytes(), f.Bytes()
}

// streamMessages splits an IPC stream into its messages' metadata (the
// Message flatbuffers), reading each body length with Table.
func streamMessages(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for p := 0; ; {
		if p+8 > len(b) || binary.LittleEndian.Uint32(b[p:]) != 0xFFFFFFFF {
			t.Fatalf("no continuation marker at %d", p)
		}
		size := int(binary.LittleEndian.Uint32(b[p+4:]))
		p += 8
		if size == 0 {
			return out
		}
		meta := b[p : p+size]
		m, err := flatbuf.Root(meta)
		if err != nil {
			t.Fatal(err)
		}
		body, err := m.Int64(3)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, meta)
		p += size + int(body)
	}
}

// TestArrowGoMetadata: what arrow-go writes passes; truncated or corrupted
// copies of it are refused or passed, never a panic.
func TestArrowGoMetadata(t *testing.T) {
	stream, file := ipcBytes(t)
	msgs := streamMessages(t, stream)
	kinds := map[int]int{}
	for _, meta := range msgs {
		m, _ := flatbuf.Root(meta)
		kind, _ := m.Uint8(1)
		kinds[kind]++
		if err := Message(meta); err != nil {
			t.Errorf("Message of arrow-go's %s message: %v", HeaderName(kind), err)
		}
	}
	if kinds[HeaderSchema] != 1 || kinds[HeaderDictionaryBatch] != 1 || kinds[HeaderRecordBatch] != 1 {
		t.Fatalf("message kinds %v, want one schema, dictionary batch and record batch", kinds)
	}
	// The record batch's string_view column has its variadic buffer count.
	m, _ := flatbuf.Root(msgs[2])
	rb, _, _ := m.TableField(2)
	if start, n, err := rb.Vector(4, 8); err != nil || n != 1 || binary.LittleEndian.Uint64(msgs[2][start:]) != 1 {
		t.Fatalf("variadicBufferCounts: %d %v, want [1]", n, err)
	}
	if !bytes.HasSuffix(file, []byte("ARROW1")) {
		t.Fatal("not an IPC file")
	}
	n := int(binary.LittleEndian.Uint32(file[len(file)-10:]))
	footer := file[len(file)-10-n : len(file)-10]
	if err := Footer(footer); err != nil {
		t.Fatalf("Footer of arrow-go's footer: %v", err)
	}

	check := func(what string, verify func([]byte) error, b []byte) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: panic %v", what, p)
			}
		}()
		_ = verify(b)
	}
	for _, c := range []struct {
		name   string
		verify func([]byte) error
		b      []byte
	}{
		{"footer", Footer, footer}, {"schema", Message, msgs[0]}, {"dictionary batch", Message, msgs[1]}, {"record batch", Message, msgs[2]},
	} {
		for k := range c.b {
			check(c.name+" truncated", c.verify, c.b[:k])
			for _, v := range []byte{0x00, 0x7F, 0x80, 0xFF} {
				mut := append([]byte(nil), c.b...)
				mut[k] = v
				check(c.name+" corrupted", c.verify, mut)
			}
		}
	}
}

// TestSchemaErrors: a schema whose enums arrow-go would index tables by
// is refused.
func TestSchemaErrors(t *testing.T) {
	schemaMessage := func(typ byte, build func(b *flatbuffers.Builder) flatbuffers.UOffsetT) []byte {
		b := flatbuffers.NewBuilder(256)
		name := b.CreateString("x")
		tt := build(b)
		b.StartObject(7) // Field
		b.PrependUOffsetTSlot(0, name, 0)
		b.PrependByteSlot(2, typ, 0)
		b.PrependUOffsetTSlot(3, tt, 0)
		f := b.EndObject()
		b.StartVector(4, 1, 4)
		b.PrependUOffsetT(f)
		fields := b.EndVector(1)
		b.StartObject(4) // Schema
		b.PrependUOffsetTSlot(1, fields, 0)
		s := b.EndObject()
		b.StartObject(5)
		b.PrependInt16Slot(0, 4, -1)
		b.PrependByteSlot(1, HeaderSchema, 0)
		b.PrependUOffsetTSlot(2, s, 0)
		b.Finish(b.EndObject())
		return b.FinishedBytes()
	}
	intType := func(bits int32) func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
		return func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
			b.StartObject(2)
			b.PrependInt32Slot(0, bits, 0)
			b.PrependBoolSlot(1, true, false)
			return b.EndObject()
		}
	}
	precision := func(p int16) func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
		return func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
			b.StartObject(1)
			b.PrependInt16Slot(0, p, -1)
			return b.EndObject()
		}
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"int32", schemaMessage(2, intType(32)), ""},
		{"int of 12 bits", schemaMessage(2, intType(12)), "malformed IPC schema: an integer of 12 bits"},
		{"double", schemaMessage(3, precision(2)), ""},
		{"precision 3", schemaMessage(3, precision(3)), "malformed IPC schema: floating point precision 3"},
		{"unknown type", schemaMessage(27, precision(0)), "malformed IPC schema: unknown type number 27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Message(tc.b)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Message: %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Message: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestHeaderName(t *testing.T) {
	for kind, want := range map[int]string{HeaderSchema: "schema", HeaderDictionaryBatch: "dictionary batch", HeaderRecordBatch: "record batch"} {
		if got := HeaderName(kind); got != want {
			t.Errorf("HeaderName(%d) = %q, want %q", kind, got, want)
		}
	}
	if !strings.Contains(ErrFlatbuffer.Error(), "points outside") {
		t.Errorf("ErrFlatbuffer = %q", ErrFlatbuffer)
	}
}
