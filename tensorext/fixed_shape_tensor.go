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

// FixedShapeTensorName is the extension name of the fixed shape tensor type
// (CanonicalExtensions.rst, "Fixed shape tensor").
const FixedShapeTensorName = "arrow.fixed_shape_tensor"

func init() {
	if err := arrow.RegisterExtensionType(&FixedShapeTensorType{}); err != nil {
		panic(err)
	}
}

// FixedShapeTensorType is the arrow.fixed_shape_tensor extension type: every
// row is a tensor of one physical shape, stored row-major in a
// FixedSizeList<value_type>[product(shape)].
//
// Its parameters are the value type, the physical shape, the optional
// dim_names (physical order) and the optional permutation that gives the
// logical layout (spec: CanonicalExtensions.rst, "Fixed shape tensor").
type FixedShapeTensorType struct {
	arrow.ExtensionBase
	shape       []int
	strides     []int
	dimNames    []string
	permutation []int
	err         error // why the type is not valid; set by Deserialize
}

// NewFixedShapeTensorType returns the fixed shape tensor type of the given
// value type and physical shape. permutation and dimNames may be nil. It
// returns an error when a dimension is negative, the element count does not
// fit a FixedSizeList (int32) or is 0 (arrow-go has no FixedSizeList[0]),
// permutation is not a permutation of
// [0, len(shape)) or dimNames does not have len(shape) names.
func NewFixedShapeTensorType(valueType arrow.DataType, shape, permutation []int, dimNames []string) (*FixedShapeTensorType, error) {
	if valueType == nil {
		return nil, errors.New("tensorext: value type must not be nil")
	}
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("tensorext: shape must have non-negative values, got %d", d)
		}
	}
	n, ok := product(shape)
	if !ok || n > int(^uint32(0)>>1) {
		return nil, fmt.Errorf("tensorext: product of shape dimensions %s does not fit a FixedSizeList size (int32)", FormatShape(shape))
	}
	if n == 0 {
		// arrow.FixedSizeListOf rejects size 0, so arrow-go cannot hold such a column.
		return nil, fmt.Errorf("tensorext: shape %s has no elements; arrow-go cannot build FixedSizeList[0]", FormatShape(shape))
	}
	t := &FixedShapeTensorType{
		ExtensionBase: arrow.ExtensionBase{Storage: arrow.FixedSizeListOf(int32(n), valueType)},
		shape:         append([]int{}, shape...),
		permutation:   cloneInts(permutation),
		dimNames:      cloneStrings(dimNames),
	}
	t.strides = rowMajorStrides(t.shape)
	if err := t.checkParams(); err != nil {
		return nil, fmt.Errorf("tensorext: %w", err)
	}
	return t, nil
}

func cloneInts(v []int) []int {
	if v == nil {
		return nil
	}
	return append([]int{}, v...)
}

func cloneStrings(v []string) []string {
	if v == nil {
		return nil
	}
	return append([]string{}, v...)
}

// checkParams validates permutation and dim_names against the shape.
func (t *FixedShapeTensorType) checkParams() error {
	if err := checkPermutation(t.permutation, len(t.shape)); err != nil {
		return err
	}
	return checkDimNames(t.dimNames, len(t.shape))
}

// ExtensionName returns "arrow.fixed_shape_tensor".
func (*FixedShapeTensorType) ExtensionName() string { return FixedShapeTensorName }

// ValueType returns the data type of the tensor elements, or nil when the
// storage is not a FixedSizeList.
func (t *FixedShapeTensorType) ValueType() arrow.DataType {
	if fsl, ok := t.Storage.(*arrow.FixedSizeListType); ok {
		return fsl.Elem()
	}
	return nil
}

// Shape returns the physical shape. The slice is shared: do not modify it.
func (t *FixedShapeTensorType) Shape() []int { return t.shape }

// Strides returns the physical row-major strides in elements. The slice is
// shared: do not modify it.
func (t *FixedShapeTensorType) Strides() []int { return t.strides }

// NDim returns the number of dimensions.
func (t *FixedShapeTensorType) NDim() int { return len(t.shape) }

// DimNames returns the dimension names in physical order, or nil.
func (t *FixedShapeTensorType) DimNames() []string { return t.dimNames }

// Permutation returns the permutation from physical to logical layout, or nil
// when absent.
func (t *FixedShapeTensorType) Permutation() []int { return t.permutation }

// LogicalShape returns the shape of the logical view: shape[permutation[i]].
func (t *FixedShapeTensorType) LogicalShape() []int { return permuteInts(t.shape, t.permutation) }

// LogicalDimNames returns the dimension names in logical order, or nil.
func (t *FixedShapeTensorType) LogicalDimNames() []string {
	return permuteStrings(t.dimNames, t.permutation)
}

// Validate reports why the type does not conform to the spec: metadata that
// could not be parsed, a storage type that is not a FixedSizeList, a shape
// whose product differs from the list size, an invalid permutation or
// dim_names of the wrong length. It returns nil for a valid type.
func (t *FixedShapeTensorType) Validate() error { return t.err }

// Serialize returns the extension metadata JSON as Arrow C++ writes it: keys
// shape, permutation, dim_names in that order, absent ones left out, for
// example {"shape":[2,3],"dim_names":["H","W"]}.
func (t *FixedShapeTensorType) Serialize() string {
	var b strings.Builder
	b.WriteString(`{"shape":`)
	b.WriteString(FormatShape(t.shape))
	if len(t.permutation) > 0 {
		b.WriteString(`,"permutation":`)
		b.WriteString(FormatShape(t.permutation))
	}
	if len(t.dimNames) > 0 {
		b.WriteString(`,"dim_names":`)
		writeJSONStrings(&b, t.dimNames)
	}
	b.WriteByte('}')
	return b.String()
}

// Deserialize returns the type described by storage and metadata. It never
// returns an error, because arrow-go fails a whole IPC schema read on one: it
// accepts the key "permutations" (arrow-rs) for "permutation", explicit nulls
// for absent parameters and unknown keys, and records any problem for
// Validate to report.
func (*FixedShapeTensorType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	t := &FixedShapeTensorType{ExtensionBase: arrow.ExtensionBase{Storage: storage}}
	t.err = t.parse(storage, data)
	return t, nil
}

func (t *FixedShapeTensorType) parse(storage arrow.DataType, data string) error {
	obj, err := extbase.MetadataObject(data)
	if err != nil {
		return err
	}
	if raw, ok := obj["shape"]; ok && !extbase.IsNull(raw) {
		if t.shape, err = parseIntList("shape", raw); err != nil {
			return err
		}
	} else {
		return errors.New(`extension metadata has no "shape"`)
	}
	t.strides = rowMajorStrides(t.shape)
	if t.permutation, t.dimNames, err = parseLayout(obj); err != nil {
		return err
	}
	fsl, ok := storage.(*arrow.FixedSizeListType)
	if !ok {
		return fmt.Errorf("storage type must be FixedSizeList, got %s", storage)
	}
	for _, d := range t.shape {
		if d < 0 {
			return fmt.Errorf("shape must have non-negative values, got %d", d)
		}
	}
	n, ok := product(t.shape)
	if !ok {
		return fmt.Errorf("Product of shape dimensions %s overflows; it must match FixedSizeList size (%d)", FormatShape(t.shape), fsl.Len())
	}
	if n != int(fsl.Len()) {
		return fmt.Errorf("Product of shape dimensions (%d) does not match FixedSizeList size (%d)", n, fsl.Len())
	}
	return t.checkParams()
}

// ExtensionEquals reports whether other is a fixed shape tensor type with the
// same storage, shape and dim_names, and the same permutation, an identity
// permutation being equal to an absent one.
func (t *FixedShapeTensorType) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*FixedShapeTensorType)
	if !ok {
		return false
	}
	return arrow.TypeEqual(t.Storage, o.Storage) && slices.Equal(t.shape, o.shape) &&
		slices.Equal(t.dimNames, o.dimNames) && equalPermutation(t.permutation, o.permutation)
}

func equalPermutation(a, b []int) bool {
	if a == nil || b == nil {
		return isIdentity(a) && isIdentity(b)
	}
	return slices.Equal(a, b)
}

// String returns the type as Arrow C++ prints it, for example
// extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[4,3,3], dim_names=[H,W,C]]>.
func (t *FixedShapeTensorType) String() string {
	var b strings.Builder
	b.WriteString("extension<" + FixedShapeTensorName + "[value_type=")
	if vt := t.ValueType(); vt != nil {
		b.WriteString(vt.String())
	} else {
		b.WriteString("?")
	}
	b.WriteString(", shape=" + FormatShape(t.shape))
	if t.permutation != nil {
		b.WriteString(", permutation=" + FormatShape(t.permutation))
	}
	if t.dimNames != nil {
		b.WriteString(", dim_names=[" + strings.Join(t.dimNames, ",") + "]")
	}
	b.WriteString("]>")
	return b.String()
}

// ArrayType returns the type of FixedShapeTensorArray.
func (*FixedShapeTensorType) ArrayType() reflect.Type { return reflect.TypeOf(FixedShapeTensorArray{}) }

// NewBuilder returns a FixedShapeTensorBuilder (array.CustomExtensionBuilder).
func (t *FixedShapeTensorType) NewBuilder(mem memory.Allocator) array.Builder {
	return NewFixedShapeTensorBuilder(mem, t)
}

// FixedShapeTensorArray is an array of arrow.fixed_shape_tensor: one tensor
// per row, each viewed without copying by Tensor.
type FixedShapeTensorArray struct {
	array.ExtensionArrayBase
	storage extbase.StorageCheck
}

// check returns the type's error, or a storage whose buffers cannot hold
// its rows; it looks at the buffers once.
func (a *FixedShapeTensorArray) check() error {
	if err := a.TensorType().err; err != nil {
		return err
	}
	return a.storage.Do(func() error { return extbase.CheckStorage(a.Storage()) })
}

// TensorType returns the array's extension type.
func (a *FixedShapeTensorArray) TensorType() *FixedShapeTensorType {
	return a.DataType().(*FixedShapeTensorType)
}

// Tensor returns the zero-copy physical view of row i (with the type's
// permutation, so Tensor(i).Logical() is the logical view). It returns
// ErrNullTensor for a null row and the type's Validate error for an invalid
// type. i must be in [0, Len()).
func (a *FixedShapeTensorArray) Tensor(i int) (Tensor, error) {
	typ := a.TensorType()
	if err := a.check(); err != nil {
		return Tensor{}, err
	}
	if a.IsNull(i) {
		return Tensor{}, ErrNullTensor
	}
	fsl := a.Storage().(*array.FixedSizeList)
	start, _ := fsl.ValueOffsets(i)
	return tensorAt(fsl.ListValues(), int(start), typ.shape, typ.strides, typ.dimNames, typ.permutation), nil
}

// ValidateFull checks the type (Validate) and that the storage's buffers
// hold Len()*product(shape) values.
func (a *FixedShapeTensorArray) ValidateFull() error {
	if err := a.check(); err != nil {
		return err
	}
	return nil
}

// ValueStr returns row i as nested values, for example "[[1 2] [3 4]]" in
// physical order, or "(null)".
func (a *FixedShapeTensorArray) ValueStr(i int) string { return rowStr(a, a.Tensor, i) }

// String returns all rows, as ValueStr does, between brackets.
func (a *FixedShapeTensorArray) String() string { return extbase.ArrayString(a) }

// FixedShapeTensorBuilder builds a FixedShapeTensorArray row by row.
type FixedShapeTensorBuilder struct {
	*array.ExtensionBuilder
	typ *FixedShapeTensorType
}

// NewFixedShapeTensorBuilder returns a builder for arrays of typ.
func NewFixedShapeTensorBuilder(mem memory.Allocator, typ *FixedShapeTensorType) *FixedShapeTensorBuilder {
	return &FixedShapeTensorBuilder{ExtensionBuilder: array.NewExtensionBuilder(mem, typ), typ: typ}
}

func (b *FixedShapeTensorBuilder) list() *array.FixedSizeListBuilder {
	return b.ExtensionBuilder.Builder.(*array.FixedSizeListBuilder)
}

// ValueBuilder returns the builder of the flat values, for callers that
// append a row's values themselves after Append(true).
func (b *FixedShapeTensorBuilder) ValueBuilder() array.Builder { return b.list().ValueBuilder() }

// Append starts a row (valid) or appends a null row (!valid). After
// Append(true) exactly product(shape) values must be appended to
// ValueBuilder.
func (b *FixedShapeTensorBuilder) Append(valid bool) {
	if valid {
		b.list().Append(true)
	} else {
		b.list().AppendNull()
	}
}

// AppendTensor appends one row. values is a Go slice of the value type's
// native element type ([]uint8 for uint8, []float16.Num for float16,
// []float32 for float32, []bool for bool, ...) with product(shape) elements
// in physical row-major order. It returns an error, appending nothing, when
// the length or the Go type is wrong. Other value types (decimal, temporal,
// fixed-size binary) are appended through Append(true) and ValueBuilder.
func (b *FixedShapeTensorBuilder) AppendTensor(values any) error {
	want, _ := product(b.typ.shape)
	vb := b.ValueBuilder()
	n, ok := appendValues(vb, values, true)
	switch {
	case n != want && n >= 0:
		return fmt.Errorf("tensorext: Expected data array of length %d, got %d", want, n)
	case !ok:
		return fmt.Errorf("tensorext: cannot append %T to a tensor of %s", values, b.typ.ValueType())
	}
	b.list().Append(true)
	appendValues(vb, values, false)
	return nil
}

// AppendTensors appends k rows at once from one Go slice holding
// k×product(shape) elements, row after row, each row-major: the fast way to
// build large columns (one call, no per-row work). It returns an error,
// appending nothing, when the length is not a multiple of product(shape) or
// the Go type does not match the value type.
func (b *FixedShapeTensorBuilder) AppendTensors(values any) error {
	per, _ := product(b.typ.shape)
	vb := b.ValueBuilder()
	n, ok := appendValues(vb, values, true)
	switch {
	case n >= 0 && n%per != 0:
		return fmt.Errorf("tensorext: %d values do not make whole tensors of %d elements", n, per)
	case !ok:
		return fmt.Errorf("tensorext: cannot append %T to a tensor of %s", values, b.typ.ValueType())
	}
	rows := n / per
	valid := make([]bool, rows)
	for i := range valid {
		valid[i] = true
	}
	b.list().AppendValues(valid)
	appendValues(vb, values, false)
	return nil
}

// Reserve makes room for n more rows and their values, so that appending
// them does not reallocate.
func (b *FixedShapeTensorBuilder) Reserve(n int) {
	per, _ := product(b.typ.shape)
	b.list().Reserve(n)
	b.ValueBuilder().Reserve(n * per)
}

// NewFixedShapeTensorArray returns the built array and resets the builder.
func (b *FixedShapeTensorBuilder) NewFixedShapeTensorArray() *FixedShapeTensorArray {
	return b.NewExtensionArray().(*FixedShapeTensorArray)
}

var (
	_ arrow.ExtensionType          = (*FixedShapeTensorType)(nil)
	_ array.CustomExtensionBuilder = (*FixedShapeTensorType)(nil)
	_ array.ExtensionArray         = (*FixedShapeTensorArray)(nil)
	_ array.Builder                = (*FixedShapeTensorBuilder)(nil)
)
