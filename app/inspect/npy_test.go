package inspect

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/sbinet/npyio/npy"

	"github.com/tensorview/tensorview/tensorext"
)

// npyFile is a .npy file as the test's own parser reads it.
type npyFile struct {
	major, minor int
	header       string
	descr        string
	fortran      bool
	shape        []int
	data         []byte
}

var npyDictRE = regexp.MustCompile(`^\{'descr': '([<>|][a-z][0-9]+)', 'fortran_order': (True|False), 'shape': \(((?:\d+, )*\d*,?)\), \} *\n$`)

// parseNPY is an independent reader of the NPY format (NEP 1): magic,
// version, little-endian header length, a header dict exactly as numpy
// writes it, padded so that the data is 64-byte aligned.
func parseNPY(b []byte) (*npyFile, error) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return nil, errors.New("bad magic")
	}
	f := &npyFile{major: int(b[6]), minor: int(b[7])}
	var hlen, start int
	switch f.major {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2:
		hlen, start = int(binary.LittleEndian.Uint32(b[8:12])), 12
	default:
		return nil, fmt.Errorf("version %d", f.major)
	}
	if (start+hlen)%64 != 0 {
		return nil, fmt.Errorf("data offset %d not 64-byte aligned", start+hlen)
	}
	if len(b) < start+hlen {
		return nil, errors.New("short header")
	}
	f.header = string(b[start : start+hlen])
	m := npyDictRE.FindStringSubmatch(f.header)
	if m == nil {
		return nil, fmt.Errorf("header %q", f.header)
	}
	f.descr, f.fortran = m[1], m[2] == "True"
	f.shape = []int{}
	for _, s := range strings.Split(m[3], ",") {
		if s = strings.TrimSpace(s); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, err
			}
			f.shape = append(f.shape, n)
		}
	}
	f.data = b[start+hlen:]
	return f, nil
}

// npyCase is a tensor to export and the bytes its data must have, computed
// by the test from the source values and the logical→physical index map.
type npyCase struct {
	name  string
	ten   tensorext.Tensor
	descr string
	shape []int // logical
	data  []byte
	// read reads the data with npyio into a typed slice and returns it with
	// the expected values (nil when npyio has no such dtype).
	read func(r *npy.Reader) (got, want any, err error)
}

// logicalOrder returns the physical row-major positions of the elements of
// the logical view in C order (perm maps logical dimension i to physical
// dimension perm[i]).
func logicalOrder(phys, perm []int) []int {
	n := len(phys)
	if perm == nil {
		perm = make([]int, n)
		for i := range perm {
			perm[i] = i
		}
	}
	lshape := make([]int, n)
	total := 1
	for i := range perm {
		lshape[i] = phys[perm[i]]
		total *= lshape[i]
	}
	out := make([]int, 0, total)
	li := make([]int, n)
	for k := 0; k < total; k++ {
		rem := k
		for d := n - 1; d >= 0; d-- {
			li[d] = rem % lshape[d]
			rem /= lshape[d]
		}
		pi := make([]int, n)
		for i := range perm {
			pi[perm[i]] = li[i]
		}
		out = append(out, rowMajor(phys, pi))
	}
	return out
}

func permuted(phys, perm []int) []int {
	if perm == nil {
		return slices.Clone(phys)
	}
	out := make([]int, len(perm))
	for i, p := range perm {
		out[i] = phys[p]
	}
	return out
}

// mkCase builds the tensor and its expected bytes from Go values.
func mkCase[T any](t *testing.T, name string, vt arrow.DataType, descr string, phys, perm []int, vals []T, size int, put func([]byte, T), npyioType bool) npyCase {
	order := logicalOrder(phys, perm)
	data := make([]byte, len(order)*size)
	want := make([]T, len(order))
	for i, p := range order {
		put(data[i*size:], vals[p])
		want[i] = vals[p]
	}
	c := npyCase{name: name, ten: fixed(t, vt, phys, perm, nil, vals), descr: descr, shape: permuted(phys, perm), data: data}
	if npyioType {
		c.read = func(r *npy.Reader) (any, any, error) {
			var got []T
			err := r.Read(&got)
			return got, want, err
		}
	}
	return c
}

func npyCases(t *testing.T) []npyCase {
	le := binary.LittleEndian
	phys, perm := []int{2, 3, 4}, []int{2, 0, 1}
	n := 24
	u8, i8 := make([]uint8, n), make([]int8, n)
	u16, i16 := make([]uint16, n), make([]int16, n)
	u32, i32 := make([]uint32, n), make([]int32, n)
	u64, i64 := make([]uint64, n), make([]int64, n)
	f16 := make([]float16.Num, n)
	f32, f64 := make([]float32, n), make([]float64, n)
	bl := make([]bool, n)
	for i := 0; i < n; i++ {
		u8[i], i8[i] = uint8(250-i), int8(i*11-128)
		u16[i], i16[i] = uint16(65535-i*1000), int16(i*1300-32768)
		u32[i], i32[i] = uint32(4294967295-i*17), int32(i*100000000-2147483648)
		u64[i], i64[i] = math.MaxUint64-uint64(i)*3, math.MinInt64+int64(i)*7
		f16[i] = half(uint16(i*2741 + 1)) // includes subnormals, NaN and Inf patterns
		f32[i] = float32(i)/3 - 4
		f64[i] = math.Pi * float64(i-12)
		bl[i] = i%3 == 1
	}
	f32[5] = float32(math.NaN())
	f32[6] = float32(math.Copysign(0, -1))
	f32[7] = float32(math.Inf(-1))
	f64[3] = math.Float64frombits(0x7ff8000000000123) // NaN payload
	f64[4] = math.SmallestNonzeroFloat64
	cases := []npyCase{
		mkCase(t, "uint8", arrow.PrimitiveTypes.Uint8, "|u1", phys, perm, u8, 1, func(b []byte, v uint8) { b[0] = v }, true),
		mkCase(t, "int8", arrow.PrimitiveTypes.Int8, "|i1", phys, perm, i8, 1, func(b []byte, v int8) { b[0] = byte(v) }, true),
		mkCase(t, "uint16", arrow.PrimitiveTypes.Uint16, "<u2", phys, perm, u16, 2, le.PutUint16, true),
		mkCase(t, "int16", arrow.PrimitiveTypes.Int16, "<i2", phys, perm, i16, 2, func(b []byte, v int16) { le.PutUint16(b, uint16(v)) }, true),
		mkCase(t, "uint32", arrow.PrimitiveTypes.Uint32, "<u4", phys, perm, u32, 4, le.PutUint32, true),
		mkCase(t, "int32", arrow.PrimitiveTypes.Int32, "<i4", phys, perm, i32, 4, func(b []byte, v int32) { le.PutUint32(b, uint32(v)) }, true),
		mkCase(t, "uint64", arrow.PrimitiveTypes.Uint64, "<u8", phys, perm, u64, 8, le.PutUint64, true),
		mkCase(t, "int64", arrow.PrimitiveTypes.Int64, "<i8", phys, perm, i64, 8, func(b []byte, v int64) { le.PutUint64(b, uint64(v)) }, true),
		mkCase(t, "float16", arrow.FixedWidthTypes.Float16, "<f2", phys, perm, f16, 2, func(b []byte, v float16.Num) { le.PutUint16(b, v.Uint16()) }, false),
		mkCase(t, "float32", arrow.PrimitiveTypes.Float32, "<f4", phys, perm, f32, 4, func(b []byte, v float32) { le.PutUint32(b, math.Float32bits(v)) }, true),
		mkCase(t, "float64", arrow.PrimitiveTypes.Float64, "<f8", phys, perm, f64, 8, func(b []byte, v float64) { le.PutUint64(b, math.Float64bits(v)) }, true),
		mkCase(t, "bool", arrow.FixedWidthTypes.Boolean, "|b1", phys, perm, bl, 1, func(b []byte, v bool) {
			if v {
				b[0] = 1
			}
		}, true),
		// other shapes: physical order, other permutations, 1-D, 0-D, many dims
		mkCase(t, "float32 physical", arrow.PrimitiveTypes.Float32, "<f4", phys, nil, f32, 4, func(b []byte, v float32) { le.PutUint32(b, math.Float32bits(v)) }, true),
		mkCase(t, "int32 perm 1 0 2", arrow.PrimitiveTypes.Int32, "<i4", phys, []int{1, 0, 2}, i32, 4, func(b []byte, v int32) { le.PutUint32(b, uint32(v)) }, true),
		mkCase(t, "uint16 1-D", arrow.PrimitiveTypes.Uint16, "<u2", []int{24}, nil, u16, 2, le.PutUint16, true),
		mkCase(t, "float64 0-D", arrow.PrimitiveTypes.Float64, "<f8", []int{}, nil, f64[:1], 8, func(b []byte, v float64) { le.PutUint64(b, math.Float64bits(v)) }, true),
		mkCase(t, "uint8 6-D", arrow.PrimitiveTypes.Uint8, "|u1", []int{1, 2, 1, 3, 4, 1}, []int{5, 4, 3, 2, 1, 0}, u8, 1, func(b []byte, v uint8) { b[0] = v }, true),
	}
	// A row of a sliced column (values at a list offset).
	arr := fixedArray(t, arrow.PrimitiveTypes.Int16, phys, perm, nil, i16, slices.Repeat([]int16{-7}, n), i16)
	sl := array.NewSlice(arr, 1, 3).(*tensorext.FixedShapeTensorArray)
	t.Cleanup(sl.Release)
	c := cases[3]
	c.name = "int16 sliced column row 1"
	c.ten, _ = sl.Tensor(1)
	cases = append(cases, c)
	return cases
}

func TestWriteNPY(t *testing.T) {
	dir := t.TempDir()
	var files []string
	fileWant := map[string]npyCase{}
	for _, c := range npyCases(t) {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteNPY(&buf, c.ten); err != nil {
				t.Fatal(err)
			}
			b := buf.Bytes()

			// 1. The test's own parser.
			f, err := parseNPY(b)
			if err != nil {
				t.Fatal(err)
			}
			if f.major != 1 || f.minor != 0 || f.descr != c.descr || f.fortran || !slices.Equal(f.shape, c.shape) {
				t.Errorf("own parser: v%d.%d %q fortran=%v shape %v, want %q %v", f.major, f.minor, f.descr, f.fortran, f.shape, c.descr, c.shape)
			}
			if !bytes.Equal(f.data, c.data) {
				t.Errorf("data\n got %x\nwant %x", f.data, c.data)
			}

			// 2. npyio's reader.
			r, err := npy.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal("npyio:", err)
			}
			shape := r.Header.Descr.Shape
			if shape == nil {
				shape = []int{}
			}
			if r.Header.Major != 1 || r.Header.Descr.Type != c.descr || r.Header.Descr.Fortran || !slices.Equal(shape, c.shape) {
				t.Errorf("npyio header %v, want %q %v", r.Header, c.descr, c.shape)
			}
			if c.read != nil {
				got, want, err := c.read(r)
				if err != nil {
					t.Fatal("npyio read:", err)
				}
				if !sameValues(got, want) {
					t.Errorf("npyio values\n got %v\nwant %v", got, want)
				}
			} else {
				// npyio has no float16: its reader parsed the header; the
				// data after it are compared raw.
				rest := b[len(b)-len(f.data):]
				if !bytes.Equal(rest, c.data) {
					t.Error("float16 data after npyio's header differ")
				}
			}
			name := filepath.Join(dir, fmt.Sprintf("%02d.npy", len(files)))
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
			fileWant[name] = c
		})
	}
	t.Run("numpy", func(t *testing.T) { numpyCheck(t, files, fileWant) })
}

// sameValues compares slices exactly, floats by bits (NaN payloads, -0).
func sameValues(got, want any) bool {
	switch w := want.(type) {
	case []float32:
		g, ok := got.([]float32)
		return ok && slices.EqualFunc(g, w, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) })
	case []float64:
		g, ok := got.([]float64)
		return ok && slices.EqualFunc(g, w, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
	}
	return reflect.DeepEqual(got, want)
}

// numpyCheck loads every file with numpy when python3 has it, compares
// dtype, shape and data bytes, and checks numpy.save writes the same bytes.
// Without numpy it skips, saying so (go test -v shows the reason).
func numpyCheck(t *testing.T, files []string, fileWant map[string]npyCase) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("NOTE: python3 not found: the %d .npy files are NOT cross-checked with numpy (only with npyio and the test's own parser)", len(files))
	}
	if out, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("NOTE: python3 has no numpy (%s): the %d .npy files are NOT cross-checked with numpy (only with npyio and the test's own parser)",
			strings.TrimSpace(lastLine(string(out))), len(files))
	}
	script := `
import io, sys, numpy as np
print(np.__version__)
for name in sys.argv[1:]:
    raw = open(name, 'rb').read()
    a = np.load(name)
    buf = io.BytesIO(); np.save(buf, a)
    print(a.dtype.str, ','.join(map(str, a.shape)), a.tobytes().hex(), buf.getvalue() == raw)
`
	out, err := exec.Command(py, append([]string{"-c", script}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	version, lines := lines[0], lines[1:]
	for i, name := range files {
		c := fileWant[name]
		shape := make([]string, len(c.shape))
		for j, d := range c.shape {
			shape[j] = strconv.Itoa(d)
		}
		want := fmt.Sprintf("%s %s %s", c.descr, strings.Join(shape, ","), hex.EncodeToString(c.data))
		if i >= len(lines) {
			t.Fatalf("numpy printed %d lines for %d files", len(lines), len(files))
		}
		// dtype, shape (empty for 0-D), data hex, whether numpy.save matches
		f := strings.Split(lines[i], " ")
		if len(f) != 4 || strings.Join(f[:3], " ") != want {
			t.Errorf("numpy %s loads %s (%s) as %q, want %q", version, name, c.name, lines[i], want)
		} else if f[3] != "True" {
			// numpy's header padding changed over versions (growth room
			// for axis 0): note it; dtype, shape and data are what count.
			t.Logf("numpy %s: numpy.save writes another header than WriteNPY for %s", version, c.name)
		}
	}
	t.Logf("numpy cross-check of %d files passed", len(files))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestWriteNPYErrors(t *testing.T) {
	// Nulls: the error names the first null's logical index; nothing is
	// written.
	vals := []float64{0, 1, 2, 3, 4, 5}
	ten := withNulls(t, arrow.PrimitiveTypes.Float64, []int{2, 3}, vals, map[int]bool{2: true, 5: true})
	var buf bytes.Buffer
	err := WriteNPY(&buf, ten)
	if err == nil || !strings.Contains(err.Error(), "element at index [0,2] is null") || buf.Len() != 0 {
		t.Errorf("null: %v (%d bytes)", err, buf.Len())
	}
	// Through a permutation the index is logical: physical (0,2) is logical (2,0).
	ten.Permutation = []int{1, 0}
	if err := WriteNPY(&buf, ten); err == nil || !strings.Contains(err.Error(), "element at index [2,0] is null") {
		t.Errorf("null permuted: %v", err)
	}
	// Writer errors come back.
	ok := fixed(t, arrow.PrimitiveTypes.Float32, []int{300, 300}, nil, nil, make([]float32, 90000))
	boom := errors.New("boom")
	for _, limit := range []int{0, 100, 200000} {
		if err := WriteNPY(&failingWriter{limit: limit, err: boom}, ok); !errors.Is(err, boom) {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	// A view outside its values.
	bad := ok
	bad.Offset = 5
	if err := WriteNPY(io.Discard, bad); err == nil {
		t.Error("out-of-range tensor written")
	}
}

type failingWriter struct {
	n, limit int
	err      error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, w.err
	}
	w.n += len(p)
	return len(p), nil
}

// Header layout: numpy's growth padding and 64-byte alignment, and format
// 2.0 for a header beyond 65535 bytes.
func TestNPYHeader(t *testing.T) {
	for _, shape := range [][]int{{}, {1}, {123456789}, {2, 3}, slices.Repeat([]int{7}, 30)} {
		h := npyHeader("<f4", shape)
		f, err := parseNPY(append(h, make([]byte, 0)...))
		if err != nil {
			t.Fatalf("%v: %v", shape, err)
		}
		if len(h)%64 != 0 || f.major != 1 || !slices.Equal(f.shape, shape) {
			t.Errorf("%v: len %d v%d shape %v", shape, len(h), f.major, f.shape)
		}
	}
	// numpy.save(np.zeros((2, 3), np.float32)) header, byte for byte.
	want := "\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
		strings.Repeat(" ", 58) + "\n"
	if got := string(npyHeader("<f4", []int{2, 3})); got != want {
		t.Errorf("header\n got %q\nwant %q", got, want)
	}
	long := slices.Repeat([]int{1}, 22000)
	h := npyHeader("|u1", long)
	f, err := parseNPY(h)
	if err != nil {
		t.Fatal(err)
	}
	if f.major != 2 || len(f.shape) != 22000 || len(h)%64 != 0 {
		t.Errorf("long header: v%d, %d dims, %d bytes", f.major, len(f.shape), len(h))
	}
	r, err := npy.NewReader(bytes.NewReader(h))
	if err != nil || r.Header.Major != 2 || len(r.Header.Descr.Shape) != 22000 {
		t.Errorf("npyio long header: %v", err)
	}
	if d, ok := NPYDescr(arrow.BinaryTypes.String); ok || d != "" {
		t.Error("string dtype")
	}
}

// TestWriteNPYChunks: the data goes out in writes of whole elements, at
// most npyChunk bytes each, all full but the last, and reads back as
// written (float32 through a permutation, and booleans).
func TestWriteNPYChunks(t *testing.T) {
	vals := make([]float32, 300*200)
	for i := range vals {
		vals[i] = float32(i) / 3
	}
	ten := fixed(t, arrow.PrimitiveTypes.Float32, []int{300, 200}, []int{1, 0}, nil, vals)
	bits := make([]bool, 70000)
	for i := range bits {
		bits[i] = i%3 == 0
	}
	for _, c := range []struct {
		ten  tensorext.Tensor
		size int
		want func(k int) []byte
	}{
		{ten, 4, func(k int) []byte { // logical (i, j) is physical (j, i)
			i, j := k/300, k%300
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(vals[j*200+i]))
		}},
		{fixed(t, arrow.FixedWidthTypes.Boolean, []int{70000}, nil, nil, bits), 1, func(k int) []byte {
			if bits[k] {
				return []byte{1}
			}
			return []byte{0}
		}},
	} {
		var w chunkRecorder
		if err := WriteNPY(&w, c.ten); err != nil {
			t.Fatal(err)
		}
		f, err := parseNPY(w.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		n := c.ten.Len()
		var want []byte
		for k := range n {
			want = append(want, c.want(k)...)
		}
		if !bytes.Equal(f.data, want) {
			t.Errorf("%d-byte elements: the data read back differs", c.size)
		}
		full := npyChunk / c.size * c.size
		data := w.sizes[1:] // after the header
		for i, s := range data {
			if s%c.size != 0 || s > full || (i < len(data)-1 && s != full) {
				t.Errorf("%d-byte elements: writes of %v bytes", c.size, data)
				break
			}
		}
	}
}

// chunkRecorder is a bytes.Buffer that notes the size of each write.
type chunkRecorder struct {
	bytes.Buffer
	sizes []int
}

func (w *chunkRecorder) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}
