// Package overlay is the engine of overlays and comparisons:
// segmentation masks and detection boxes drawn over images, and the
// difference of two tensors. It is pure Go (no syscall/js), works on
// tensorext.Tensor views through their accessors, and is tested natively.
//
// Masks:
//   - Column, Pairs, Match: which columns are masks of which image columns
//     (shapes, value types and names; MaskWords, ImageWords), each Pair with
//     a Score, whether to draw it by default (Suggested) and a Reason.
//   - KindOf, MaskAxes: how a mask's values and dimensions are read.
//   - Style, DefaultStyle, Blend: a mask blended into an *image.RGBA
//     (opacity, outline, hidden classes, threshold, palette); MaskValue for
//     the readout; CountClasses and Style.Legend for the legend.
//   - HasVoid, VoidID, Style.For, MaskLabel: PASCAL VOC's void 255, hidden
//     by default and called "void"; Unnamed: ids past the file's names.
//   - Layer, Over: a mask's classes painted at another size (nearest
//     neighbour, the rule of the thumbnails) and blended as Blend does,
//     for the grid's thumbnails.
//
// Classes:
//   - VOC (the default Palette: PASCAL VOC's label colour map), BoxColor.
//   - ClassNames (Hugging Face ClassLabel names from the schema's
//     "huggingface" metadata), NamesFor, DictionaryNames; ClassName and Label
//     (`3 "car"`; ids past the names as numbers).
//
// Boxes:
//   - FindBoxes: whether an Arrow field holds detection boxes (BoxLayout:
//     struct of lists, list of structs, list of boxes, one box; a box a list
//     of 4 numbers or a struct of four named ones) and the format its
//     metadata, name or field names state (BoxColumn.StatedFormat);
//     ReadBoxes: one row's RawBoxes.
//   - BoxFormat (XYWH, XYXY, CXCYWHN, XYXYN, CXCYWH), ParseBoxFormat,
//     GuessBoxFormat (a guess and its reason).
//   - Place: boxes in pixel corners clipped to the image, with counts of
//     clipped, outside and invalid boxes and per-box errors; Box.PixelRect,
//     DrawBox (exact edge pixels), Box.Label, Box.Color.
//
// Compare:
//   - Diff: A − B as a float64 tensor with max |A−B| and where, mean |A−B|,
//     RMSE, PSNR and the number of differing elements beyond a tolerance;
//     Difference.Range and DiffColormap for its picture (inspect's
//     "coolwarm", symmetric about 0).
//   - Candidates: the columns of a row a tensor can be compared with (same
//     logical shape and value type first, ranked by CompareWords), and how
//     the others differ; TimesShape writes a shape as "5×12×16".
package overlay
