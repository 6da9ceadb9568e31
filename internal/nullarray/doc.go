// Package nullarray makes arrays whose every value is null, of any Arrow
// type, from zeroed buffers.
//
// It does what arrow-go's array.MakeArrayOfNull does without linking
// arrow-go's builders into the wasm: MakeArrayOfNull builds run-end encoded
// arrays with array.NewBuilder, which keeps every builder of every type (and
// their JSON decoders) alive, 2.1 MB of the page's wasm (make size). The
// tests compare every layout with array.MakeArrayOfNull.
//
// Entry point: Make (n null values of any type).
package nullarray
