package wasmpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"
)

// module is a wasm module of a type section and a data section of segs.
func module(segs ...segment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 1, 1, 0) // an empty type section
	body := appendSegments(nil, segs)
	m = append(m, 11)
	m = binary.AppendUvarint(m, uint64(len(body)))
	return append(m, body...)
}

// memory is the memory a module's data segments initialise.
func memory(t *testing.T, m []byte) []byte {
	t.Helper()
	r := Reader{B: m, Off: 8}
	for r.Off < len(r.B) {
		id := r.Byte()
		n := int(r.Uleb())
		if id != 11 {
			r.Off += n
			continue
		}
		segs, err := segments(r.B[r.Off : r.Off+n])
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
	r := Reader{B: m, Off: 8}
	for r.Off < len(r.B) {
		id := r.Byte()
		n := int(r.Uleb())
		if id == 11 {
			sr := Reader{B: r.B[r.Off : r.Off+n]}
			return int(sr.Uleb())
		}
		r.Off += n
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

// TestReaderLEB128: the examples of the LEB128 definition (DWARF 5,
// §7.6, and Wikipedia's "LEB128"), every 64-bit boundary, and round trips
// through the writers (encoding/binary's for unsigned, appendSleb).
func TestReaderLEB128(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want uint64
	}{
		{[]byte{0x00}, 0}, {[]byte{0x7f}, 127}, {[]byte{0x80, 0x01}, 128}, {[]byte{0x02}, 2},
		{[]byte{0x81, 0x01}, 129}, {[]byte{0x82, 0x01}, 130}, {[]byte{0xb9, 0x64}, 12857},
		{[]byte{0xe5, 0x8e, 0x26}, 624485},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, math.MaxUint64},
		{[]byte{0x80, 0x00}, 0}, // padded: allowed
	} {
		r := Reader{B: c.in}
		if got := r.Uleb(); got != c.want || r.Err != nil || r.Off != len(c.in) {
			t.Errorf("Uleb(% x) = %d at %d, %v; want %d at %d", c.in, got, r.Off, r.Err, c.want, len(c.in))
		}
	}
	for _, c := range []struct {
		in   []byte
		want int64
	}{
		{[]byte{0x02}, 2}, {[]byte{0x7e}, -2}, {[]byte{0xff, 0x00}, 127}, {[]byte{0x81, 0x7f}, -127},
		{[]byte{0x80, 0x01}, 128}, {[]byte{0x80, 0x7f}, -128}, {[]byte{0x81, 0x01}, 129}, {[]byte{0xff, 0x7e}, -129},
		{[]byte{0xc0, 0xbb, 0x78}, -123456}, {[]byte{0x3f}, 63}, {[]byte{0xc0, 0x00}, 64}, {[]byte{0x40}, -64},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, math.MinInt64},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}, math.MaxInt64},
	} {
		r := Reader{B: c.in}
		if got := r.Sleb(); got != c.want || r.Err != nil || r.Off != len(c.in) {
			t.Errorf("Sleb(% x) = %d at %d, %v; want %d at %d", c.in, got, r.Off, r.Err, c.want, len(c.in))
		}
	}
	var u []uint64
	var s []int64
	for k := range 64 {
		u = append(u, 1<<k-1, 1<<k, 1<<k+1)
		s = append(s, 1<<k-1, -(1 << k), -(1<<k)+1, -(1<<k)-1)
	}
	var b []byte
	for _, x := range u {
		b = binary.AppendUvarint(b, x)
	}
	for _, x := range s {
		b = appendSleb(b, x)
	}
	r := Reader{B: b}
	for _, x := range u {
		if got := r.Uleb(); got != x {
			t.Errorf("Uleb round trip: %d, want %d", got, x)
		}
	}
	for _, x := range s {
		if got := r.Sleb(); got != x {
			t.Errorf("Sleb round trip: %d, want %d", got, x)
		}
	}
	if r.Err != nil || r.Off != len(b) {
		t.Errorf("round trips: at %d of %d, %v", r.Off, len(b), r.Err)
	}
}

// TestReaderErrors: a read past the end is io.ErrUnexpectedEOF, a LEB128
// of more than 10 bytes or beyond 64 bits "too long"; the first error
// stays and later reads give zero.
func TestReaderErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		read func(r *Reader) any
		eof  bool
	}{
		{"Byte at the end", nil, func(r *Reader) any { return r.Byte() }, true},
		{"Uleb cut", []byte{0x80, 0x80}, func(r *Reader) any { return r.Uleb() }, true},
		{"Sleb cut", []byte{0xff}, func(r *Reader) any { return r.Sleb() }, true},
		{"Uleb of 11 bytes", bytes.Repeat([]byte{0x80}, 11), func(r *Reader) any { return r.Uleb() }, false},
		{"Uleb past 2^64", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, func(r *Reader) any { return r.Uleb() }, false},
		{"Sleb of 11 bytes", append(bytes.Repeat([]byte{0x80}, 10), 0), func(r *Reader) any { return r.Sleb() }, false},
		{"Name past the end", []byte{5, 'a', 'b'}, func(r *Reader) any { return r.Name() }, true},
	} {
		r := Reader{B: c.in}
		got := c.read(&r)
		if r.Err == nil || errors.Is(r.Err, io.ErrUnexpectedEOF) != c.eof {
			t.Errorf("%s: %v, error %v (want unexpected EOF: %v)", c.name, got, r.Err, c.eof)
		}
		first := r.Err
		if v := r.Byte(); v != 0 || r.Err != first {
			t.Errorf("%s: a read after the error gave %d, error %v", c.name, v, r.Err)
		}
	}
	r := Reader{B: []byte{3, 'a', 'b', 'c', 0}}
	if n := r.Name(); n != "abc" || r.Byte() != 0 || r.Err != nil {
		t.Errorf("Name = %q, then %v", n, r.Err)
	}
	r = Reader{B: []byte{1, 'a'}, Off: 5}
	if n := r.Name(); n != "" || r.Err == nil {
		t.Errorf("Name from past the end = %q, %v", n, r.Err)
	}
}
