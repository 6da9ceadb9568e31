package overlay

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"annotation", []string{"annotation"}},
		{"gtMask", []string{"gt", "mask"}},
		{"pred_seg-map", []string{"pred", "seg", "map"}},
		{"SegMap2", []string{"seg", "map2"}},
		{"RGB image", []string{"rgb", "image"}},
		{"", nil},
	} {
		if got := nameWords(c.name); !reflect.DeepEqual(got, c.want) {
			t.Errorf("nameWords(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"annotation", "annotation"}, {"labels", "labels"}, {"semantic_map", "semantic"},
		{"prediction", "prediction"}, {"targets", "targets"}, {"gt", "gt"}, {"gtMask", "gt"},
		{"segmentation", "segmentation"}, {"mask", "mask"}, {"image", ""}, {"depth", ""},
		{"agent", ""}, {"pixel_values", ""},
	} {
		if got := matchWord(c.name, MaskWords); got != c.want {
			t.Errorf("matchWord(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

var (
	u8  = arrow.PrimitiveTypes.Uint8
	f32 = arrow.PrimitiveTypes.Float32
)

// encoded is an encoded-image column whose header gave shape (nil: not
// read).
func encoded(name string, shape ...int) Column {
	return Column{Name: name, Image: true, Encoded: true, Shape: shape, ValueType: u8}
}

func tensorCol(name string, dt arrow.DataType, image bool, shape ...int) Column {
	return Column{Name: name, Image: image, Shape: shape, ValueType: dt}
}

func TestPairs(t *testing.T) {
	for _, c := range []struct {
		name string
		cols []Column
		want []Pair
	}{
		{
			// scene_parse_150 / ADE20K on the Hub: image and annotation,
			// both Image features; the annotation a grey PNG of class ids.
			"segmentation set, sizes from the headers",
			[]Column{encoded("image", 512, 683, 3), encoded("annotation", 512, 683, 1), {Name: "scene_category", ValueType: arrow.PrimitiveTypes.Int64}},
			[]Pair{{Mask: 1, Image: 0, Kind: ClassIDs, Height: 512, Width: 683, Score: 8, Suggested: true,
				Reason: `annotation: 512×683 uint8 class ids, same size as image; named like a mask ("annotation")`}},
		},
		{
			"segmentation set, headers not read yet",
			[]Column{encoded("image"), encoded("label")},
			[]Pair{{Mask: 1, Image: 0, Kind: ClassIDs, Height: -1, Width: -1, Score: 6, Suggested: true,
				Reason: `label: encoded image class ids, size known per row, checked when drawn; named like a mask ("label")`}},
		},
		{"sizes differ", []Column{encoded("image", 512, 512, 3), encoded("annotation", 256, 256, 1)}, nil},
		{"a colour-coded mask is no class-id mask", []Column{encoded("image", 8, 8, 3), encoded("mask", 8, 8, 3)}, nil},
		{
			// Tensors of one size: mask and target tie (8) and keep column
			// order; pred is probabilities (7); edges has no mask name (4)
			// and is not suggested; depth (float, no mask name) is not
			// proposed; an image-named grey tensor is no mask.
			"ranking and ties",
			[]Column{
				tensorCol("depth", f32, false, 224, 224),
				tensorCol("edges", u8, false, 224, 224),
				tensorCol("pred", f32, false, 1, 224, 224),
				tensorCol("image", u8, true, 224, 224, 3),
				tensorCol("mask", u8, false, 224, 224),
				tensorCol("target", arrow.FixedWidthTypes.Boolean, false, 224, 224),
				tensorCol("image_gray", u8, true, 224, 224),
				tensorCol("vector", f32, false, 224),
			},
			[]Pair{
				{Mask: 4, Image: 3, Kind: ClassIDs, Height: 224, Width: 224, Score: 8, Suggested: true,
					Reason: `mask: 224×224 uint8 class ids, same size as image; named like a mask ("mask")`},
				{Mask: 5, Image: 3, Kind: Binary, Height: 224, Width: 224, Score: 8,
					Reason: `target: 224×224 bool binary, same size as image; named like a mask ("target")`},
				{Mask: 2, Image: 3, Kind: Probabilities, Height: 224, Width: 224, Score: 7,
					Reason: `pred: 224×224 float32 probabilities, same size as image; named like a mask ("pred")`},
				{Mask: 1, Image: 3, Kind: ClassIDs, Height: 224, Width: 224, Score: 4,
					Reason: `edges: 224×224 uint8 class ids, same size as image`},
				{Mask: 4, Image: 6, Kind: ClassIDs, Height: 224, Width: 224, Score: 8, Suggested: true,
					Reason: `mask: 224×224 uint8 class ids, same size as image_gray; named like a mask ("mask")`},
				{Mask: 5, Image: 6, Kind: Binary, Height: 224, Width: 224, Score: 8,
					Reason: `target: 224×224 bool binary, same size as image_gray; named like a mask ("target")`},
				{Mask: 2, Image: 6, Kind: Probabilities, Height: 224, Width: 224, Score: 7,
					Reason: `pred: 224×224 float32 probabilities, same size as image_gray; named like a mask ("pred")`},
				{Mask: 1, Image: 6, Kind: ClassIDs, Height: 224, Width: 224, Score: 4,
					Reason: `edges: 224×224 uint8 class ids, same size as image_gray`},
			},
		},
		{
			// Two images of different sizes, each with its mask; the first
			// image has no image-like name (score 7, not 8).
			"two images",
			[]Column{
				tensorCol("left", u8, true, 4, 6, 3), tensorCol("right", u8, true, 5, 7, 3),
				tensorCol("left_seg", u8, false, 4, 6), tensorCol("right_seg", u8, false, 5, 7, 1),
			},
			[]Pair{
				{Mask: 2, Image: 0, Kind: ClassIDs, Height: 4, Width: 6, Score: 7, Suggested: true,
					Reason: `left_seg: 4×6 uint8 class ids, same size as left; named like a mask ("seg")`},
				{Mask: 3, Image: 1, Kind: ClassIDs, Height: 5, Width: 7, Score: 7, Suggested: true,
					Reason: `right_seg: 5×7 uint8 class ids, same size as right; named like a mask ("seg")`},
			},
		},
		{
			// A variable-shape mask beside a variable-shape image: known per
			// row only; unnamed, it is not proposed.
			"varying sizes",
			[]Column{tensorCol("photo", u8, true, -1, -1, 3), tensorCol("gt", u8, false, -1, -1), tensorCol("other", u8, false, -1, -1)},
			[]Pair{{Mask: 1, Image: 0, Kind: ClassIDs, Height: -1, Width: -1, Score: 6, Suggested: true,
				Reason: `gt: uint8 class ids, size known per row, checked when drawn; named like a mask ("gt")`}},
		},
		{
			// Without a mask-like name nothing is suggested.
			"nothing named",
			[]Column{tensorCol("image", u8, true, 3, 3, 3), tensorCol("counts", arrow.PrimitiveTypes.Int32, false, 3, 3)},
			[]Pair{{Mask: 1, Image: 0, Kind: ClassIDs, Height: 3, Width: 3, Score: 4,
				Reason: `counts: 3×3 int32 class ids, same size as image`}},
		},
		{"no image", []Column{tensorCol("mask", u8, false, 3, 3), tensorCol("label", u8, false, 3, 3)}, nil},
	} {
		if got := Pairs(c.cols); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	img := encoded("image", 512, 512, 3)
	for _, c := range []struct {
		name        string
		mask, image Column
		err         string
	}{
		{"size", encoded("annotation", 256, 256, 1), img, "annotation is 256×256 but image is 512×512 (height × width)"},
		{"transposed", tensorCol("mask", u8, false, 512, 256), tensorCol("image", u8, true, 256, 512, 3), "mask is 512×256 but image is 256×512 (height × width)"},
		{"colours", encoded("mask", 512, 512, 3), img, "mask: an image with 3 channels holds colours, not class ids"},
		{"strings", tensorCol("label", arrow.BinaryTypes.String, false, 512, 512), img, "label: utf8 values are no mask; need integer class ids, booleans or floating point probabilities"},
		{"volume", tensorCol("seg", u8, false, 4, 512, 512), img, "seg: shape [4 512 512] is no mask: it has 3 dimensions larger than 1; a mask has height × width and dimensions of size 1 only"},
		{"not an image", tensorCol("seg", u8, false, 8, 8), tensorCol("x", u8, false, 8, 8), "x is no image"},
		{"not a picture", tensorCol("seg", u8, false, 8, 8), tensorCol("x", arrow.BinaryTypes.String, true, 8, 8), "x is no image"},
	} {
		_, err := Match(c.mask, c.image)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	// The user may overlay any mask of matching size, even a depth map.
	p, err := Match(tensorCol("depth", f32, false, 512, 512), img)
	want := Pair{Kind: Probabilities, Height: 512, Width: 512, Score: 3, Reason: "depth: 512×512 float32 probabilities, same size as image"}
	if err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("depth: %+v, %v; want %+v", p, err, want)
	}
}
