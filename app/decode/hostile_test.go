package decode

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
)

// compressedFile writes a small IPC file or stream of one int64 column
// whose body is compressed (lz4 or zstd), and returns it with the offsets of
// the 8-byte uncompressed-length prefixes of its buffers (found by
// decoding the layout with this package's own parser).
func compressedFile(t *testing.T, stream, zstd bool) (data []byte, prefixes []int) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := 0; i < 100; i++ {
		b.Append(int64(i))
	}
	col := b.NewArray()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 100)
	opt := ipc.WithLZ4()
	if zstd {
		opt = ipc.WithZstd()
	}
	var buf bytes.Buffer
	if stream {
		w := ipc.NewWriter(&buf, ipc.WithSchema(schema), opt)
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Close()
	} else {
		w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	data = buf.Bytes()
	f, err := Open("c", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := valueText(f, 42, 0); got != "42" {
		t.Fatalf("the unpatched file reads %q at row 42", got)
	}
	bi, _, _ := f.index.batchAt(0)
	meta, _, _, err := f.index.readMessage(bi.offset)
	if err != nil {
		t.Fatal(err)
	}
	plen, _, _ := messagePrefix(meta)
	l, err := parseBatchLayout(meta[plen:])
	if err != nil || !l.compressed {
		t.Fatalf("layout %+v, %v", l, err)
	}
	body := bi.offset + int64(len(meta))
	if bi.metaLen > 0 {
		body = bi.offset + bi.metaLen
	}
	for _, b := range l.buffers {
		if b.length > 0 {
			prefixes = append(prefixes, int(body+b.offset))
		}
	}
	return data, prefixes
}

// TestDeclaredBufferSizes: files of about a kilobyte whose compressed
// buffers declare 64 GiB, or a negative size, once killed the page (arrow-go
// allocated the declared size: a fatal out-of-memory). They are refused
// with an error that says what the file asks for, and the next good file
// opens.
func TestDeclaredBufferSizes(t *testing.T) {
	for _, tc := range []struct {
		name         string
		stream, zstd bool
		declared     int64
		want         string
		validity     bool // patch the validity bitmap's prefix, not the values'
	}{
		{"file lz4 64 GiB", false, false, 64 << 30, "record batch 0 needs more memory than the cache budget (256.0 MiB) allows: it asks for a buffer of 64.0 GiB after 640 B; the file is 922 B", false},
		{"stream zstd 64 GiB", true, true, 64 << 30, "record batch 0 needs more memory than the cache budget (256.0 MiB) allows: it asks for a buffer of 64.0 GiB", false},
		{"file lz4 1 GiB validity", false, false, 1 << 30, "it asks for a buffer of 1.0 GiB", true},
		{"stream lz4 -5", true, false, -5, "record batch 0: compressed buffer 1 declares a negative size (-5)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, prefixes := compressedFile(t, tc.stream, tc.zstd)
			if len(data) > 2048 {
				t.Fatalf("the file has %d bytes", len(data))
			}
			// The last buffer holds the values; the first with data, the
			// validity bitmap (all valid here: written, but not read).
			at := prefixes[len(prefixes)-1]
			if tc.validity {
				at = prefixes[0]
			}
			binary.LittleEndian.PutUint64(data[at:], uint64(tc.declared))
			f, err := Open("hostile", data)
			if err != nil {
				if tc.want != "" && strings.Contains(err.Error(), tc.want) {
					return
				}
				t.Fatalf("open: %v", err)
			}
			_, err = f.Value(0, 0)
			switch {
			case err == nil:
				t.Fatalf("value read, want an error")
			case errors.Is(err, ErrPanic) || strings.Contains(err.Error(), ErrPanic.Error()):
				t.Fatalf("internal error: %v", err)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q, want %q", err, tc.want)
			}
			t.Logf("%v", err)
			good, _ := compressedFile(t, tc.stream, tc.zstd)
			g, err := Open("good", good)
			if err != nil || valueText(g, 7, 0) != "7" {
				t.Fatalf("the next file: %v", err)
			}
		})
	}
}

// TestBudgetAllocator: the allocator refuses what would pass its limit with
// a refusal that says what and how much, and counts what it gave.
func TestBudgetAllocator(t *testing.T) {
	a := newBudgetAllocator(1000, 1024, "record batch 3")
	if b := a.Allocate(600); len(b) != 600 {
		t.Fatalf("allocated %d", len(b))
	}
	func() {
		defer func() {
			r, ok := recover().(*refusal)
			if !ok {
				t.Fatalf("no refusal: %v", r)
			}
		}()
		a.Allocate(64 << 30)
	}()
	err := a.Err()
	want := "record batch 3 needs more memory than the cache budget (1000 B) allows: it asks for a buffer of 64.0 GiB after 600 B; the file is 1.0 KiB"
	if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %q, want prefix %q", err, want)
	}
	if b := a.Reallocate(300, make([]byte, 10, 10)); len(b) != 300 {
		t.Fatalf("reallocated %d", len(b))
	}
}

// tensorMessage builds what pyarrow.ipc.write_tensor writes for an int64
// vector of 3 (format/Tensor.fbs): one encapsulated message whose header is
// a Tensor (kind 4) or a SparseTensor (kind 5), then its body.
func tensorMessage(kind byte) []byte {
	b := flatbuffers.NewBuilder(256)
	b.StartObject(2) // Int
	b.PrependInt32Slot(0, 64, 0)
	b.PrependBoolSlot(1, true, false)
	intType := b.EndObject()
	b.StartObject(2) // TensorDim
	b.PrependInt64Slot(0, 3, 0)
	dim := b.EndObject()
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(dim)
	shape := b.EndVector(1)
	b.StartVector(8, 1, 8)
	b.PrependInt64(8)
	strides := b.EndVector(1)
	b.StartObject(5)           // Tensor
	b.PrependByteSlot(0, 2, 0) // Type.Int
	b.PrependUOffsetTSlot(1, intType, 0)
	b.PrependUOffsetTSlot(2, shape, 0)
	b.PrependUOffsetTSlot(3, strides, 0)
	b.Prep(8, 16)
	b.PlaceInt64(24) // struct Buffer {offset, length}
	b.PlaceInt64(0)
	b.Slot(4)
	tensor := b.EndObject()
	b.StartObject(5) // Message
	b.PrependInt16Slot(0, 4, 0)
	b.PrependByteSlot(1, kind, 0)
	b.PrependUOffsetTSlot(2, tensor, 0)
	b.PrependInt64Slot(3, 24, 0)
	b.Finish(b.EndObject())
	fb := b.FinishedBytes()
	for len(fb)%8 != 0 {
		fb = append(fb, 0)
	}
	out := binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(fb)))
	out = append(out, fb...)
	for v := int64(1); v <= 3; v++ {
		out = binary.LittleEndian.AppendUint64(out, uint64(v))
	}
	return out
}

// TestTensorMessage: an IPC Tensor message is not a record batch stream;
// the error says what the file is.
func TestTensorMessage(t *testing.T) {
	// A Tensor message opens as one row of one fixed_shape_tensor column.
	f, err := Open("t.arrow", tensorMessage(4))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n, exact := f.Rows(); f.Format != IPCTensor || n != 1 || !exact || f.NumBatches() != 1 {
		t.Fatalf("format %q, %d rows (exact %v), %d batches; want %q, 1 row, 1 batch", f.Format, n, exact, f.NumBatches(), IPCTensor)
	}
	if got := f.Schema.Field(0).Type.String(); got != "extension<arrow.fixed_shape_tensor[value_type=int64, shape=[3]]>" {
		t.Errorf("type %s", got)
	}
	tn, err := f.Tensor(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range 3 {
		pos, _ := tn.Pos(i)
		got = append(got, tn.ValueStr(pos))
	}
	if strings.Join(got, " ") != "1 2 3" {
		t.Errorf("values %v, want 1 2 3", got)
	}
	// A SparseTensor message says what it is.
	if _, err := Open("t.arrow", tensorMessage(5)); !errors.Is(err, errSparseTensorMessage) {
		t.Errorf("sparse: %v, want %v", err, errSparseTensorMessage)
	}
}
