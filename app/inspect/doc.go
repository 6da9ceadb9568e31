// Package inspect is the engine of the tensor inspector: it selects a 2-D
// picture from an n-D tensor (View, DefaultView), draws it one pixel per
// element through a colormap or as colour channels (Render, RenderInto,
// Colormaps, AutoRange), summarises a tensor (ComputeStats), reads values
// under the pointer (ValueAt, Neighbourhood) and exports a tensor as a NumPy
// .npy file (WriteNPY). Session holds the inspector's state on one tensor
// (layout, view, colormap, range, picture) with the commands the UI offers
// (NewSession, SetAxisY, SetIndex, SetColormap, SetRangeMode, …).
//
// It works on tensorext.Tensor views without copying values and is pure Go
// (no syscall/js), so it is tested natively. Dimension numbers always refer
// to the dimension order of the tensor passed in, usually its logical view
// (tensorext.Tensor.Logical).
package inspect
