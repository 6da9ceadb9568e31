package tensorext

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/extbase"
)

// VariableShapeTensorName is the extension name of the variable shape tensor
// type (CanonicalExtensions.rst, "Variable shape tensor").
const VariableShapeTensorName = "arrow.variable_shape_tensor"

// VaryingDim marks, in a uniform_shape, a dimension whose size varies from
// row to row (JSON null in the metadata).
const VaryingDim = -1

func init() {
	if err := arrow.RegisterExtensionType(&VariableShapeTensorType{}); err != nil {
		panic(err)
	}
}

// VariableShapeTensorType is the arrow.variable_shape_tensor extension type:
// every row is a tensor with ndim dimensions and a shape of its own, stored
// as Struct<data: List<value_type>, shape: FixedSizeList<int32>[ndim]>, the
// values row-major.
//
// Its parameters are the value type, ndim, and the optional dim_names and
// uniform_shape (physical order) and permutation (spec:
// CanonicalExtensions.rst, "Variable shape tensor").
type VariableShapeTensorType struct {
	arrow.ExtensionBase
	ndim         int
	dimNames     []string
	permutation  []int
	uniformShape []int // VaryingDim per varying dimension; nil when absent
	dataIdx      int   // index of the data field in the storage struct
	shapeIdx     int   // index of the shape field
	err          error // why the type is not valid; set by Deserialize
}

// NewVariableShapeTensorType returns the variable shape tensor type of the
// given value type and number of dimensions. permutation, dimNames and
// uniformShape may be nil; uniformShape has one entry per physical dimension,
// its size or VaryingDim. It returns an error for ndim < 1 (arrow-go has no FixedSizeList[0]), a
// permutation that is not one of [0, ndim), or dimNames or uniformShape of
// the wrong length.
func NewVariableShapeTensorType(valueType arrow.DataType, ndim int, permutation []int, dimNames []string, uniformShape []int) (*VariableShapeTensorType, error) {
	if valueType == nil {
		return nil, errors.New("tensorext: value type must not be nil")
	}
	if ndim <= 0 || ndim > int(^uint32(0)>>1) {
		// arrow.FixedSizeListOf rejects size 0, so arrow-go has no 0-D variable shape tensor.
		return nil, fmt.Errorf("tensorext: ndim must be positive, got %d", ndim)
	}
	storage := arrow.StructOf(
		arrow.Field{Name: "data", Type: arrow.ListOf(valueType), Nullable: true},
		arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(int32(ndim), arrow.PrimitiveTypes.Int32), Nullable: true},
	)
	t := &VariableShapeTensorType{
		ExtensionBase: arrow.ExtensionBase{Storage: storage},
		ndim:          ndim,
		permutation:   cloneInts(permutation),
		dimNames:      cloneStrings(dimNames),
		uniformShape:  cloneInts(uniformShape),
		shapeIdx:      1,
	}
	if err := t.checkParams(); err != nil {
		return nil, fmt.Errorf("tensorext: %w", err)
	}
	return t, nil
}

func (t *VariableShapeTensorType) checkParams() error {
	if err := checkPermutation(t.permutation, t.ndim); err != nil {
		return err
	}
	if err := checkDimNames(t.dimNames, t.ndim); err != nil {
		return err
	}
	if t.uniformShape != nil {
		if len(t.uniformShape) != t.ndim {
			return fmt.Errorf("uniform_shape size must match ndim. Expected: %d Got: %d", t.ndim, len(t.uniformShape))
		}
		for _, d := range t.uniformShape {
			if d < VaryingDim {
				return fmt.Errorf("uniform_shape must have non-negative values or null, got %d", d)
			}
		}
	}
	return nil
}

// ExtensionName returns "arrow.variable_shape_tensor".
func (*VariableShapeTensorType) ExtensionName() string { return VariableShapeTensorName }

// ValueType returns the data type of the tensor elements, or nil when the
// storage's data field is not a list.
func (t *VariableShapeTensorType) ValueType() arrow.DataType {
	st, ok := t.Storage.(*arrow.StructType)
	if !ok || t.dataIdx >= st.NumFields() {
		return nil
	}
	if l, ok := st.Field(t.dataIdx).Type.(arrow.ListLikeType); ok {
		return l.Elem()
	}
	return nil
}

// NDim returns the number of dimensions of every tensor.
func (t *VariableShapeTensorType) NDim() int { return t.ndim }

// DimNames returns the dimension names in physical order, or nil.
func (t *VariableShapeTensorType) DimNames() []string { return t.dimNames }

// Permutation returns the permutation from physical to logical layout, or nil.
func (t *VariableShapeTensorType) Permutation() []int { return t.permutation }

// UniformShape returns the size of each physical dimension that is the same
// in every row, VaryingDim for the others, or nil when absent (all vary).
func (t *VariableShapeTensorType) UniformShape() []int { return t.uniformShape }

// LogicalDimNames returns the dimension names in logical order, or nil.
func (t *VariableShapeTensorType) LogicalDimNames() []string {
	return permuteStrings(t.dimNames, t.permutation)
}

// Validate reports why the type does not conform to the spec: metadata that
// could not be parsed, a storage type that is not Struct<data: List,
// shape: FixedSizeList<int32>>, or parameters that disagree with ndim. It
// returns nil for a valid type. Rows are checked by ValidateFull.
func (t *VariableShapeTensorType) Validate() error { return t.err }

// Serialize returns the extension metadata JSON as Arrow C++ writes it: keys
// permutation, dim_names, uniform_shape in that order, absent ones left out,
// "{}" when none is set; a varying dimension of uniform_shape is null.
func (t *VariableShapeTensorType) Serialize() string {
	var parts []string
	if len(t.permutation) > 0 {
		parts = append(parts, `"permutation":`+FormatShape(t.permutation))
	}
	if len(t.dimNames) > 0 {
		var b strings.Builder
		writeJSONStrings(&b, t.dimNames)
		parts = append(parts, `"dim_names":`+b.String())
	}
	if t.uniformShape != nil {
		items := make([]string, len(t.uniformShape))
		for i, d := range t.uniformShape {
			if d == VaryingDim {
				items[i] = "null"
			} else {
				items[i] = fmt.Sprint(d)
			}
		}
		parts = append(parts, `"uniform_shape":[`+strings.Join(items, ",")+"]")
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Deserialize returns the type described by storage and metadata. It never
// returns an error (arrow-go fails a whole IPC schema read on one): it
// accepts the empty string, explicit nulls, unknown keys, the key
// "permutations", the draft keys "ndim" and "ragged_dimensions" and an
// unsigned shape list, and records any problem for Validate to report.
func (*VariableShapeTensorType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	t := &VariableShapeTensorType{ExtensionBase: arrow.ExtensionBase{Storage: storage}, shapeIdx: 1}
	t.err = t.parse(storage, data)
	return t, nil
}

func (t *VariableShapeTensorType) parse(storage arrow.DataType, data string) error {
	st, ok := storage.(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return fmt.Errorf("storage type must be Struct<data: List, shape: FixedSizeList<int32>>, got %s", storage)
	}
	if i, ok := st.FieldIdx("data"); ok {
		t.dataIdx, t.shapeIdx = i, 1-i
	}
	if _, ok := st.Field(t.dataIdx).Type.(arrow.ListLikeType); !ok || st.Field(t.dataIdx).Type.ID() == arrow.FIXED_SIZE_LIST {
		return fmt.Errorf("data field must be a List, got %s", st.Field(t.dataIdx).Type)
	}
	shape, ok := st.Field(t.shapeIdx).Type.(*arrow.FixedSizeListType)
	if !ok || !arrow.IsInteger(shape.Elem().ID()) {
		return fmt.Errorf("shape field must be FixedSizeList<int32>, got %s", st.Field(t.shapeIdx).Type)
	}
	t.ndim = int(shape.Len())

	obj, err := extbase.MetadataObject(data)
	if err != nil {
		return err
	}
	if t.permutation, t.dimNames, err = parseLayout(obj); err != nil {
		return err
	}
	if raw := obj["uniform_shape"]; !extbase.IsNull(raw) {
		if t.uniformShape, err = parseOptionalIntList("uniform_shape", raw); err != nil {
			return err
		}
	}
	if raw := obj["ndim"]; !extbase.IsNull(raw) { // draft key
		n, err := parseInt(raw)
		if err != nil {
			return fmt.Errorf("ndim must be an integer, got %s", extbase.Clip(raw))
		}
		if n != t.ndim {
			return fmt.Errorf("ndim (%d) does not match shape FixedSizeList size (%d)", n, t.ndim)
		}
	}
	if raw := obj["ragged_dimensions"]; !extbase.IsNull(raw) { // draft key
		dims, err := parseIntList("ragged_dimensions", raw)
		if err != nil {
			return err
		}
		for _, d := range dims {
			if d < 0 || d >= t.ndim {
				return fmt.Errorf("ragged_dimensions must be within [0, %d], got %s", t.ndim-1, FormatShape(dims))
			}
		}
	}
	return t.checkParams()
}

// ExtensionEquals reports whether other is a variable shape tensor type with
// the same storage, dim_names and uniform_shape and the same permutation, an
// identity permutation being equal to an absent one.
func (t *VariableShapeTensorType) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*VariableShapeTensorType)
	if !ok {
		return false
	}
	return arrow.TypeEqual(t.Storage, o.Storage) && t.ndim == o.ndim &&
		slices.Equal(t.dimNames, o.dimNames) && slices.Equal(t.uniformShape, o.uniformShape) &&
		equalPermutation(t.permutation, o.permutation)
}

// String returns the type as Arrow C++ prints it, for example
// extension<arrow.variable_shape_tensor[value_type=float32, ndim=3, dim_names=[H,W,C], uniform_shape=[null,null,3]]>.
func (t *VariableShapeTensorType) String() string {
	var b strings.Builder
	b.WriteString("extension<" + VariableShapeTensorName + "[value_type=")
	if vt := t.ValueType(); vt != nil {
		b.WriteString(vt.String())
	} else {
		b.WriteString("?")
	}
	fmt.Fprintf(&b, ", ndim=%d", t.ndim)
	if t.permutation != nil {
		b.WriteString(", permutation=" + FormatShape(t.permutation))
	}
	if t.dimNames != nil {
		b.WriteString(", dim_names=[" + strings.Join(t.dimNames, ",") + "]")
	}
	if t.uniformShape != nil {
		s := strings.ReplaceAll(FormatShape(t.uniformShape), "-1", "null")
		b.WriteString(", uniform_shape=" + s)
	}
	b.WriteString("]>")
	return b.String()
}

// ArrayType returns the type of VariableShapeTensorArray.
func (*VariableShapeTensorType) ArrayType() reflect.Type {
	return reflect.TypeOf(VariableShapeTensorArray{})
}

// NewBuilder returns a VariableShapeTensorBuilder (array.CustomExtensionBuilder).
func (t *VariableShapeTensorType) NewBuilder(mem memory.Allocator) array.Builder {
	return NewVariableShapeTensorBuilder(mem, t)
}

// VariableShapeTensorArray is an array of arrow.variable_shape_tensor: one
// tensor per row, each with its own shape, viewed without copying by Tensor.
type VariableShapeTensorArray struct {
	array.ExtensionArrayBase
	storage extbase.StorageCheck
}

// check returns the type's error, or a storage whose buffers cannot hold
// its rows; it looks at the buffers once.
func (a *VariableShapeTensorArray) check() error {
	if err := a.TensorType().err; err != nil {
		return err
	}
	return a.storage.Do(func() error { return extbase.CheckStorage(a.Storage()) })
}

// TensorType returns the array's extension type.
func (a *VariableShapeTensorArray) TensorType() *VariableShapeTensorType {
	return a.DataType().(*VariableShapeTensorType)
}

// Tensor returns the zero-copy physical view of row i, with the type's
// permutation. It returns ErrNullTensor for a null row (the struct or its data
// list null), the type's Validate error for an invalid type, and an error for
// a row whose shape is null or negative or whose data length is not the
// product of its shape. i must be in [0, Len()).
func (a *VariableShapeTensorArray) Tensor(i int) (Tensor, error) {
	var t Tensor
	err := a.TensorInto(&t, i)
	return t, err
}

// TensorInto is Tensor without allocating: it stores the view of row i in
// dst, reusing the storage of dst.Shape and dst.Strides when they have room
// for NDim entries. Errors are those of Tensor; dst is left unchanged then.
func (a *VariableShapeTensorArray) TensorInto(dst *Tensor, i int) error {
	typ := a.TensorType()
	if err := a.check(); err != nil {
		return err
	}
	st := a.Storage().(*array.Struct)
	data := st.Field(typ.dataIdx).(array.ListLike)
	if a.IsNull(i) || data.IsNull(i) {
		return ErrNullTensor
	}
	shapeList := st.Field(typ.shapeIdx).(*array.FixedSizeList)
	if shapeList.IsNull(i) {
		return rowError(i, "shape is null")
	}
	dims := shapeList.ListValues()
	s0, _ := shapeList.ValueOffsets(i)
	shape, strides := dst.Shape[:0], dst.Strides[:0]
	if cap(shape) < typ.ndim || cap(strides) < typ.ndim {
		shape, strides = make([]int, 0, typ.ndim), make([]int, 0, typ.ndim)
	}
	for k := 0; k < typ.ndim; k++ {
		pos := int(s0) + k
		if dims.IsNull(pos) {
			return rowError(i, "shape has a null dimension")
		}
		v, _ := numericValue(dims, pos)
		if v < 0 {
			return rowError(i, "shape must have non-negative values, got %d", int64(v))
		}
		shape = append(shape, int(v))
	}
	start, end := data.ValueOffsets(i)
	n, ok := product(shape)
	if !ok || int64(n) != end-start {
		return rowError(i, "Expected data array of length %d, got %d", n, end-start)
	}
	strides = strides[:typ.ndim]
	s := 1
	for k := typ.ndim - 1; k >= 0; k-- {
		strides[k] = s
		s *= shape[k]
	}
	*dst = Tensor{Values: data.ListValues(), Offset: int(start), Shape: shape, Strides: strides,
		DimNames: typ.dimNames, Permutation: typ.permutation}
	return nil
}

// ValidateFull checks the type (Validate) and every non-null row: its shape
// has no null or negative dimension, its data length is the product of its
// shape, and it agrees with uniform_shape. It returns the first problem.
func (a *VariableShapeTensorArray) ValidateFull() error {
	typ := a.TensorType()
	if err := a.check(); err != nil {
		return err
	}
	for i := 0; i < a.Len(); i++ {
		t, err := a.Tensor(i)
		if err == ErrNullTensor {
			continue
		}
		if err != nil {
			return err
		}
		for k, d := range typ.uniformShape {
			if d != VaryingDim && t.Shape[k] != d {
				return rowError(i, "shape %s does not match uniform_shape %s in dimension %d",
					FormatShape(t.Shape), strings.ReplaceAll(FormatShape(typ.uniformShape), "-1", "null"), k)
			}
		}
	}
	return nil
}

// ValueStr returns row i as nested values in physical order, or "(null)".
func (a *VariableShapeTensorArray) ValueStr(i int) string { return rowStr(a, a.Tensor, i) }

// String returns all rows, as ValueStr does, between brackets.
func (a *VariableShapeTensorArray) String() string { return extbase.ArrayString(a) }

// VariableShapeTensorBuilder builds a VariableShapeTensorArray row by row.
type VariableShapeTensorBuilder struct {
	*array.ExtensionBuilder
	typ *VariableShapeTensorType
}

// NewVariableShapeTensorBuilder returns a builder for arrays of typ.
func NewVariableShapeTensorBuilder(mem memory.Allocator, typ *VariableShapeTensorType) *VariableShapeTensorBuilder {
	return &VariableShapeTensorBuilder{ExtensionBuilder: array.NewExtensionBuilder(mem, typ), typ: typ}
}

// AppendTensor appends one row of the given physical shape. values is a Go
// slice of the value type's native element type with product(shape)
// elements in row-major order. It returns an error, appending nothing, when
// the shape has the wrong number of dimensions, a negative dimension, or
// does not match the length of values or the type's uniform_shape.
func (b *VariableShapeTensorBuilder) AppendTensor(shape []int, values any) error {
	if err := b.checkShape(shape, "shape"); err != nil {
		return err
	}
	st, data, shapes, err := b.storage()
	if err != nil {
		return err
	}
	want, _ := product(shape)
	n, ok := appendValues(data.ValueBuilder(), values, true)
	switch {
	case n != want && n >= 0:
		return fmt.Errorf("tensorext: Expected data array of length %d, got %d", want, n)
	case !ok:
		return fmt.Errorf("tensorext: cannot append %T to a tensor of %s", values, b.typ.ValueType())
	}
	startRow(st, data, shapes, shape)
	appendValues(data.ValueBuilder(), values, false)
	return nil
}

// checkShape reports why a row of this physical shape cannot be appended:
// the wrong number of dimensions, a negative or beyond-int32 dimension, or a
// disagreement with uniform_shape. what names the shape in messages.
func (b *VariableShapeTensorBuilder) checkShape(shape []int, what string) error {
	if len(shape) != b.typ.ndim {
		return fmt.Errorf("tensorext: shape %s must have %d dimensions", FormatShape(shape), b.typ.ndim)
	}
	for k, d := range shape {
		if d < 0 || d > int(^uint32(0)>>1) {
			return fmt.Errorf("tensorext: shape must have non-negative int32 values, got %d", d)
		}
		if b.typ.uniformShape != nil && b.typ.uniformShape[k] != VaryingDim && b.typ.uniformShape[k] != d {
			return fmt.Errorf("tensorext: %s %s does not match uniform_shape in dimension %d", what, FormatShape(shape), k)
		}
	}
	return nil
}

// storage returns the storage builders, honouring the data field's position
// in the storage struct; an error when they cannot take rows (a lenient
// type's storage with a non-list data field or a non-int32 shape).
func (b *VariableShapeTensorBuilder) storage() (*array.StructBuilder, array.ListLikeBuilder, *array.FixedSizeListBuilder, error) {
	st, ok := b.ExtensionBuilder.Builder.(*array.StructBuilder)
	if ok {
		data, ok1 := st.FieldBuilder(b.typ.dataIdx).(array.ListLikeBuilder)
		shapes, ok2 := st.FieldBuilder(b.typ.shapeIdx).(*array.FixedSizeListBuilder)
		if ok1 && ok2 {
			if _, ok := shapes.ValueBuilder().(*array.Int32Builder); ok {
				return st, data, shapes, nil
			}
		}
	}
	return nil, nil, nil, fmt.Errorf("tensorext: cannot append to storage %s", b.typ.Storage)
}

// startRow opens a valid row of the given shape; its values follow in
// data.ValueBuilder().
func startRow(st *array.StructBuilder, data array.ListLikeBuilder, shapes *array.FixedSizeListBuilder, shape []int) {
	st.Append(true)
	data.Append(true)
	shapes.Append(true)
	ib := shapes.ValueBuilder().(*array.Int32Builder)
	for _, d := range shape {
		ib.Append(int32(d))
	}
}

// Reserve makes room for n more rows (their validity, offsets and shapes),
// so that appending them does not reallocate; ReserveValues does the same
// for their elements.
func (b *VariableShapeTensorBuilder) Reserve(n int) {
	st := b.ExtensionBuilder.Builder.(*array.StructBuilder)
	st.Reserve(n)
	st.FieldBuilder(b.typ.shapeIdx).(*array.FixedSizeListBuilder).ValueBuilder().Reserve(n * b.typ.ndim)
}

// ReserveValues makes room for n more tensor elements in all.
func (b *VariableShapeTensorBuilder) ReserveValues(n int) {
	st := b.ExtensionBuilder.Builder.(*array.StructBuilder)
	if data, ok := st.FieldBuilder(b.typ.dataIdx).(array.ListLikeBuilder); ok {
		data.ValueBuilder().Reserve(n)
	}
}

// NewVariableShapeTensorArray returns the built array and resets the builder.
func (b *VariableShapeTensorBuilder) NewVariableShapeTensorArray() *VariableShapeTensorArray {
	return b.NewExtensionArray().(*VariableShapeTensorArray)
}

var (
	_ arrow.ExtensionType          = (*VariableShapeTensorType)(nil)
	_ array.CustomExtensionBuilder = (*VariableShapeTensorType)(nil)
	_ array.ExtensionArray         = (*VariableShapeTensorArray)(nil)
	_ array.Builder                = (*VariableShapeTensorBuilder)(nil)
)
