// Package picture is the one rule that finds the picture in a tensor: which
// dimensions are its rows (height), columns (width) and colour channels.
// The table's previews (package raster) and the inspector's first view
// (package inspect) both follow it, so a tensor looks the same in both.
// It is pure Go and works on a shape with its dim_names, usually the
// logical view's (tensorext.Tensor.Logical).
//
// Entry points: Find (shape, dim_names and value type → Axes: the
// height, width and channel dimensions, or none), ColourChannels (whether
// n channels are a colour picture), RowNames/ColumnNames/ChannelNames (the
// dim_names it recognises).
package picture
