package tensorext

// Fuzz targets.
//
//   - FuzzFixedShapeMetadata, FuzzVariableShapeMetadata: arbitrary metadata
//     with a few storage types. Deserialize must never fail or panic; a type
//     that Validate accepts must Serialize to JSON that re-parses to an equal
//     type (ExtensionEquals) and serializes identically, and must be usable
//     (build a row, view it).
//   - FuzzRecordBatch: arbitrary bytes read as an Arrow IPC stream and as an
//     IPC file. Every tensor column (also nested in structs and lists) is
//     exercised: ValidateFull, Tensor(i), ValueStr(i), Positions and Float64.
//     Panics raised inside arrow-go (its readers, or arrow-go code the
//     harness calls) are ignored; a panic whose stack goes through non-test
//     code of package tensorext is a failure.
//
// The contract FuzzRecordBatch checks: type-level methods (Validate,
// Serialize, String, ValidateFull) never panic; Tensor(i) and ValueStr(i)
// never panic, whatever ValidateFull says (tensorext checks the storage's
// buffers before making views); Positions and Float64 never panic on a view
// Tensor returned; and when ValidateFull returns nil every position lies
// within Tensor.Values and Tensor(i) fails only for null rows.
//
// Note: arrow-go's IPC readers recover panics themselves (NewReader, Next,
// RecordBatch) and turn them into errors, so a panic inside Deserialize
// during a read would surface only as a read error; the metadata targets call
// Deserialize directly, and FuzzRecordBatch also calls it on every storage
// type found in a schema.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ---------------------------------------------------------------------------
// Metadata targets.

var fixedFuzzStorages = []arrow.DataType{
	arrow.FixedSizeListOf(1, arrow.PrimitiveTypes.Float32),
	arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32),
	arrow.FixedSizeListOf(6, arrow.PrimitiveTypes.Uint8),
	arrow.FixedSizeListOf(12, arrow.PrimitiveTypes.Int64),
	arrow.FixedSizeListOf(24, arrow.FixedWidthTypes.Boolean),
	arrow.FixedSizeListOfNonNullable(8, arrow.PrimitiveTypes.Float64), // arrow-rs style
	arrow.ListOf(arrow.PrimitiveTypes.Float32),
	arrow.PrimitiveTypes.Int32,
}

var fixedMetadataSeeds = []string{
	``, `{}`, `null`, `[]`, `"x"`, `4`, `{"shape":null}`,
	`{"shape":[]}`, `{"shape":[4]}`, `{"shape":[2,2]}`, `{"shape":[2,3]}`, `{"shape":[3,2],"permutation":[1,0]}`,
	`{"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}`,
	`{"shape":[2,2,3],"permutation":[2,0,1],"dim_names":["A","B","C"]}`,
	`{"shape":[2,3,4],"permutation":[1,2,0]}`, `{"shape":[1,2,3,4],"permutation":[3,1,0,2]}`,
	`{"shape":[2,2],"dim_names":null,"permutations":null}`, `{"shape":[2,2],"permutations":[1,0]}`,
	`{"shape":[4],"extra":{"a":[1,2]}}`, `{ "shape": [100, 200, 500], "permutation": [2, 0, 1] }`,
	`{"shape":[-1,-4]}`, `{"shape":[3,3]}`, `{"shape":[2.5]}`, `{"shape":["2","2"]}`, `{"shape":[2,2],"permutation":[0,0]}`,
	`{"shape":[2,2],"permutation":[0]}`, `{"shape":[2,2],"dim_names":["x"]}`, `{"shape":[2,2],"dim_names":["a",null]}`,
	`{"shape":[4294967296,4294967296]}`, `{"shape":[9223372036854775807,2]}`, `{"shape":[1,1,1,1,1,1,1,1,1,1,1,1,4]}`,
	`{"shape":[2,2],"dim_names":["<a>","\u00e9\"\\"]}`, `{"shape":[],"permutation":[],"dim_names":[]}`,
}

func FuzzFixedShapeMetadata(f *testing.F) {
	for _, s := range fixedMetadataSeeds {
		for k := range fixedFuzzStorages {
			f.Add(s, uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, meta string, storageKind uint8) {
		defer failOnPanic(t)
		storage := fixedFuzzStorages[int(storageKind)%len(fixedFuzzStorages)]
		et, err := (&FixedShapeTensorType{}).Deserialize(storage, meta)
		if err != nil || et == nil {
			t.Fatalf("Deserialize(%s, %q) = %v, %v; must never fail", storage, meta, et, err)
		}
		typ := et.(*FixedShapeTensorType)
		_ = typ.String()
		_ = typ.LogicalDimNames()
		if typ.Validate() != nil {
			return
		}
		fsl := storage.(*arrow.FixedSizeListType)
		if n, ok := product(typ.Shape()); !ok || n != int(fsl.Len()) {
			t.Fatalf("valid type %s has shape %v for %s", typ, typ.Shape(), storage)
		}
		s := typ.Serialize()
		if !json.Valid([]byte(s)) {
			t.Fatalf("Serialize() = %q is not JSON", s)
		}
		et2, err := (&FixedShapeTensorType{}).Deserialize(storage, s)
		if err != nil {
			t.Fatal(err)
		}
		back := et2.(*FixedShapeTensorType)
		if err := back.Validate(); err != nil {
			t.Fatalf("%q valid, but its Serialize() %q is not: %v", meta, s, err)
		}
		if !typ.ExtensionEquals(back) || !back.ExtensionEquals(typ) {
			t.Fatalf("%q: type %s != re-parsed %s (Serialize %q)", meta, typ, back, s)
		}
		if s2 := back.Serialize(); s2 != s {
			t.Fatalf("Serialize not stable: %q -> %q", s, s2)
		}
		if len(typ.LogicalShape()) != typ.NDim() {
			t.Fatalf("LogicalShape %v for ndim %d", typ.LogicalShape(), typ.NDim())
		}
		// The type must be usable: build a row of zeros and view it.
		b := typ.NewBuilder(memory.DefaultAllocator).(*FixedShapeTensorBuilder)
		defer b.Release()
		b.Append(true)
		b.ValueBuilder().AppendEmptyValues(int(fsl.Len()))
		b.AppendNull()
		arr := b.NewFixedShapeTensorArray()
		defer arr.Release()
		if err := arr.ValidateFull(); err != nil {
			t.Fatalf("ValidateFull: %v", err)
		}
		tt, err := arr.Tensor(0)
		if err != nil {
			t.Fatal(err)
		}
		checkPositionsPermute(t, tt, int(fsl.Len()))
		_ = arr.String()
	})
}

// checkPositionsPermute checks that the physical and logical views visit
// the same n positions, each once, all within Values.
func checkPositionsPermute(t *testing.T, tt Tensor, n int) {
	t.Helper()
	var phys, logical []int
	tt.Positions(func(p int) bool { phys = append(phys, p); return true })
	tt.Logical().Positions(func(p int) bool { logical = append(logical, p); return true })
	if len(phys) != n || len(logical) != n {
		t.Fatalf("visited %d physical / %d logical positions, want %d", len(phys), len(logical), n)
	}
	sort.Ints(logical)
	for i, p := range logical {
		if p != tt.Offset+i || phys[i] != tt.Offset+i {
			t.Fatalf("positions: physical %v, logical (sorted) %v, offset %d", phys, logical, tt.Offset)
		}
	}
}

var variableFuzzStorages = []arrow.DataType{
	varStorage(1, arrow.PrimitiveTypes.Int32),
	varStorage(2, arrow.PrimitiveTypes.Int32),
	varStorage(3, arrow.PrimitiveTypes.Int32),
	varStorage(4, arrow.PrimitiveTypes.Int32),
	varStorage(3, arrow.PrimitiveTypes.Uint32), // draft
	arrow.StructOf( // arrow-rs style, non-nullable children, large list
		arrow.Field{Name: "data", Type: arrow.LargeListOfNonNullable(arrow.PrimitiveTypes.Float32)},
		arrow.Field{Name: "shape", Type: arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32)}),
	arrow.StructOf( // fields swapped
		arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64)},
		arrow.Field{Name: "data", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)}),
	arrow.StructOf(arrow.Field{Name: "data", Type: arrow.ListOf(arrow.PrimitiveTypes.Int8)}),
	arrow.PrimitiveTypes.Int32,
}

var variableMetadataSeeds = []string{
	``, ` `, `{}`, `null`, `[]`, `"x"`, `4`,
	`{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[null,4]}`,
	`{"permutation":[2,0,1],"dim_names":["H","W","C"],"uniform_shape":[400,null,3]}`,
	`{"dim_names":null,"permutations":null,"uniform_shape":null}`, `{"permutations":[1,0]}`,
	`{"uniform_shape":[null,null]}`, `{"uniform_shape":[-1,3]}`, `{"uniform_shape":[-2,3]}`, `{"uniform_shape":[1]}`,
	`{"uniform_shape":["2",null]}`, `{"uniform_shape":[1.5,null]}`, `{"uniform_shape":[2147483648,null]}`,
	`{"ndim":2,"dim_names":["H","W"]}`, `{"ndim":3,"permutation":[2,0,1]}`, `{"ndim":"2"}`, `{"ndim":3}`,
	`{"dim_names":["H","W","C"],"ragged_dimensions":[1]}`, `{"ragged_dimensions":[5]}`,
	`{"permutation":[0,0]}`, `{"permutation":[3,2,1,0]}`, `{"dim_names":["H"]}`, `{"x":{"y":[null]}}`,
	`{ "permutation" : [ 1 , 0 ] , "uniform_shape" : [ 2 , 3 ] }`, `{"dim_names":["<H>","&"]}`,
}

func FuzzVariableShapeMetadata(f *testing.F) {
	for _, s := range variableMetadataSeeds {
		for k := range variableFuzzStorages {
			f.Add(s, uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, meta string, storageKind uint8) {
		defer failOnPanic(t)
		storage := variableFuzzStorages[int(storageKind)%len(variableFuzzStorages)]
		et, err := (&VariableShapeTensorType{}).Deserialize(storage, meta)
		if err != nil || et == nil {
			t.Fatalf("Deserialize(%s, %q) = %v, %v; must never fail", storage, meta, et, err)
		}
		typ := et.(*VariableShapeTensorType)
		_ = typ.String()
		_ = typ.LogicalDimNames()
		if typ.Validate() != nil {
			return
		}
		s := typ.Serialize()
		if !json.Valid([]byte(s)) {
			t.Fatalf("Serialize() = %q is not JSON", s)
		}
		et2, err := (&VariableShapeTensorType{}).Deserialize(storage, s)
		if err != nil {
			t.Fatal(err)
		}
		back := et2.(*VariableShapeTensorType)
		if err := back.Validate(); err != nil {
			t.Fatalf("%q valid, but its Serialize() %q is not: %v", meta, s, err)
		}
		if !typ.ExtensionEquals(back) || !back.ExtensionEquals(typ) {
			t.Fatalf("%q: type %s != re-parsed %s (Serialize %q)", meta, typ, back, s)
		}
		if s2 := back.Serialize(); s2 != s {
			t.Fatalf("Serialize not stable: %q -> %q", s, s2)
		}
		for _, d := range typ.UniformShape() {
			if d < 0 && d != VaryingDim {
				t.Fatalf("valid type with uniform_shape %v", typ.UniformShape())
			}
		}
		// The same parameters must be accepted by the constructor.
		if vt := typ.ValueType(); vt != nil {
			if _, err := NewVariableShapeTensorType(vt, typ.NDim(), typ.Permutation(), typ.DimNames(), typ.UniformShape()); err != nil {
				t.Fatalf("constructor rejects parameters of valid %s: %v", typ, err)
			}
		}
		// The type's builder must append a row (or report an error) and the
		// row must read back.
		shape := make([]int, typ.NDim())
		for k := range shape {
			shape[k] = 1 + k%2
			if u := typ.UniformShape(); u != nil && u[k] != VaryingDim {
				shape[k] = u[k]
			}
		}
		n, ok := product(shape)
		if !ok || n > 1<<16 {
			return
		}
		vals := zeroSlice(typ.ValueType(), n)
		if vals == nil {
			return
		}
		b := typ.NewBuilder(memory.DefaultAllocator).(*VariableShapeTensorBuilder)
		defer b.Release()
		b.Reserve(1)
		b.ReserveValues(n)
		if err := b.AppendTensor(shape, vals); err != nil {
			return
		}
		b.AppendNull()
		arr := b.NewVariableShapeTensorArray()
		defer arr.Release()
		if err := arr.ValidateFull(); err != nil {
			t.Fatalf("ValidateFull of a built row: %v", err)
		}
		tt, err := arr.Tensor(0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tt.Shape, shape) {
			t.Fatalf("built shape %v, read %v", shape, tt.Shape)
		}
		checkPositionsPermute(t, tt, n)
		_ = arr.String()
	})
}

// zeroSlice returns n zero values of dt's native Go type, or nil.
func zeroSlice(dt arrow.DataType, n int) any {
	if dt == nil {
		return nil
	}
	switch dt.ID() {
	case arrow.INT8:
		return make([]int8, n)
	case arrow.UINT8:
		return make([]uint8, n)
	case arrow.INT16:
		return make([]int16, n)
	case arrow.FLOAT32:
		return make([]float32, n)
	case arrow.FLOAT64:
		return make([]float64, n)
	}
	return nil
}

// ---------------------------------------------------------------------------
// FuzzRecordBatch.

const (
	fuzzMaxAlloc    = 64 << 20 // bytes per allocation
	fuzzMaxRows     = 512      // rows exercised per column (first and last)
	fuzzMaxElements = 1 << 18  // elements visited per input
	fuzzMaxBatches  = 64
	fuzzHangTimeout = 30 * time.Second
)

// cappedAllocator refuses (by panicking, which arrow-go's readers recover)
// allocations a corrupt length field asks for.
type cappedAllocator struct{ *memory.GoAllocator }

func (a cappedAllocator) Allocate(size int) []byte {
	if size < 0 || size > fuzzMaxAlloc {
		panic(fmt.Sprintf("fuzz: allocation of %d bytes refused", size))
	}
	return a.GoAllocator.Allocate(size)
}

func (a cappedAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 || size > fuzzMaxAlloc {
		panic(fmt.Sprintf("fuzz: allocation of %d bytes refused", size))
	}
	return a.GoAllocator.Reallocate(size, b)
}

// failOnPanic turns a panic into a test failure, so that one bad input
// does not abort the whole test binary.
func failOnPanic(t *testing.T) {
	if r := recover(); r != nil {
		t.Fatalf("panic: %v\n%s", r, debug.Stack())
	}
}

var tensorextPkg = reflect.TypeOf(FixedShapeTensorType{}).PkgPath() + "."

// tensorextFrame returns the first frame of stack that is in a non-test
// file of package tensorext, or "".
func tensorextFrame(stack string) string {
	lines := strings.Split(stack, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], tensorextPkg) {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(file, ":"); j >= 0 {
			file = file[:j]
		}
		if !strings.HasSuffix(file, "_test.go") {
			return lines[i] + " " + strings.TrimSpace(lines[i+1])
		}
	}
	return ""
}

// guard runs fn. A panic whose stack goes through tensorext fails the test;
// any other panic (inside arrow-go) is ignored and guard returns false.
func guard(t *testing.T, what string, fn func()) (ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			if frame := tensorextFrame(stack); frame != "" {
				t.Fatalf("panic in %s, in tensorext at %s: %v\n%s", what, frame, r, stack)
			}
			ok = false
		}
	}()
	fn()
	return true
}

func FuzzRecordBatch(f *testing.F) {
	for _, seed := range generatedIPCSeeds(f) {
		f.Add(seed)
	}
	var files []string
	for _, pattern := range []string{
		"../testdata/*.arrow", "../testdata/*.arrows",
		"../../shared/interop/generated-nonGo-writers/*.arrow*",
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Logf("seed %s: %v", name, err)
			continue
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer failOnPanic(t)
		if why := arrowGoFatalInput(data); why != "" {
			// arrow-go would die with a fatal (unrecoverable) out-of-memory
			// error: not something a recover can turn into a result.
			t.Logf("input not read: %s", why)
			return
		}
		// Go's fuzzer does not detect hangs: crash the worker (saving the
		// input) with every goroutine's stack when one input takes too long.
		watchdog := time.AfterFunc(fuzzHangTimeout, func() {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			panic(fmt.Sprintf("fuzz: input of %d bytes still running after %v\n%s", len(data), fuzzHangTimeout, buf))
		})
		defer watchdog.Stop()
		budget := fuzzMaxElements
		fuzzStream(t, data, &budget)
		fuzzFile(t, data, &budget)
	})
}

func fuzzReaderOptions() []ipc.Option {
	return []ipc.Option{
		ipc.WithAllocator(cappedAllocator{memory.NewGoAllocator()}),
		ipc.WithMetadataSizeLimit(1 << 20),
		ipc.WithBodySizeLimit(fuzzMaxAlloc),
	}
}

func fuzzStream(t *testing.T, data []byte, budget *int) {
	var r *ipc.Reader
	var err error
	if !guard(t, "ipc.NewReader", func() { r, err = ipc.NewReader(bytes.NewReader(data), fuzzReaderOptions()...) }) || err != nil {
		return
	}
	defer guard(t, "Reader.Release", r.Release)
	fuzzSchema(t, r.Schema())
	for n := 0; n < fuzzMaxBatches; n++ {
		next := false
		if !guard(t, "Reader.Next", func() { next = r.Next() }) || !next {
			return
		}
		fuzzRecord(t, r.RecordBatch(), budget)
	}
}

func fuzzFile(t *testing.T, data []byte, budget *int) {
	var r *ipc.FileReader
	var err error
	if !guard(t, "ipc.NewFileReader", func() { r, err = ipc.NewFileReader(bytes.NewReader(data), fuzzReaderOptions()...) }) || err != nil {
		return
	}
	defer guard(t, "FileReader.Close", func() { r.Close() })
	fuzzSchema(t, r.Schema())
	for i := 0; i < r.NumRecords() && i < fuzzMaxBatches; i++ {
		var rec arrow.RecordBatch
		if !guard(t, "FileReader.RecordBatch", func() { rec, err = r.RecordBatch(i) }) || err != nil {
			continue
		}
		fuzzRecord(t, rec, budget)
	}
}

// fuzzSchema calls both types' Deserialize on every storage type in the
// schema (with a few metadata strings), and re-parses every tensor type's
// own Serialize().
func fuzzSchema(t *testing.T, schema *arrow.Schema) {
	if schema == nil {
		return
	}
	var visit func(dt arrow.DataType, depth int)
	visit = func(dt arrow.DataType, depth int) {
		if dt == nil || depth > 8 {
			return
		}
		storage := dt
		if ext, ok := dt.(arrow.ExtensionType); ok {
			storage = ext.StorageType()
			guard(t, "type methods", func() { fuzzTypeMethods(t, ext) })
		}
		for _, meta := range []string{``, `{}`, `{"shape":[2,2],"permutation":[1,0]}`, `{"uniform_shape":[null,2],"permutation":[1,0]}`} {
			guard(t, "Deserialize", func() {
				for _, proto := range []arrow.ExtensionType{&FixedShapeTensorType{}, &VariableShapeTensorType{}} {
					et, err := proto.Deserialize(storage, meta)
					if err != nil || et == nil {
						t.Fatalf("Deserialize(%s, %q) = %v, %v", storage, meta, et, err)
					}
					_ = et.String()
				}
			})
		}
		if nested, ok := storage.(arrow.NestedType); ok {
			for _, f := range nested.Fields() {
				visit(f.Type, depth+1)
			}
		}
	}
	for _, f := range schema.Fields() {
		visit(f.Type, 0)
	}
}

func fuzzTypeMethods(t *testing.T, ext arrow.ExtensionType) {
	switch typ := ext.(type) {
	case *FixedShapeTensorType:
		_, _ = typ.String(), typ.LogicalDimNames()
		if typ.Validate() == nil {
			_ = typ.LogicalShape()
			back, _ := (&FixedShapeTensorType{}).Deserialize(typ.StorageType(), typ.Serialize())
			if !typ.ExtensionEquals(back) {
				t.Fatalf("%s does not survive Serialize/Deserialize", typ)
			}
		}
	case *VariableShapeTensorType:
		_, _ = typ.String(), typ.LogicalDimNames()
		if typ.Validate() == nil {
			back, _ := (&VariableShapeTensorType{}).Deserialize(typ.StorageType(), typ.Serialize())
			if !typ.ExtensionEquals(back) {
				t.Fatalf("%s does not survive Serialize/Deserialize", typ)
			}
		}
	}
}

func fuzzRecord(t *testing.T, rec arrow.RecordBatch, budget *int) {
	if rec == nil {
		return
	}
	for c := 0; c < int(rec.NumCols()); c++ {
		fuzzWalk(t, rec.Column(c), 0, budget)
	}
}

// tensorArray is what both array types share.
type tensorArray interface {
	arrow.Array
	Tensor(i int) (Tensor, error)
	ValidateFull() error
	ValueStr(i int) string
}

// fuzzWalk finds tensor arrays in arr and its children.
func fuzzWalk(t *testing.T, arr arrow.Array, depth int, budget *int) {
	if arr == nil || depth > 8 {
		return
	}
	switch a := arr.(type) {
	case *FixedShapeTensorArray:
		fuzzTensorArray(t, a, budget)
	case *VariableShapeTensorArray:
		fuzzTensorArray(t, a, budget)
	case array.ExtensionArray:
		fuzzWalk(t, a.Storage(), depth+1, budget)
	case *array.Struct:
		for i := 0; i < a.NumField(); i++ {
			fuzzWalk(t, a.Field(i), depth+1, budget)
		}
	case array.ListLike:
		fuzzWalk(t, a.ListValues(), depth+1, budget)
	}
}

// printCost is the number of nodes Tensor.String visits for shape.
func printCost(shape []int) int {
	cost, level := 1, 1
	for _, d := range shape {
		if d != 0 && level > fuzzMaxElements/d {
			return fuzzMaxElements + 1
		}
		level *= d
		cost += level
		if cost > fuzzMaxElements {
			return cost
		}
	}
	return cost
}

// storageRowCost bounds the work of printing row i of a's storage.
func storageRowCost(a tensorArray, i int) int64 {
	var cost func(arr arrow.Array, i int, depth int) int64
	cost = func(arr arrow.Array, i int, depth int) int64 {
		switch s := arr.(type) {
		case *array.Struct:
			var c int64
			for k := 0; k < s.NumField() && depth < 4; k++ {
				c += cost(s.Field(k), i, depth+1)
			}
			return c + 1
		case array.ListLike:
			start, end := s.ValueOffsets(i)
			return end - start + 1
		}
		return 1
	}
	var storage arrow.Array
	switch s := a.(type) {
	case *FixedShapeTensorArray:
		storage = s.Storage()
	case *VariableShapeTensorArray:
		storage = s.Storage()
	}
	return cost(storage, i, 0)
}

func fuzzTensorArray(t *testing.T, a tensorArray, budget *int) {
	ext := a.DataType().(arrow.ExtensionType)
	if !guard(t, "type methods", func() { fuzzTypeMethods(t, ext) }) {
		return
	}
	var verr error
	if !guard(t, "ValidateFull", func() { verr = a.ValidateFull() }) {
		return
	}
	// Rows are exercised whatever ValidateFull said: on malformed storage
	// Tensor must return an error and ValueStr must still not panic.
	n := a.Len()
	rows := make([]int, 0, fuzzMaxRows)
	for i := 0; i < n && i < fuzzMaxRows/2; i++ {
		rows = append(rows, i)
	}
	for i := max(n-fuzzMaxRows/2, fuzzMaxRows/2); i < n; i++ {
		rows = append(rows, i)
	}
	for _, i := range rows {
		if *budget <= 0 {
			return
		}
		*budget--
		var tt Tensor
		var err error
		if !guard(t, "Tensor", func() { tt, err = a.Tensor(i) }) {
			continue
		}
		if err != nil {
			if errors.Is(err, ErrNullTensor) && !a.IsNull(i) {
				if _, ok := a.(*FixedShapeTensorArray); ok {
					t.Fatalf("row %d: ErrNullTensor for a valid fixed-shape row", i)
				}
			}
			if verr == nil && !errors.Is(err, ErrNullTensor) {
				t.Fatalf("ValidateFull() = nil but Tensor(%d) = %v", i, err)
			}
			var c int64
			if guard(t, "storage cost", func() { c = storageRowCost(a, i) }) && c <= int64(*budget) {
				*budget -= int(c)
				guard(t, "ValueStr", func() { _ = a.ValueStr(i) })
			}
			continue
		}
		if a.IsNull(i) {
			t.Fatalf("row %d is null but Tensor returned a view", i)
		}
		if c := printCost(tt.Shape); c <= *budget {
			*budget -= c
			var s string
			guard(t, "ValueStr", func() { s = a.ValueStr(i) })
			var s2 string
			guard(t, "Tensor.String", func() { s2 = tt.String() })
			if s != s2 {
				t.Fatalf("row %d: ValueStr %q != Tensor.String %q", i, s, s2)
			}
		}
		total := tt.Len()
		if total > *budget {
			continue
		}
		*budget -= 2 * total
		guard(t, "Positions/Float64", func() { fuzzTensor(t, tt, verr == nil) })
	}
}

// fuzzTensor visits every element of a tensor's physical and logical views.
func fuzzTensor(t *testing.T, tt Tensor, validated bool) {
	nvals := tt.Values.Len()
	var phys []int
	visit := func(pos int) bool {
		if validated && (pos < 0 || pos >= nvals) {
			t.Fatalf("position %d outside Values (length %d) of a tensor of shape %v after ValidateFull() = nil", pos, nvals, tt.Shape)
		}
		v, ok := tt.Float64(pos)
		if ok && tt.IsNull(pos) {
			t.Fatalf("Float64(%d) = %v, true for a null element", pos, v)
		}
		_ = tt.ValueStr(pos)
		return true
	}
	tt.Positions(func(pos int) bool { phys = append(phys, pos); return visit(pos) })
	lg := tt.Logical()
	var logical []int
	lg.Positions(func(pos int) bool { logical = append(logical, pos); return true })
	if len(phys) != tt.Len() || len(logical) != len(phys) {
		t.Fatalf("visited %d physical / %d logical positions of %d", len(phys), len(logical), tt.Len())
	}
	sort.Ints(phys)
	sort.Ints(logical)
	if !reflect.DeepEqual(phys, logical) {
		t.Fatalf("logical view visits other positions than the physical one")
	}
}

// generatedIPCSeeds writes IPC streams and files holding both tensor types.
func generatedIPCSeeds(tb testing.TB) [][]byte {
	mem := memory.DefaultAllocator
	f64 := arrow.PrimitiveTypes.Float64

	ft, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	if err != nil {
		tb.Fatal(err)
	}
	fb := NewFixedShapeTensorBuilder(mem, ft)
	defer fb.Release()
	for r := 0; r < 4; r++ {
		if r == 2 {
			fb.AppendNull()
			continue
		}
		_ = fb.AppendTensor([]uint8{uint8(r), 1, 2, 3, 4, 5})
	}
	fixed := fb.NewFixedShapeTensorArray()
	defer fixed.Release()

	zt, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{}, nil, nil)
	zb := NewFixedShapeTensorBuilder(mem, zt)
	defer zb.Release()
	_ = zb.AppendTensor([]float32{1.5})
	zb.Append(true)
	zb.ValueBuilder().AppendNull()
	zb.AppendNull()
	_ = zb.AppendTensor([]float32{-2})
	zeroD := zb.NewFixedShapeTensorArray()
	defer zeroD.Release()

	vt, _ := NewVariableShapeTensorType(f64, 3, []int{2, 0, 1}, []string{"H", "W", "C"}, []int{VaryingDim, VaryingDim, 3})
	vb := NewVariableShapeTensorBuilder(mem, vt)
	defer vb.Release()
	_ = vb.AppendTensor([]int{2, 2, 3}, f64s(1, 12))
	vb.AppendNull()
	_ = vb.AppendTensor([]int{1, 1, 3}, f64s(100, 3))
	_ = vb.AppendTensor([]int{0, 5, 3}, []float64{})
	variable := vb.NewVariableShapeTensorArray()
	defer variable.Release()

	v1t, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int16, 1, nil, nil, nil)
	v1b := NewVariableShapeTensorBuilder(mem, v1t)
	defer v1b.Release()
	_ = v1b.AppendTensor([]int{3}, []int16{1, 2, 3})
	_ = v1b.AppendTensor([]int{0}, []int16{})
	v1 := v1b.NewVariableShapeTensorArray()
	defer v1.Release()

	var seeds [][]byte
	write := func(cols ...arrow.Array) {
		fields := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: c.DataType(), Nullable: true}
		}
		schema := arrow.NewSchema(fields, nil)
		rec := array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
		defer rec.Release()
		var sbuf, fbuf bytes.Buffer
		w := ipc.NewWriter(&sbuf, ipc.WithSchema(schema))
		if err := w.Write(rec); err != nil {
			tb.Fatalf("seed %s: %v", schema, err)
		}
		w.Close()
		fw, err := ipc.NewFileWriter(&fbuf, ipc.WithSchema(schema))
		if err != nil {
			tb.Fatal(err)
		}
		if err := fw.Write(rec); err != nil {
			tb.Fatalf("seed %s: %v", schema, err)
		}
		fw.Close()
		seeds = append(seeds, sbuf.Bytes(), fbuf.Bytes())
	}
	write(fixed, variable)
	sf := array.NewSlice(fixed, 1, 3)
	defer sf.Release()
	sv := array.NewSlice(variable, 2, 4)
	defer sv.Release()
	write(sf, sv)
	write(zeroD)
	write(v1)

	// Value types whose element access follows indices or offsets.
	st, _ := NewFixedShapeTensorType(arrow.BinaryTypes.String, []int{2, 2}, []int{1, 0}, nil)
	sb := NewFixedShapeTensorBuilder(mem, st)
	defer sb.Release()
	sb.Append(true)
	sb.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "bc", "", "def"}, []bool{true, true, false, true})
	sb.AppendNull()
	strs := sb.NewFixedShapeTensorArray()
	defer strs.Release()
	write(strs)
	dt, _ := NewFixedShapeTensorType(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, []int{3}, nil, []string{"label"})
	db := NewFixedShapeTensorBuilder(mem, dt)
	defer db.Release()
	db.Append(true)
	dvb := db.ValueBuilder().(*array.BinaryDictionaryBuilder)
	for _, v := range []string{"cat", "dog", "cat"} {
		_ = dvb.AppendString(v)
	}
	dicts := db.NewFixedShapeTensorArray()
	defer dicts.Release()
	write(dicts)
	return seeds
}

// ---------------------------------------------------------------------------
// Inputs arrow-go cannot survive.
//
// arrow-go v18.8.0's IPC readers size Go slices by flatbuffer vector lengths
// without checking them against the buffer: ipc.schemaFromFB
// (make([]arrow.Field, schema.FieldsLength())), ipc.fieldFromFB
// (make([]arrow.Field, field.ChildrenLength())) and ipc.metadataFromFB
// (make([]string, md.CustomMetadataLength())). A corrupt length of up to
// 2^32-1 makes the runtime abort with "fatal error: runtime: out of memory",
// which no recover catches. Flatbuffer offsets may also share subtrees, so a
// small schema can describe an exponential number of fields.
// arrowGoFatalInput finds such inputs (in a stream's messages, and in a
// file's footer schema and block messages) so the fuzzer can skip them.

type fbBuf struct {
	b      []byte
	visits int
}

func (f *fbBuf) u32(p int) (int, bool) {
	if p < 0 || p+4 > len(f.b) {
		return 0, false
	}
	return int(binary.LittleEndian.Uint32(f.b[p:])), true
}

func (f *fbBuf) u16(p int) (int, bool) {
	if p < 0 || p+2 > len(f.b) {
		return 0, false
	}
	return int(binary.LittleEndian.Uint16(f.b[p:])), true
}

// Positions are computed as the flatbuffers Go runtime computes them, in
// uint32 arithmetic that wraps around.

// deref follows the uoffset stored at p.
func (f *fbBuf) deref(p int) (int, bool) {
	o, ok := f.u32(p)
	q := int(uint32(p) + uint32(o))
	if !ok || q >= len(f.b) {
		return 0, false
	}
	return q, true
}

// field returns the position of a table's field, if present
// (flatbuffers.Table.Offset plus the table position).
func (f *fbBuf) field(t, slot int) (int, bool) {
	so, ok := f.u32(t)
	if !ok {
		return 0, false
	}
	vt := int(uint32(int32(t) - int32(uint32(so))))
	vtLen, ok := f.u16(vt)
	if !ok || 4+2*slot >= vtLen {
		return 0, false
	}
	off, ok := f.u16(vt + 4 + 2*slot)
	p := int(uint32(t) + uint32(off))
	if !ok || off == 0 || p >= len(f.b) {
		return 0, false
	}
	return p, true
}

// vector returns the first element's position and the length of a vector
// field; bad reports a length that cannot fit in the buffer.
func (f *fbBuf) vector(t, slot, elemSize int) (start, n int, bad bool) {
	p, ok := f.field(t, slot)
	if !ok {
		return 0, 0, false
	}
	v, ok := f.deref(p)
	if !ok {
		return 0, 0, false
	}
	n, ok = f.u32(v)
	if !ok {
		return 0, 0, false
	}
	if int64(n)*int64(elemSize) > int64(len(f.b)-v-4) {
		return 0, 0, true
	}
	return v + 4, n, false
}

func (f *fbBuf) fieldOK(t, depth int) bool {
	f.visits++
	if f.visits > 100000 || depth > 1000 {
		return false
	}
	if _, _, bad := f.vector(t, 6, 4); bad { // Field.custom_metadata
		return false
	}
	start, n, bad := f.vector(t, 5, 4) // Field.children
	if bad {
		return false
	}
	for i := 0; i < n; i++ {
		if c, ok := f.deref(start + 4*i); ok && !f.fieldOK(c, depth+1) {
			return false
		}
	}
	return true
}

func (f *fbBuf) schemaOK(t int) bool {
	if _, _, bad := f.vector(t, 2, 4); bad { // Schema.custom_metadata
		return false
	}
	start, n, bad := f.vector(t, 1, 4) // Schema.fields
	if bad {
		return false
	}
	for i := 0; i < n; i++ {
		if c, ok := f.deref(start + 4*i); ok && !f.fieldOK(c, 0) {
			return false
		}
	}
	return true
}

// messageOK vets one Message flatbuffer; it also returns its bodyLength.
func messageOK(b []byte) (ok bool, body int64) {
	f := &fbBuf{b: b}
	root, found := f.deref(0)
	if !found {
		return true, 0
	}
	if _, _, bad := f.vector(root, 4, 4); bad { // Message.custom_metadata
		return false, 0
	}
	if p, found := f.field(root, 3); found && p+8 <= len(b) { // Message.bodyLength
		body = int64(binary.LittleEndian.Uint64(b[p:]))
	}
	if p, found := f.field(root, 1); found && b[p] == 1 { // header_type Schema
		if hp, found := f.field(root, 2); found {
			if h, found := f.deref(hp); found && !f.schemaOK(h) {
				return false, body
			}
		}
	}
	return true, body
}

// encapsulatedAt returns the Message flatbuffer that starts at off.
func encapsulatedAt(data []byte, off int64) ([]byte, int64, bool) {
	if off < 0 || off+4 > int64(len(data)) {
		return nil, 0, false
	}
	n := int64(binary.LittleEndian.Uint32(data[off:]))
	start := off + 4
	if n == 0xFFFFFFFF {
		if off+8 > int64(len(data)) {
			return nil, 0, false
		}
		n = int64(binary.LittleEndian.Uint32(data[off+4:]))
		start = off + 8
	}
	if n == 0 || start+n > int64(len(data)) {
		return nil, 0, false
	}
	return data[start : start+n], start + n, true
}

func arrowGoFatalInput(data []byte) string {
	// As a stream: messages one after the other.
	off := int64(0)
	for i := 0; i < 1024; i++ {
		msg, end, ok := encapsulatedAt(data, off)
		if !ok {
			break
		}
		good, body := messageOK(msg)
		if !good {
			return fmt.Sprintf("stream message %d at offset %d has a flatbuffer vector longer than the input", i, off)
		}
		if body < 0 || end+body < end {
			break
		}
		off = end + body
	}
	// As a file: the footer's schema and the messages its blocks point to.
	const magic = "ARROW1"
	if len(data) < 10 || string(data[len(data)-6:]) != magic {
		return ""
	}
	size := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	if size <= 0 || size > len(data)-10 {
		return ""
	}
	f := &fbBuf{b: data[len(data)-10-size : len(data)-10]}
	root, ok := f.deref(0)
	if !ok {
		return ""
	}
	if p, ok := f.field(root, 1); ok {
		if s, ok := f.deref(p); ok && !f.schemaOK(s) {
			return "file footer schema has a flatbuffer vector longer than the input"
		}
	}
	for _, slot := range []int{2, 3} { // Footer.dictionaries, Footer.recordBatches
		start, n, _ := f.vector(root, slot, 24)
		for i := 0; i < n && i < 1024; i++ {
			p := start + 24*i
			if p+24 > len(f.b) {
				break
			}
			blockOff := int64(binary.LittleEndian.Uint64(f.b[p:]))
			if msg, _, ok := encapsulatedAt(data, blockOff); ok {
				if good, _ := messageOK(msg); !good {
					return fmt.Sprintf("file block %d/%d message has a flatbuffer vector longer than the input", slot, i)
				}
			}
		}
	}
	return ""
}
