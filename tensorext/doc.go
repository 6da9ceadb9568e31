// Package tensorext implements the Apache Arrow canonical tensor extension
// types for arrow-go:
//
//   - arrow.fixed_shape_tensor (FixedShapeTensorType, FixedShapeTensorArray,
//     FixedShapeTensorBuilder): every row is a tensor of one shape, stored as
//     FixedSizeList<value_type>[product(shape)].
//   - arrow.variable_shape_tensor (VariableShapeTensorType,
//     VariableShapeTensorArray, VariableShapeTensorBuilder): every row is a
//     tensor with the same number of dimensions but its own shape, stored as
//     Struct<data: List<value_type>, shape: FixedSizeList<int32>[ndim]>.
//
// It holds the canonical types only: arrow.turtle, a dev-list proposal that
// was never made canonical, is in app/turtle.
//
// The tensor types are specified in the Arrow format documentation, "Canonical Extension
// Types" (docs/source/format/CanonicalExtensions.rst), sections "Fixed shape
// tensor" and "Variable shape tensor".
//
// Importing the package registers the two types with
// arrow.RegisterExtensionType, so arrow-go's IPC and Parquet readers return
// FixedShapeTensorArray and VariableShapeTensorArray columns for fields
// carrying the extension names.
//
// # Physical and logical layout
//
// Values are stored row-major ("C order"): the physical shape and dim_names
// describe that layout. The optional permutation gives the logical layout:
// logical dimension i is physical dimension permutation[i], exactly as
// numpy.transpose(physical, permutation). A Tensor is a zero-copy strided view
// of one row; Tensor.Logical returns the permuted view without copying.
//
// # Conversions
//
// Between tensor views, flat arrays, arrow-go tensors, strided Go buffers and
// the two tensor types, one file each: iterate.go (the strided block walk
// every copy uses), flat.go, arrowtensor.go, strided.go, fixedvariable.go.
// All follow the spec's logical layout ("Canonical Extension Types › Fixed
// shape tensor" and "› Variable shape tensor"): values row-major in the
// physical shape, the logical view numpy.transpose(physical, permutation).
//
// # Leniency and validation
//
// arrow-go fails a whole IPC schema read when a registered extension type's
// Deserialize returns an error. Deserialize therefore never fails: it accepts
// every producer's metadata (Arrow C++/pyarrow, arrow-rs's "permutations" key
// and explicit nulls, the spec's empty string, unknown keys, draft keys) and
// records anything it cannot accept. Validate reports that problem, and
// ValidateFull additionally checks every row of an array.
//
// # float16
//
// arrow-go v18.8.0 decodes float16 subnormals wrongly (float16.Num.Float32
// reads bits 0x0001 as about 1.1e-41, not 2^-24) and rounds by truncation
// (float16.New). Float16ToFloat64 and Float16FromFloat64 convert exactly
// (ties to even); the package's views, readers and texts read float16
// with Float16ToFloat64, and ValueStr is arrow-go's ValueStr with float16
// exact at any depth of a nested array (float16.go, valuestr.go).
package tensorext
