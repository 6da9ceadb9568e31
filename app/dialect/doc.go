// Package dialect reads tensors stored in Arrow columns that are not the
// canonical tensor extension types: other producers' extension types (Ray
// Data, Hugging Face datasets, Daft), plain nested FixedSizeList and List
// columns (Polars Array, DuckDB ARRAY, embeddings; List<List<…>> of
// numbers, what a FixedSizeList becomes in a Parquet file without its
// Arrow schema, a tensor per rectangular row), and value types the
// canonical types may hold that arrow-go does not know (Lance's bfloat16).
//
// Each dialect is one Adapter in one file; the registry (Register, Detect)
// tries them in order of their Priority. An adapter maps a column onto the
// same zero-copy tensorext.Tensor views the canonical types give, so the
// viewer's previews, inspector, statistics and .npy export work unchanged.
// The canonical types in package tensorext stay as the spec defines them.
//
// Nothing here executes anything from a file: pickled metadata is never
// unpickled (see pickle.go for the data-only reader of a tuple of ints).
//
// It is pure Go (no syscall/js).
//
// Entry points:
//   - Detect: how a field is read as tensors (a *Column), or why a column
//     that looks like a dialect is shown as its storage.
//   - Column.Tensor: one row of a column's array as a tensorext.Tensor.
//   - Register, Adapter, Input: the registry and what adapters see.
package dialect
