package overlay

import (
	"maps"
	"strconv"
)

// VoidID is the class id that marks "void" pixels (object boundaries and
// regions left unlabelled, which no class is scored on) in PASCAL VOC's
// segmentation masks: the VOC2012 development kit's SegmentationClass
// PNGs are paletted, index 255 drawn in the palette's (224, 224, 192), and
// its evaluation (VOCevalseg.m) skips label 255. Datasets that follow it
// do the same with 8-bit masks: Cityscapes' trainIds (cityscapesScripts
// labels.py: ignoreInEval classes get trainId 255), COCO-Stuff's label
// PNGs (255 unlabelled), and ADE20K / scene_parse_150 once its background
// 0 is "reduced" to 255 (mmsegmentation's reduce_zero_label; Hugging Face
// image processors' do_reduce_labels); scene_parse_150's files themselves
// hold 0 for "other objects", which class 0's default covers.
const VoidID = 255

// IDSource is where a mask's class ids come from, for HasVoid.
type IDSource int

const (
	// OtherIDs: any other value type (uint16, int32, …), where 255 is a
	// class like any other.
	OtherIDs IDSource = iota
	// Uint8IDs: a uint8 tensor or a grey PNG of up to 8 bits.
	Uint8IDs
	// PaletteIDs: a paletted PNG's indices, VOC's own format.
	PaletteIDs
)

// voidMaxClass bounds the other ids of a uint8 mask whose 255 is void: the
// datasets that mark void with 255 have at most 182 classes (COCO-Stuff's
// ids run to 181), while a grey picture or a soft mask read as ids runs
// up to 255.
const voidMaxClass = 200

// HasVoid reports whether a mask's id 255 marks void pixels, so that it is
// hidden by default and called "void" (the rule; see VoidID for the
// conventions it follows):
//   - the ids are 8-bit (src is Uint8IDs or PaletteIDs: 255 in a uint16 or
//     int64 mask is a class);
//   - 255 is present (counts, as CountClasses gives them) and names (the
//     file's class names, nil when none) do not name it;
//   - for Uint8IDs, also some id other than 0 and 255 is present and every
//     id other than 255 is below 200: a binary mask stored as 0 and 255
//     keeps 255 as its foreground, and a grey picture or an 8-bit soft mask
//     read as ids keeps all its levels. A paletted PNG needs neither: its
//     binary masks are 0 and 1.
func HasVoid(src IDSource, counts []ClassCount, names []string) bool {
	if src == OtherIDs || len(names) > VoidID {
		return false
	}
	void, other := false, false
	for _, c := range counts {
		switch {
		case c.ID == VoidID:
			void = true
		case c.ID >= voidMaxClass:
			if src == Uint8IDs {
				return false
			}
		case c.ID != 0:
			other = true
		}
	}
	return void && (other || src == PaletteIDs)
}

// For returns the style a mask is drawn with, void telling whether its id
// 255 is void (HasVoid): s with Hidden holding also 255 when void and not
// ShowVoid. s is left as it is.
func (s Style) For(void bool) Style {
	if !void || s.ShowVoid || s.Hidden[VoidID] {
		return s
	}
	h := maps.Clone(s.Hidden)
	if h == nil {
		h = map[int64]bool{}
	}
	h[VoidID] = true
	s.Hidden = h
	return s
}

// MaskLabel is the text the legend and the readout show for class id of a
// mask whose 255 is void (void) or not: Label's, or "255 (void)".
func MaskLabel(names []string, void bool, id int64) string {
	if void && id == VoidID {
		return strconv.Itoa(VoidID) + " (void)"
	}
	return Label(names, id)
}

// Unnamed returns the ids of counts that names (the file's class names)
// do not name, in order: ids past the end of names or negative; none when
// the file names no class (names nil), and not the void id of a mask whose
// 255 is void.
func Unnamed(counts []ClassCount, names []string, void bool) []int64 {
	if names == nil {
		return nil
	}
	var out []int64
	for _, c := range counts {
		if (c.ID < 0 || c.ID >= int64(len(names))) && !(void && c.ID == VoidID) {
			out = append(out, c.ID)
		}
	}
	return out
}
