// Package boxes is the inspector's detection boxes, in plain Go: which
// columns of a file hold boxes, one row's boxes read and placed on its
// image in the format the file states (the guess or the user's), the boxes
// as the inspector's picture shows them, drawn and labelled, the labels
// under a pointer, and the boxes of the grid's thumbnails. package overlay
// holds the rules (formats, guesses, pairing); the ui's box controls hold
// the state.
//
// Entry points: Choices and ChoiceIndex (columns), Read (one row's Layer),
// Align, Draw, Labels and At (the inspector's picture), OnThumbnails and
// ThumbGeometry (the grid), Names, PictureSize, Edge, Formats.
package boxes
