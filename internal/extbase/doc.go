// Package extbase holds what tensorview's extension types share: the
// canonical tensor types of tensorext and the arrow.turtle type of
// app/turtle. Entry points:
//
//   - MetadataObject, IsNull, Clip: reading extension metadata, a JSON
//     object, leniently (the empty string is an object without keys; absent
//     and null values are the same), and quoting it in errors;
//   - CheckStorage: an extension array's storage checked against its
//     buffers (lengths, offsets, children; arrow-go trusts buffers read from
//     IPC) and by arrow-go's array.ValidateFull, a panic there counting as
//     malformed storage;
//   - StorageCheck: that check run once per array;
//   - ArrayString: an extension array's String, every row's ValueStr in
//     brackets.
package extbase
