package wasmpack

import (
	"bytes"
	"testing"
)

// module is a wasm module of a type section and a data section of segs.
func module(segs ...segment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 1, 1, 0) // an empty type section
	body := appendSegments(nil, segs)
	m = append(m, 11)
	m = appendUleb(m, uint64(len(body)))
	return append(m, body...)
}

// memory is the memory a module's data segments initialise.
func memory(t *testing.T, m []byte) []byte {
	t.Helper()
	r := reader{b: m, off: 8}
	for r.off < len(r.b) {
		id := r.byte()
		n := int(r.uleb())
		if id != 11 {
			r.off += n
			continue
		}
		segs, err := segments(r.b[r.off : r.off+n])
		if err != nil {
			t.Fatal(err)
		}
		var mem []byte
		for _, s := range segs {
			if end := int(s.addr) + len(s.data); end > len(mem) {
				mem = append(mem, make([]byte, end-len(mem))...)
			}
			copy(mem[s.addr:], s.data)
		}
		return mem
	}
	t.Fatal("no data section")
	return nil
}

func count(t *testing.T, m []byte) int {
	t.Helper()
	r := reader{b: m, off: 8}
	for r.off < len(r.b) {
		id := r.byte()
		n := int(r.uleb())
		if id == 11 {
			sr := reader{b: r.b[r.off : r.off+n]}
			return int(sr.uleb())
		}
		r.off += n
	}
	return -1
}

func TestPack(t *testing.T) {
	a := segment{0x10, []byte{1, 2, 3}}
	b := segment{0x10 + 3 + 4, []byte{4}}         // 4 zero bytes after a
	c := segment{0x10 + 3 + 4 + 1 + 5, []byte{5}} // 5 after b
	far := segment{200000, bytes.Repeat([]byte{7}, 300)}
	tests := []struct {
		name string
		segs []segment
		gap  int
		want int // segments after
	}{
		{"none joined", []segment{a, b, c}, 3, 3},
		{"first two", []segment{a, b, c}, 4, 2},
		{"all three", []segment{a, b, c}, 5, 1},
		{"out of order", []segment{c, far, a, b}, 5, 2},
		{"gap 64", []segment{a, b, c, far}, Gap, 2},
		{"adjacent", []segment{{0, []byte{1}}, {1, []byte{2}}}, 0, 1},
		{"one", []segment{far}, Gap, 1},
		{"empty", nil, Gap, 0},
		{"address of 3 LEB bytes and sign bit", []segment{{0x3f, []byte{1}}, {0x40, []byte{2}}, {1 << 20, []byte{9}}}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := module(tt.segs...)
			out, err := Pack(in, tt.gap)
			if err != nil {
				t.Fatal(err)
			}
			if got := count(t, out); got != tt.want {
				t.Errorf("%d segments, want %d", got, tt.want)
			}
			if !bytes.Equal(memory(t, in), memory(t, out)) {
				t.Error("memory differs")
			}
			if !bytes.Equal(out[:11], in[:11]) {
				t.Error("other sections changed")
			}
		})
	}
}

func TestPackRefuses(t *testing.T) {
	passive := []byte("\x00asm\x01\x00\x00\x00\x0b\x04\x01\x01\x01\x07") // a passive segment
	tests := []struct {
		name string
		in   []byte
	}{
		{"not wasm", []byte("hello, world")},
		{"no data section", []byte("\x00asm\x01\x00\x00\x00\x01\x01\x00")},
		{"truncated section", []byte("\x00asm\x01\x00\x00\x00\x0b\x09\x01")},
		{"passive segment", passive},
		{"overlap", module(segment{0, []byte{1, 2}}, segment{1, []byte{3}})},
		{"data count", append(module(segment{0, []byte{1}}), 12, 1, 1)},
		{"segment past the section", []byte("\x00asm\x01\x00\x00\x00\x0b\x06\x01\x00\x41\x00\x0b\x09")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Pack(tt.in, Gap)
			if err == nil {
				t.Fatal("no error")
			}
			if !bytes.Equal(out, tt.in) {
				t.Error("module changed")
			}
		})
	}
}
