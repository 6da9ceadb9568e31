// Package imagebytes decodes encoded images held in Arrow cells (PNG, JPEG,
// GIF, WebP: a binary column, or the bytes of a Hugging Face Image struct)
// into the tensors and previews the viewer shows. Entry points:
//
//   - Sniff: the format by magic number only.
//   - Config: format, size and channels from the header alone (cheap; for
//     "PNG 640×480 RGB" in a cell), as an Info, whose methods give the
//     decoded size (DecodedBytes), the memory (PeakBytes) and time
//     (EstimatedDecode) a decode costs.
//   - Decode: a height×width×channel uint8 tensorext.Tensor (DimNames, so
//     package picture finds the picture) over one *array.Uint8.
//   - DecodePreview: a thumbnail of at most maxSide pixels a side (area
//     filter; colour JPEGs and lossy WebPs are averaged plane by plane in
//     YCbCr), without building the full-size tensor.
//   - FitIn: the size of a picture sampled down into a box, the one rule
//     every preview of the viewer is sized by (package raster's too).
//   - MaskConfig, DecodeMask: a segmentation mask as class ids, the
//     values stored in a palette or grey PNG (not their colours): a
//     height×width uint8 or uint16 tensor (MaskDimNames) that package
//     overlay draws, and the palette's own colours for a legend. Other
//     images are refused with an error wrapping ErrNotMask.
//   - Limits and DefaultLimits: the largest image decoded; past them,
//     Decode, DecodePreview and DecodeMask refuse from the header
//     (image.DecodeConfig), before any pixel is decoded, with an error
//     wrapping ErrTooLarge.
//
// Decoders: the standard library's image/png, image/jpeg, image/gif and
// golang.org/x/image/webp (VP8, VP8L, VP8X with ALPH; not animated WebP).
//
// Channels (Info.Channels, the tensor's last dimension) follow the header,
// so that Config and Decode always agree:
//   - PNG: gray 1; truecolour 3; gray or truecolour with a tRNS chunk,
//     gray+alpha, truecolour+alpha 4; paletted 3, or 4 when the palette
//     (with tRNS) has an entry that is not opaque. 16-bit samples keep their
//     high byte (the PNG spec's simplest reduction, §12.5); 1, 2 and 4-bit
//     samples are scaled to 0..255 (by image/png).
//   - JPEG: gray 1, else 3 (YCbCr converted with JFIF's BT.601 full-range
//     matrix, color.YCbCrToRGB; Adobe RGB and CMYK/YCCK converted to RGB).
//   - GIF: the first frame only, drawn on the logical screen; 4 when its
//     Graphic Control Extension sets a transparent index or the frame does
//     not cover the screen (the rest is transparent), else 3.
//   - WebP: lossy VP8 3; lossless VP8L by its header's alpha_is_used hint
//     (RFC 9649 §3.2: 0 means every alpha is 255) 3 or 4; extended VP8X by
//     its alpha flag 3 or 4.
//
// Animated GIFs give their first frame; animated WebPs are refused by the
// decoder. When alpha is dropped (3 channels) the colour is kept as it is; alpha is
// always straight (not premultiplied), as in PNG and the canvas ImageData.
// Every function is pure Go (no syscall/js), never panics on any input and
// bounds every allocation by the Limits.
package imagebytes
