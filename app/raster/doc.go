// Package raster turns tensor views into images: the previews the viewer
// draws in its table cells. It is pure Go (no syscall/js) so it is tested
// natively.
//
// Entry points: FindPicture (picture.Find plus the Kind of picture),
// Preview and PreviewIn (a tensor drawn as its Picture, at most
// MaxPreviewSide or a given box a side), StripPreview (a long 1-D tensor
// as a strip), Range (the finite minimum and maximum), Fit (a picture's
// size scaled into MaxPreviewSide).
package raster
