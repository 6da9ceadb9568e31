package overlay

import (
	"image"
	"image/color"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestParseBoxFormat(t *testing.T) {
	for _, c := range []struct {
		s    string
		want BoxFormat
		ok   bool
	}{
		{"coco", XYWH, true}, {"XYWH", XYWH, true}, {"ltwh", XYWH, true},
		{"pascal_voc", XYXY, true}, {"Pascal VOC", XYXY, true}, {"xyxy", XYXY, true}, {"ltrb", XYXY, true},
		{"yolo", CXCYWHN, true}, {"cxcywhn", CXCYWHN, true},
		{"albumentations", XYXYN, true}, {"xyxyn", XYXYN, true},
		{"cxcywh", CXCYWH, true}, {" CXCYWH ", CXCYWH, true},
		// Keras / Croissant cr:format, detectron2's BoxMode
		{"CENTER_XYWH", CXCYWH, true}, {"REL_XYXY", XYXYN, true}, {"XYXY_ABS", XYXY, true}, {"XYWH_ABS", XYWH, true}, {"XYXY_REL", XYXYN, true},
		{"REL_XYWH", UnknownFormat, false}, {"YXYX", UnknownFormat, false}, {"REL_YXYX", UnknownFormat, false},
		{"", UnknownFormat, false}, {"xy", UnknownFormat, false}, {"polygon", UnknownFormat, false},
	} {
		got, ok := ParseBoxFormat(c.s)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseBoxFormat(%q) = %v, %v; want %v, %v", c.s, got, ok, c.want, c.ok)
		}
	}
	for _, f := range []BoxFormat{XYWH, XYXY, CXCYWHN, XYXYN, CXCYWH} {
		if g, ok := ParseBoxFormat(f.String()); !ok || g != f {
			t.Errorf("%v does not round-trip", f)
		}
	}
	if UnknownFormat.String() != "unknown" || !CXCYWHN.Normalised() || !XYXYN.Normalised() || XYWH.Normalised() {
		t.Error("String / Normalised")
	}
}

var (
	f32Box = arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32)
	// cppe5Type is the objects column of cppe-5 as Hugging Face writes it:
	// a Sequence of {id, area, bbox (length 4), category}, stored as a
	// struct of lists.
	cppe5Type = arrow.StructOf(
		arrow.Field{Name: "id", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		arrow.Field{Name: "area", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		arrow.Field{Name: "bbox", Type: arrow.ListOf(f32Box), Nullable: true},
		arrow.Field{Name: "category", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	)
	listOfStructs = arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "bbox", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
		arrow.Field{Name: "category_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	))
)

func fromJSON(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Release)
	return a
}

func TestFindBoxes(t *testing.T) {
	meta := func(k, v string) arrow.Metadata { return arrow.NewMetadata([]string{k}, []string{v}) }
	for _, c := range []struct {
		name string
		f    arrow.Field
		want BoxColumn
		ok   bool
	}{
		{"cppe-5 objects", arrow.Field{Name: "objects", Type: cppe5Type},
			BoxColumn{Name: "objects", Layout: StructOfLists, BBox: "bbox", Category: "category", Area: "area"}, true},
		{"list of structs", arrow.Field{Name: "annotations", Type: listOfStructs},
			BoxColumn{Name: "annotations", Layout: ListOfStructs, BBox: "bbox", Category: "category_id"}, true},
		{"list of boxes with metadata", arrow.Field{Name: "boxes", Type: arrow.ListOf(arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float64)), Metadata: meta("bbox_format", "pascal_voc")},
			BoxColumn{Name: "boxes", Layout: ListOfBoxes, Format: XYXY, FormatWhy: `from the file's metadata: field boxes has bbox_format = "pascal_voc"`}, true},
		{"format in the name", arrow.Field{Name: "pred_boxes_xyxy", Type: arrow.LargeListOf(arrow.ListOf(arrow.PrimitiveTypes.Float32))},
			BoxColumn{Name: "pred_boxes_xyxy", Layout: ListOfBoxes, Format: XYXY, FormatWhy: "from the name pred_boxes_xyxy (xyxy)"}, true},
		{"one box", arrow.Field{Name: "bbox", Type: f32Box},
			BoxColumn{Name: "bbox", Layout: OneBox}, true},
		{"format on the box field", arrow.Field{Name: "objects", Type: arrow.StructOf(
			arrow.Field{Name: "bboxes", Type: arrow.ListOf(f32Box), Metadata: meta("format", "YOLO")},
			arrow.Field{Name: "label", Type: arrow.ListOf(arrow.BinaryTypes.String)})},
			BoxColumn{Name: "objects", Layout: StructOfLists, BBox: "bboxes", Category: "label", Format: CXCYWHN, FormatWhy: `from the file's metadata: field bboxes has format = "YOLO"`}, true},
		{"unnamed quadruples", arrow.Field{Name: "quaternions", Type: arrow.ListOf(f32Box)}, BoxColumn{}, false},
		{"three numbers", arrow.Field{Name: "bbox", Type: arrow.ListOf(arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32))}, BoxColumn{}, false},
		{"strings", arrow.Field{Name: "boxes", Type: arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String))}, BoxColumn{}, false},
		{"struct without boxes", arrow.Field{Name: "objects", Type: arrow.StructOf(arrow.Field{Name: "category", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)})}, BoxColumn{}, false},
		{"a number", arrow.Field{Name: "box", Type: arrow.PrimitiveTypes.Int64}, BoxColumn{}, false},
	} {
		got, ok := FindBoxes(c.f)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if p := (BoxColumn{Name: "objects", Category: "category"}).CategoryPath(); p != "objects.category" {
		t.Errorf("CategoryPath = %q", p)
	}
}

// rawBox is a RawBox with a category and no area.
func rawBox(a, b, c, d float64, cat int64) RawBox {
	return RawBox{Coords: [4]float64{a, b, c, d}, Category: cat, HasCategory: true, Area: math.NaN()}
}

// sameBoxes compares RawBoxes, NaN equal to NaN.
func sameBoxes(a, b []RawBox) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		for k := range 4 {
			if !same(x.Coords[k], y.Coords[k]) {
				return false
			}
		}
		x.Coords, y.Coords = [4]float64{}, [4]float64{}
		if !same(x.Area, y.Area) {
			return false
		}
		x.Area, y.Area = 0, 0
		if x != y {
			return false
		}
	}
	return true
}

func TestReadBoxes(t *testing.T) {
	nan := math.NaN()
	// cppe-5's first training example (Hugging Face's object detection
	// guide), a null row, and a row with a null box, a null number and a
	// short category list.
	objects := fromJSON(t, cppe5Type, `[
		{"id": [114, 115, 116, 117], "area": [3796, 1596, 152768, 81002],
		 "bbox": [[302, 109, 73, 52], [810, 100, 57, 28], [160, 31, 248, 616], [741, 68, 202, 401]],
		 "category": [4, 4, 0, 0]},
		null,
		{"id": [], "area": [], "bbox": [null, [1, null, 3, 4]], "category": [1]}]`)
	bc, _ := FindBoxes(arrow.Field{Name: "objects", Type: cppe5Type})
	got, err := ReadBoxes(bc, objects, 0)
	want := []RawBox{
		{Coords: [4]float64{302, 109, 73, 52}, Category: 4, HasCategory: true, Area: 3796},
		{Coords: [4]float64{810, 100, 57, 28}, Category: 4, HasCategory: true, Area: 1596},
		{Coords: [4]float64{160, 31, 248, 616}, Category: 0, HasCategory: true, Area: 152768},
		{Coords: [4]float64{741, 68, 202, 401}, Category: 0, HasCategory: true, Area: 81002},
	}
	if err != nil || !sameBoxes(got, want) {
		t.Errorf("cppe-5 row 0: %+v, %v", got, err)
	}
	if _, err := ReadBoxes(bc, objects, 1); err == nil || err.Error() != "overlay: objects is null in row 1" {
		t.Errorf("null row: %v", err)
	}
	if _, err := ReadBoxes(bc, objects, 3); err == nil || err.Error() != "overlay: row 3 outside objects's 3 rows" {
		t.Errorf("row 3: %v", err)
	}
	got, err = ReadBoxes(bc, objects, 2)
	want = []RawBox{{Err: "null", Category: 1, HasCategory: true, Area: nan}, {Coords: [4]float64{1, nan, 3, 4}, Area: nan}}
	if err != nil || !sameBoxes(got, want) {
		t.Errorf("row 2: %+v, %v", got, err)
	}

	// A list of structs: a null struct, three numbers, a null category.
	ann := fromJSON(t, listOfStructs, `[[{"bbox": [1, 2, 3, 4], "category_id": 7}, null, {"bbox": [1, 2, 3], "category_id": null}], []]`)
	bc, _ = FindBoxes(arrow.Field{Name: "annotations", Type: listOfStructs})
	got, err = ReadBoxes(bc, ann, 0)
	want = []RawBox{rawBox(1, 2, 3, 4, 7), {Err: "null", Area: nan}, {Err: "3 numbers, want 4", Area: nan}}
	if err != nil || !sameBoxes(got, want) {
		t.Errorf("list of structs: %+v, %v", got, err)
	}
	if got, err = ReadBoxes(bc, ann, 1); err != nil || len(got) != 0 {
		t.Errorf("empty row: %+v, %v", got, err)
	}

	// Plain boxes and one box.
	lob := arrow.ListOf(arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float64))
	boxes := fromJSON(t, lob, `[[[0.5, 0.5, 0.25, 0.125], [0, 0, 1, 1]]]`)
	bc, _ = FindBoxes(arrow.Field{Name: "boxes", Type: lob})
	got, err = ReadBoxes(bc, boxes, 0)
	want = []RawBox{{Coords: [4]float64{0.5, 0.5, 0.25, 0.125}, Area: nan}, {Coords: [4]float64{0, 0, 1, 1}, Area: nan}}
	if err != nil || !sameBoxes(got, want) {
		t.Errorf("list of boxes: %+v, %v", got, err)
	}
	one := fromJSON(t, f32Box, `[[1.5, 2, 3, 4]]`)
	bc, _ = FindBoxes(arrow.Field{Name: "bbox", Type: f32Box})
	got, err = ReadBoxes(bc, one, 0)
	if err != nil || !sameBoxes(got, []RawBox{{Coords: [4]float64{1.5, 2, 3, 4}, Area: nan}}) {
		t.Errorf("one box: %+v, %v", got, err)
	}
	// The array is not what FindBoxes saw.
	if _, err := ReadBoxes(bc, objects, 0); err == nil || err.Error() != "overlay: bbox is not one box as expected" {
		t.Errorf("wrong array: %v", err)
	}
}

func TestReadBoxCategories(t *testing.T) {
	// Categories as dictionary values and as strings.
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	for _, catType := range []arrow.DataType{dictType, arrow.BinaryTypes.String} {
		typ := arrow.StructOf(
			arrow.Field{Name: "bbox", Type: arrow.ListOf(f32Box), Nullable: true},
			arrow.Field{Name: "labels", Type: arrow.ListOf(catType), Nullable: true})
		b := array.NewStructBuilder(memory.DefaultAllocator, typ)
		b.Append(true)
		bb := b.FieldBuilder(0).(*array.ListBuilder)
		bb.Append(true)
		fb := bb.ValueBuilder().(*array.FixedSizeListBuilder)
		for range 3 {
			fb.Append(true)
			fb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, 2, 3, 4}, nil)
		}
		lb := b.FieldBuilder(1).(*array.ListBuilder)
		lb.Append(true)
		switch vb := lb.ValueBuilder().(type) {
		case *array.BinaryDictionaryBuilder:
			for _, s := range []string{"car", "person", "car"} {
				if err := vb.AppendString(s); err != nil {
					t.Fatal(err)
				}
			}
		case *array.StringBuilder:
			vb.AppendValues([]string{"car", "person", "car"}, nil)
		}
		arr := b.NewArray()
		b.Release()
		bc, ok := FindBoxes(arrow.Field{Name: "objects", Type: typ})
		if !ok {
			t.Fatalf("%v: not found", catType)
		}
		got, err := ReadBoxes(bc, arr, 0)
		arr.Release()
		if err != nil || len(got) != 3 {
			t.Fatalf("%v: %+v, %v", catType, got, err)
		}
		var cats []string
		for _, r := range got {
			cats = append(cats, r.CategoryText)
		}
		if !reflect.DeepEqual(cats, []string{"car", "person", "car"}) {
			t.Errorf("%v: categories %q", catType, cats)
		}
		ids := []int64{got[0].Category, got[1].Category, got[2].Category}
		if catType == dictType && (!got[0].HasCategory || !reflect.DeepEqual(ids, []int64{0, 1, 0})) {
			t.Errorf("dictionary ids %v", ids)
		}
		if catType != dictType && got[0].HasCategory {
			t.Error("string categories have ids")
		}
	}
}

func boxesOf(coords ...[4]float64) []RawBox {
	out := make([]RawBox, len(coords))
	for i, c := range coords {
		out[i] = RawBox{Coords: c, Area: math.NaN()}
	}
	return out
}

func TestGuessBoxFormat(t *testing.T) {
	cppe5 := []RawBox{
		{Coords: [4]float64{302, 109, 73, 52}, Area: 3796},
		{Coords: [4]float64{810, 100, 57, 28}, Area: 1596},
		{Coords: [4]float64{160, 31, 248, 616}, Area: 152768},
		{Coords: [4]float64{741, 68, 202, 401}, Area: 81002},
	}
	nan := math.NaN()
	for _, c := range []struct {
		name string
		b    []RawBox
		w, h int
		want BoxFormat
		why  string
	}{
		{"cppe-5 with areas", cppe5, 943, 663, XYWH, "the stored areas equal width × height (box 0: 73 × 52 = 3796): COCO xywh"},
		{"cppe-5 without areas", boxesOf(cppe5[0].Coords, cppe5[1].Coords), 943, 663, XYWH, "box 0's third number 73 < first 302 cannot be corners: COCO xywh"},
		{"corners that overflow as sizes", boxesOf([4]float64{500, 100, 900, 600}, [4]float64{10, 10, 20, 20}), 943, 663, XYXY,
			"box 0 read as x, y, width, height would end at (1400, 700), beyond the 943×663 image; as corners every box fits: Pascal VOC xyxy"},
		{"either way", boxesOf([4]float64{10, 10, 100, 100}), 943, 663, XYWH, "every box fits the 943×663 image either way: COCO xywh (Hugging Face's layout) assumed"},
		{"beyond the image both ways", boxesOf([4]float64{800, 10, 1000, 50}), 943, 663, XYWH, "nothing tells xywh from xyxy: COCO xywh (Hugging Face's layout) assumed"},
		{"size unknown", boxesOf([4]float64{500, 100, 900, 600}), 0, 0, XYWH, "nothing tells xywh from xyxy: COCO xywh (Hugging Face's layout) assumed"},
		{"YOLO", boxesOf([4]float64{0.5, 0.5, 0.2, 0.3}), 640, 480, CXCYWHN, "every number is within 0..1 and box 0's third number 0.2 < first 0.5 cannot be corners: YOLO centre and size"},
		{"normalised corners", boxesOf([4]float64{0.1, 0.2, 0.6, 0.9}), 640, 480, XYXYN, "every number is within 0..1 and box 0 would reach beyond the image as a centre and size: normalised corners"},
		{"normalised, both fit", boxesOf([4]float64{0.3, 0.3, 0.4, 0.4}), 640, 480, CXCYWHN, "every number is within 0..1 and both normalised layouts fit: YOLO centre and size assumed"},
		{"NaN and unreadable boxes are ignored", append(boxesOf([4]float64{nan, 900, 5, 5}, [4]float64{0.5, 0.5, 0.2, 0.3}), RawBox{Err: "null"}), 0, 0, CXCYWHN,
			"every number is within 0..1 and box 1's third number 0.2 < first 0.5 cannot be corners: YOLO centre and size"},
		{"nothing readable", boxesOf([4]float64{nan, 1, 2, 3}), 10, 10, XYWH, "no readable box: COCO xywh assumed"},
	} {
		f, why := GuessBoxFormat(c.b, c.w, c.h)
		if f != c.want || why != c.why {
			t.Errorf("%s: %v %q\n want %v %q", c.name, f, why, c.want, c.why)
		}
	}
}

func TestPlaceFormats(t *testing.T) {
	// The same box, x 8..24 and y 8..24 on a 64×32 image, in every format.
	for _, c := range []struct {
		f BoxFormat
		c [4]float64
	}{
		{XYWH, [4]float64{8, 8, 16, 16}},
		{XYXY, [4]float64{8, 8, 24, 24}},
		{CXCYWHN, [4]float64{0.25, 0.5, 0.25, 0.5}},
		{XYXYN, [4]float64{0.125, 0.25, 0.375, 0.75}},
		{CXCYWH, [4]float64{16, 16, 16, 16}},
	} {
		p, err := Place([]RawBox{rawBox(c.c[0], c.c[1], c.c[2], c.c[3], 3)}, c.f, 64, 32)
		want := Placed{Boxes: []Box{{Index: 0, X0: 8, Y0: 8, X1: 24, Y1: 24, Category: 3, HasCategory: true}}}
		if err != nil || !reflect.DeepEqual(p, want) {
			t.Errorf("%v: %+v, %v", c.f, p, err)
		}
	}
}

func TestPlaceBadBoxes(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	in := append(boxesOf(
		[4]float64{10, 10, 5, 5},     // 0 fine
		[4]float64{nan, 10, 5, 5},    // 1 NaN
		[4]float64{10, 10, inf, 5},   // 2 infinite
		[4]float64{10, 10, -5, 5},    // 3 negative width
		[4]float64{10, 10, 5, -1},    // 4 negative height
		[4]float64{100, 10, 5, 5},    // 5 right of the image
		[4]float64{-20, 10, 5, 5},    // 6 left of it
		[4]float64{-5, 10, 5, 5},     // 7 touches x = 0 from outside
		[4]float64{0, 10, 0, 5},      // 8 zero width at x = 0: drawn
		[4]float64{-5, -5, 20, 20},   // 9 clipped at the top left
		[4]float64{90, 40, 20, 20},   // 10 clipped at the bottom right
		[4]float64{10, 49.5, 0, 0.5}, // 11 within the last row
	), RawBox{Err: "null"}) // 12
	p, err := Place(in, XYWH, 100, 50)
	if err != nil {
		t.Fatal(err)
	}
	want := Placed{
		Boxes: []Box{
			{Index: 0, X0: 10, Y0: 10, X1: 15, Y1: 15},
			{Index: 8, X0: 0, Y0: 10, X1: 0, Y1: 15},
			{Index: 9, X0: 0, Y0: 0, X1: 15, Y1: 15, Clipped: true},
			{Index: 10, X0: 90, Y0: 40, X1: 100, Y1: 50, Clipped: true},
			{Index: 11, X0: 10, Y0: 49.5, X1: 10, Y1: 50},
		},
		Clipped: 2, Outside: 3, Invalid: 5,
		Errors: []BoxError{
			{1, "a coordinate is not finite: [NaN 10 5 5]"},
			{2, "a coordinate is not finite: [10 10 +Inf 5]"},
			{3, "negative width -5 (xywh [10 10 -5 5])"},
			{4, "negative height -1 (xywh [10 10 5 -1])"},
			{5, "outside the 100×50 image: x 100..105, y 10..15"},
			{6, "outside the 100×50 image: x -20..-15, y 10..15"},
			{7, "outside the 100×50 image: x -5..0, y 10..15"},
			{12, "null"},
		},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got\n%+v\nwant\n%+v", p, want)
	}
	if got := p.Errors[2].Error(); got != "box 3: negative width -5 (xywh [10 10 -5 5])" {
		t.Errorf("BoxError.Error = %q", got)
	}
	// Negative sizes in the other formats.
	p, _ = Place(boxesOf([4]float64{30, 10, 20, 40}, [4]float64{0.5, 0.5, -0.1, 0.2}), XYXY, 100, 50)
	if p.Invalid != 2 || p.Errors[0].Err != "negative width -10 (xyxy [30 10 20 40])" {
		t.Errorf("xyxy: %+v", p)
	}
	for _, c := range []struct {
		w, h int
		f    BoxFormat
		err  string
	}{
		{0, 10, XYWH, "overlay: cannot place boxes on a 0×10 image"},
		{10, 10, UnknownFormat, "overlay: cannot place boxes of an unknown format"},
	} {
		if _, err := Place(nil, c.f, c.w, c.h); err == nil || err.Error() != c.err {
			t.Errorf("Place(%d, %d, %v): %v", c.w, c.h, c.f, err)
		}
	}
}

func TestPixelRect(t *testing.T) {
	for _, c := range []struct {
		b    Box
		want image.Rectangle
	}{
		{Box{X0: 10, Y0: 5, X1: 20, Y1: 8}, image.Rect(10, 5, 20, 8)},
		{Box{X0: 10.5, Y0: 5, X1: 20.2, Y1: 8}, image.Rect(10, 5, 21, 8)},
		{Box{X0: 3, Y0: 3, X1: 3, Y1: 3}, image.Rect(3, 3, 4, 4)},       // a point: one pixel
		{Box{X0: 0, Y0: 49.5, X1: 0, Y1: 50}, image.Rect(0, 49, 1, 50)}, // zero width at x = 0
		{Box{X0: 95, Y0: 45, X1: 100, Y1: 50}, image.Rect(95, 45, 100, 50)},
		{Box{X0: 100, Y0: 50, X1: 100, Y1: 50}, image.Rectangle{}}, // past the corner: nothing
	} {
		if got := c.b.PixelRect(100, 50); got != c.want {
			t.Errorf("PixelRect(%+v) = %v, want %v", c.b, got, c.want)
		}
	}
}

func TestDrawBox(t *testing.T) {
	red := color.RGBA{255, 0, 0, 255}
	for _, c := range []struct {
		name string
		b    Box
		t    int
		want string
	}{
		{"1 px", Box{X0: 1, Y0: 1, X1: 6, Y1: 5}, 1, "........|.#####..|.#...#..|.#...#..|.#####..|........|"},
		{"2 px", Box{X0: 1, Y0: 0, X1: 7, Y1: 6}, 2, ".######.|.######.|.##..##.|.##..##.|.######.|.######.|"},
		{"0 is 1", Box{X0: 1, Y0: 1, X1: 6, Y1: 5}, 0, "........|.#####..|.#...#..|.#...#..|.#####..|........|"},
		{"fractional corners", Box{X0: 0.5, Y0: 0.5, X1: 2.2, Y1: 2.9}, 1, "###.....|#.#.....|###.....|........|........|........|"},
		{"narrower than 2t is filled", Box{X0: 2, Y0: 1, X1: 5, Y1: 4}, 2, "........|..###...|..###...|..###...|........|........|"},
		{"a line", Box{X0: 3, Y0: 1, X1: 3, Y1: 4}, 1, "........|...#....|...#....|...#....|........|........|"},
		{"at the edges", Box{X0: 0, Y0: 0, X1: 8, Y1: 6}, 1, "########|#......#|#......#|#......#|#......#|########|"},
	} {
		img := filled(8, 6, base)
		DrawBox(img, c.b, red, c.t)
		if got := painted(img, red); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	// Onto a sub-image: box coordinates are relative to its Min.
	big := filled(8, 6, base)
	sub := big.SubImage(image.Rect(3, 2, 8, 6)).(*image.RGBA)
	DrawBox(sub, Box{X0: 0, Y0: 0, X1: 2, Y1: 2}, red, 1)
	if got, want := painted(big, red), "........|........|...##...|...##...|........|........|"; got != want {
		t.Errorf("sub-image:\n got %s\nwant %s", got, want)
	}
}

func TestBoxLabelAndColor(t *testing.T) {
	for _, c := range []struct {
		b    Box
		want string
	}{
		{Box{Index: 2, Category: 4, HasCategory: true}, "#2 Mask"},
		{Box{Index: 0, Category: 0, HasCategory: true}, "#0 Coverall"},
		{Box{Index: 3, Category: 9, HasCategory: true}, "#3 9"},
		{Box{Index: 1}, "#1"},
		{Box{Index: 5, CategoryText: "car"}, "#5 car"},
		{Box{Index: 6, Category: 1, HasCategory: true, CategoryText: "person"}, "#6 Face_Shield"},
		{Box{Index: 7, Category: 7, HasCategory: true, CategoryText: "person"}, "#7 person"},
	} {
		if got := c.b.Label(cppe5Names); got != c.want {
			t.Errorf("Label(%+v) = %q, want %q", c.b, got, c.want)
		}
	}
	if (Box{Category: 4, HasCategory: true}).Color() != VOC(5) || (Box{}).Color() != VOC(1) {
		t.Error("Box.Color")
	}
}

var (
	// vgObject is an element of Visual Genome's objects (the Hub's loading
	// script: {object_id, x, y, w, h, names, synsets}).
	vgObject = arrow.StructOf(
		arrow.Field{Name: "object_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "w", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "h", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "names", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "synsets", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	)
	// cornersStruct is a box of named corners, as a CSV of YouTube-BB
	// rows becomes once grouped.
	cornersStruct = arrow.StructOf(
		arrow.Field{Name: "XMin", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "XMax", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "YMin", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "YMax", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "class", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	)
)

// TestFindNamedBoxes: boxes as structs of named numbers, in a list or one a
// row, and Hugging Face datasets 4's List of a dict; what they state.
func TestFindNamedBoxes(t *testing.T) {
	meta := arrow.NewMetadata([]string{"bbox_format"}, []string{"REL_XYXY"})
	hf4 := arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "bbox", Type: f32Box, Nullable: true},
		arrow.Field{Name: "category", Type: arrow.PrimitiveTypes.Int64, Nullable: true}))
	for _, c := range []struct {
		name string
		f    arrow.Field
		want BoxColumn
		ok   bool
	}{
		{"datasets 4 List of a dict", arrow.Field{Name: "objects", Type: hf4},
			BoxColumn{Name: "objects", Layout: ListOfStructs, BBox: "bbox", Category: "category"}, true},
		{"Visual Genome objects", arrow.Field{Name: "objects", Type: arrow.ListOf(vgObject)},
			BoxColumn{Name: "objects", Layout: ListOfStructs, Category: "names", Fields: [4]string{"x", "y", "w", "h"},
				Format: XYWH, FieldsFormat: true, FormatWhy: "from the box's field names x, y, w, h"}, true},
		{"one named box a row", arrow.Field{Name: "subject", Type: vgObject},
			BoxColumn{Name: "subject", Layout: OneBox, Category: "names", Fields: [4]string{"x", "y", "w", "h"},
				Format: XYWH, FieldsFormat: true, FormatWhy: "from the box's field names x, y, w, h"}, true},
		{"named corners, any case", arrow.Field{Name: "region", Type: cornersStruct},
			BoxColumn{Name: "region", Layout: OneBox, Category: "class", Fields: [4]string{"XMin", "YMin", "XMax", "YMax"},
				Format: XYXY, FieldsFormat: true, FormatWhy: "from the box's field names XMin, YMin, XMax, YMax"}, true},
		{"metadata over names", arrow.Field{Name: "region", Type: cornersStruct, Metadata: meta},
			BoxColumn{Name: "region", Layout: OneBox, Category: "class", Fields: [4]string{"XMin", "YMin", "XMax", "YMax"},
				Format: XYXYN, FormatWhy: `from the file's metadata: field region has bbox_format = "REL_XYXY"`}, true},
		{"centre and size", arrow.Field{Name: "b", Type: arrow.StructOf(
			arrow.Field{Name: "cx", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "cy", Type: arrow.PrimitiveTypes.Float32},
			arrow.Field{Name: "width", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "height", Type: arrow.PrimitiveTypes.Float32})},
			BoxColumn{Name: "b", Layout: OneBox, Fields: [4]string{"cx", "cy", "width", "height"},
				Format: CXCYWH, FieldsFormat: true, FormatWhy: "from the box's field names cx, cy, width, height"}, true},
		{"a point", arrow.Field{Name: "p", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float32})}, BoxColumn{}, false},
		{"names as text", arrow.Field{Name: "p", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float32},
			arrow.Field{Name: "w", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "h", Type: arrow.PrimitiveTypes.Float32})}, BoxColumn{}, false},
		{"a list of points", arrow.Field{Name: "keypoints", Type: arrow.ListOf(arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float32}))}, BoxColumn{}, false},
	} {
		got, ok := FindBoxes(c.f)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestReadNamedBoxes: Visual Genome's objects and one box a row, with their
// names; a null element; the unit named corners take from their numbers.
func TestReadNamedBoxes(t *testing.T) {
	nan := math.NaN()
	lt := arrow.ListOf(vgObject)
	objs := fromJSON(t, lt, `[[
		{"object_id": 1058498, "x": 421, "y": 91, "w": 79, "h": 339, "names": ["clock"], "synsets": ["clock.n.01"]},
		null,
		{"object_id": 5046, "x": 77, "y": 328, "w": 714, "h": 262, "names": ["street", "road"], "synsets": []},
		{"object_id": 7, "x": null, "y": 1, "w": 2, "h": 3, "names": null, "synsets": null}]]`)
	bc, _ := FindBoxes(arrow.Field{Name: "objects", Type: lt})
	got, err := ReadBoxes(bc, objs, 0)
	want := []RawBox{
		{Coords: [4]float64{421, 91, 79, 339}, CategoryText: "clock", Area: nan},
		{Err: "null", Area: nan},
		{Coords: [4]float64{77, 328, 714, 262}, CategoryText: "street, road", Area: nan},
		{Coords: [4]float64{nan, 1, 2, 3}, Area: nan},
	}
	if err != nil || !sameBoxes(got, want) {
		t.Errorf("objects: %+v, %v", got, err)
	}
	if f, why := bc.StatedFormat(got); f != XYWH || why != "from the box's field names x, y, w, h" {
		t.Errorf("objects' format %v, %q", f, why)
	}

	one := fromJSON(t, vgObject, `[{"object_id": 1, "x": 5, "y": 6, "w": 7, "h": 8, "names": ["shade"], "synsets": []}, null]`)
	bc, _ = FindBoxes(arrow.Field{Name: "subject", Type: vgObject})
	if got, err := ReadBoxes(bc, one, 0); err != nil || !sameBoxes(got, []RawBox{{Coords: [4]float64{5, 6, 7, 8}, CategoryText: "shade", Area: nan}}) {
		t.Errorf("subject: %+v, %v", got, err)
	}
	if _, err := ReadBoxes(bc, one, 1); err == nil || err.Error() != "overlay: subject is null in row 1" {
		t.Errorf("null subject: %v", err)
	}
	if _, err := ReadBoxes(bc, objs, 0); err == nil || err.Error() != "overlay: subject is not one box as expected" {
		t.Errorf("wrong array: %v", err)
	}

	// Named corners: pixels, or normalised when every number is within
	// 0..1 (a NaN box does not count); metadata is never overridden.
	corners := fromJSON(t, cornersStruct, `[{"XMin": 0.25, "XMax": 0.75, "YMin": 0, "YMax": 1, "class": 3},
		{"XMin": 10, "XMax": 20, "YMin": 4, "YMax": 9, "class": 0}, {"XMin": null, "XMax": 3, "YMin": 0, "YMax": 1, "class": null}]`)
	bc, _ = FindBoxes(arrow.Field{Name: "region", Type: cornersStruct})
	for _, c := range []struct {
		rows []int
		f    BoxFormat
		why  string
	}{
		{[]int{0}, XYXYN, "from the box's field names XMin, YMin, XMax, YMax, normalised as every number is within 0..1"},
		{[]int{0, 2}, XYXYN, "from the box's field names XMin, YMin, XMax, YMax, normalised as every number is within 0..1"},
		{[]int{0, 1}, XYXY, "from the box's field names XMin, YMin, XMax, YMax"},
		{[]int{2}, XYXY, "from the box's field names XMin, YMin, XMax, YMax"},
	} {
		var raw []RawBox
		for _, r := range c.rows {
			b, err := ReadBoxes(bc, corners, r)
			if err != nil {
				t.Fatal(err)
			}
			raw = append(raw, b...)
		}
		if f, why := bc.StatedFormat(raw); f != c.f || why != c.why {
			t.Errorf("rows %v: %v, %q; want %v, %q", c.rows, f, why, c.f, c.why)
		}
	}
	if b, _ := ReadBoxes(bc, corners, 0); !sameBoxes(b, []RawBox{rawBox(0.25, 0, 0.75, 1, 3)}) {
		t.Errorf("corners in the format's order: %+v", b)
	}
	bc.Format, bc.FormatWhy, bc.FieldsFormat = XYXY, "from the file's metadata", false
	if f, _ := bc.StatedFormat([]RawBox{rawBox(0.25, 0, 0.75, 1, 3)}); f != XYXY {
		t.Errorf("metadata's format read as %v", f)
	}
}
