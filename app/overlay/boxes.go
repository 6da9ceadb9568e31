package overlay

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/dialect"
	"github.com/tensorview/tensorview/tensorext"
)

// BoxFormat is how a box's four numbers locate it. Pixel coordinates are
// continuous with the origin at the top left corner of the image, pixel
// (i, j) covering [i, i+1) × [j, j+1); normalised ones are divided by the
// image's width (x) and height (y).
type BoxFormat int

const (
	// UnknownFormat: neither the file nor the caller says.
	UnknownFormat BoxFormat = iota
	// XYWH is COCO's [x_min, y_min, width, height] in pixels ("bbox" in the
	// COCO data format, https://cocodataset.org/#format-data; the layout of
	// Hugging Face detection sets' objects.bbox, for example cppe-5 in
	// https://huggingface.co/docs/datasets/object_detection).
	XYWH
	// XYXY is Pascal VOC's [x_min, y_min, x_max, y_max] in pixels (as
	// albumentations' "pascal_voc" and torchvision's XYXY take it; the VOC
	// XML files' own 1-based inclusive indices come out one pixel to the
	// right and below).
	XYXY
	// CXCYWHN is YOLO's [x_centre, y_centre, width, height], normalised
	// (Ultralytics' label format, https://docs.ultralytics.com/datasets/detect/).
	CXCYWHN
	// XYXYN is [x_min, y_min, x_max, y_max] normalised (albumentations'
	// "albumentations" format).
	XYXYN
	// CXCYWH is [x_centre, y_centre, width, height] in pixels (torchvision's
	// BoundingBoxFormat.CXCYWH); never guessed.
	CXCYWH
)

// String returns the format's name as ParseBoxFormat reads it: "xywh",
// "xyxy", "cxcywhn", "xyxyn", "cxcywh" ("unknown").
func (f BoxFormat) String() string {
	switch f {
	case XYWH:
		return "xywh"
	case XYXY:
		return "xyxy"
	case CXCYWHN:
		return "cxcywhn"
	case XYXYN:
		return "xyxyn"
	case CXCYWH:
		return "cxcywh"
	}
	return "unknown"
}

// Normalised reports whether the format's numbers are fractions of the
// image's size.
func (f BoxFormat) Normalised() bool { return f == CXCYWHN || f == XYXYN }

// ParseBoxFormat reads a format's name, case-insensitively and ignoring
// spaces, '_' and '-': the names String gives (torchvision's
// BoundingBoxFormat XYXY, XYWH, CXCYWH among them), the names of
// albumentations and tools ("coco", "pascal_voc", "voc", "yolo",
// "albumentations"), "ltwh", "ltrb", the Keras bounding box formats that
// Croissant's cr:format takes for a cr:BoundingBox (Croissant 1.1, "Bounding
// boxes": XYXY, XYWH, CENTER_XYWH, REL_XYXY) and detectron2's BoxMode names
// (XYXY_ABS, XYWH_ABS, XYXY_REL). ok is false for anything else, such as
// the y-first and normalised-xywh formats (YXYX, REL_XYWH), which are not
// drawn.
func ParseBoxFormat(s string) (f BoxFormat, ok bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
	switch s {
	case "xywh", "coco", "ltwh", "xywhabs":
		return XYWH, true
	case "xyxy", "pascalvoc", "voc", "ltrb", "xyxyabs":
		return XYXY, true
	case "cxcywhn", "yolo":
		return CXCYWHN, true
	case "xyxyn", "albumentations", "relxyxy", "xyxyrel":
		return XYXYN, true
	case "cxcywh", "centerxywh":
		return CXCYWH, true
	}
	return UnknownFormat, false
}

// BoxLayout is how a column holds a row's boxes.
type BoxLayout int

const (
	// StructOfLists: struct<bbox: list<box>, category: list<int>, …>, as
	// Hugging Face writes a Sequence of a dict (cppe-5's objects).
	StructOfLists BoxLayout = iota + 1
	// ListOfStructs: list<struct<bbox: box, category: int, …>>.
	ListOfStructs
	// ListOfBoxes: list<box> in a column named like boxes.
	ListOfBoxes
	// OneBox: a single box per row in a column named like a box.
	OneBox
)

// String names the layout: "struct of lists", "list of structs", "list of
// boxes", "one box".
func (l BoxLayout) String() string {
	switch l {
	case StructOfLists:
		return "struct of lists"
	case ListOfStructs:
		return "list of structs"
	case ListOfBoxes:
		return "list of boxes"
	case OneBox:
		return "one box"
	}
	return "no boxes"
}

// Field names the rules recognise, compared in lower case.
var (
	// BoxWords mark a box column or struct field (name words as for
	// MaskWords).
	BoxWords = []string{"bbox*", "box", "boxes", "bounding*"}
	// categoryNames are the struct fields holding a box's class.
	categoryNames = []string{"category", "category_id", "categories", "label", "labels", "label_id", "class", "class_id", "cls", "names", "name"}
	// formatKeys are field metadata keys that give the box format.
	formatKeys = []string{"bbox_format", "box_format", "bbox_mode", "format"}
)

// BoxColumn says where a column's boxes are and in which format.
type BoxColumn struct {
	// Name is the column's name and Layout how it holds boxes.
	Name   string
	Layout BoxLayout
	// BBox, Category and Area are the names of the struct fields holding
	// the boxes, their classes and their areas (StructOfLists and
	// ListOfStructs; Category and Area are "" when absent).
	BBox, Category, Area string
	// Fields, when a box is a struct of four named numbers rather than a
	// list (Visual Genome's x, y, w, h: namedBoxes), are those fields'
	// names in the order of the format their names give; "" otherwise.
	Fields [4]string
	// Format is the format the file states (UnknownFormat when it does
	// not), and FormatWhy where it says so ("from the file's metadata: …",
	// "from the name …", "from the box's field names …"); FieldsFormat
	// reports that the box's field names give it (StatedFormat may then
	// read the numbers as normalised).
	Format       BoxFormat
	FormatWhy    string
	FieldsFormat bool
}

// CategoryPath returns the path ClassNames uses for the boxes' classes,
// "objects.category", or "" without a category field.
func (c BoxColumn) CategoryPath() string {
	if c.Category == "" {
		return ""
	}
	return c.Name + "." + c.Category
}

// FindBoxes reports whether a column holds detection boxes, and how:
//   - StructOfLists: a struct with a field named like boxes (BoxWords:
//     bbox, bboxes, box, boxes, bounding_box…) that is a list of boxes, and
//     optionally a category field (category, category_id, label, labels,
//     class, …: a list of integers, strings or dictionary values) and an
//     "area" field (a list of numbers);
//   - ListOfStructs: a list of structs with a box field and optionally a
//     category and an area field (Hugging Face datasets 4's List of a
//     dict; COCO annotations converted as they are), or a list of structs
//     that are boxes themselves: four number fields whose names say which
//     number is which (namedBoxes: x, y, w, h; xmin, ymin, xmax, ymax; …),
//     with optionally a category field (integers, strings, dictionary
//     values, or a list of strings: Visual Genome's names) and an area;
//   - ListOfBoxes and OneBox: a column named like boxes that is a list of
//     boxes, or one box; or, OneBox, a struct that is one box as above
//     whatever its name (one box per row: Visual Genome's relationships'
//     subject and object).
//
// A box is a list, large list or fixed-size list of numbers (fixed-size
// lists must have 4), or a struct of four named numbers. The format comes
// from field metadata (keys bbox_format, box_format, bbox_mode, format, on
// the column or its box field; values as ParseBoxFormat reads them: no
// standard key exists, bbox_format is the argument TFDS's BBoxFeature and
// albumentations' BboxParams name it with, bbox_mode detectron2's), else
// from a word of the column's or the box field's name that ParseBoxFormat
// reads ("boxes_xyxy"), else from a struct box's field names (FieldsFormat;
// StatedFormat then reads the unit from the numbers), else it is
// UnknownFormat and the caller guesses it (GuessBoxFormat).
func FindBoxes(f arrow.Field) (BoxColumn, bool) {
	c := BoxColumn{Name: f.Name}
	var boxField arrow.Field
	var named BoxFormat // the format a struct box's field names give
	switch t := storage(f.Type).(type) {
	case *arrow.StructType:
		var ok bool
		if boxField, named, ok = findStructBoxes(&c, f, t); !ok {
			return BoxColumn{}, false
		}
	case *arrow.ListType, *arrow.LargeListType, *arrow.FixedSizeListType:
		elem, _ := listElem(t)
		if st, ok := storage(elem).(*arrow.StructType); ok {
			c.Layout = ListOfStructs
			boxField, c.Category, c.Area = structFields(st, isBox, isCategory, isNumber)
			if boxField.Type == nil {
				if c.Fields, named, ok = namedBox(st); !ok {
					return BoxColumn{}, false
				}
				boxField = f
				c.Category, c.Area = structBoxFields(st)
			}
			break
		}
		if matchWord(f.Name, BoxWords) == "" {
			return BoxColumn{}, false
		}
		switch {
		case isBox(elem):
			c.Layout = ListOfBoxes
		case isBox(t):
			c.Layout = OneBox
		default:
			return BoxColumn{}, false
		}
		boxField = f
	default:
		return BoxColumn{}, false
	}
	if boxField.Type == nil {
		return BoxColumn{}, false
	}
	if (c.Layout == StructOfLists || c.Layout == ListOfStructs) && c.Fields[0] == "" {
		c.BBox = boxField.Name
	}
	c.Format, c.FormatWhy = statedFormat(f, boxField)
	if c.Format == UnknownFormat && named != UnknownFormat {
		c.Format, c.FieldsFormat = named, true
		c.FormatWhy = "from the box's field names " + strings.Join(c.Fields[:], ", ")
	}
	return c, true
}

// structFields finds the box, category and area fields of a struct.
func structFields(t *arrow.StructType, box, cat, area func(arrow.DataType) bool) (b arrow.Field, category, areaName string) {
	for _, fl := range t.Fields() {
		switch {
		case b.Type == nil && matchWord(fl.Name, BoxWords) != "" && box(fl.Type):
			b = fl
		case category == "" && isCategoryName(fl.Name) && cat(fl.Type):
			category = fl.Name
		case areaName == "" && strings.EqualFold(fl.Name, "area") && area(fl.Type):
			areaName = fl.Name
		}
	}
	return b, category, areaName
}

func isCategoryName(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, n := range categoryNames {
		if s == n {
			return true
		}
	}
	return false
}

// statedFormat reads the format from metadata or names.
func statedFormat(col, box arrow.Field) (BoxFormat, string) {
	for _, fl := range []arrow.Field{col, box} {
		for _, k := range formatKeys {
			if i := fl.Metadata.FindKey(k); i >= 0 {
				v := fl.Metadata.Values()[i]
				if f, ok := ParseBoxFormat(v); ok {
					return f, fmt.Sprintf("from the file's metadata: field %s has %s = %q", fl.Name, k, v)
				}
			}
		}
	}
	for _, name := range []string{col.Name, box.Name} {
		for _, w := range nameWords(name) {
			if f, ok := ParseBoxFormat(w); ok {
				return f, fmt.Sprintf("from the name %s (%s)", name, w)
			}
		}
	}
	return UnknownFormat, ""
}

func storage(dt arrow.DataType) arrow.DataType {
	if e, ok := dt.(arrow.ExtensionType); ok {
		return e.StorageType()
	}
	return dt
}

// listElem returns the element type of a list, large list or fixed-size
// list, or of an extension type over one.
func listElem(dt arrow.DataType) (arrow.DataType, bool) { return dialect.ListElem(storage(dt)) }

func isNumber(dt arrow.DataType) bool {
	dt = tensorext.StandardType(storage(dt))
	return dt != nil && (arrow.IsInteger(dt.ID()) || arrow.IsFloating(dt.ID()))
}

// isBox: a list of numbers, with 4 of them when the size is fixed.
func isBox(dt arrow.DataType) bool {
	elem, ok := listElem(dt)
	if !ok || !isNumber(elem) {
		return false
	}
	if f, ok := storage(dt).(*arrow.FixedSizeListType); ok {
		return f.Len() == 4
	}
	return true
}

func isCategory(dt arrow.DataType) bool {
	switch t := storage(dt).(type) {
	case *arrow.DictionaryType:
		return true
	default:
		id := t.ID()
		return arrow.IsInteger(id) || id == arrow.STRING || id == arrow.LARGE_STRING || id == arrow.STRING_VIEW
	}
}

// RawBox is one box as the file stores it.
type RawBox struct {
	// Coords are the four numbers (NaN for a null number).
	Coords [4]float64
	// Err says why the box cannot be read ("null", "3 numbers, want 4"), or
	// is "".
	Err string
	// Category is the box's class id when HasCategory; CategoryText is its
	// class as text when the file stores it so (strings, dictionary values).
	Category     int64
	HasCategory  bool
	CategoryText string
	// Area is the stored area (NaN when there is none).
	Area float64
}

// ReadBoxes reads the boxes of one row of a column FindBoxes accepted. A
// box that cannot be read gets its Err and the others are still read; a
// category or area list shorter than the box list leaves the last boxes
// without one. It returns an error for a null row, a row index outside the
// column, or a column of another type than FindBoxes saw.
func ReadBoxes(c BoxColumn, col arrow.Array, row int) ([]RawBox, error) {
	if e, ok := col.(array.ExtensionArray); ok {
		col = e.Storage()
	}
	if row < 0 || row >= col.Len() {
		return nil, fmt.Errorf("overlay: row %d outside %s's %d rows", row, c.Name, col.Len())
	}
	if col.IsNull(row) {
		return nil, fmt.Errorf("overlay: %s is null in row %d", c.Name, row)
	}
	bad := fmt.Errorf("overlay: %s is not %s as expected", c.Name, c.Layout)
	switch c.Layout {
	case OneBox:
		if c.Fields[0] != "" {
			st, ok := col.(*array.Struct)
			if !ok {
				return nil, bad
			}
			return []RawBox{readNamedBox(c, st, row)}, nil
		}
		if _, ok := col.(array.ListLike); !ok {
			return nil, bad
		}
		return []RawBox{readBox(col, row)}, nil
	case ListOfBoxes:
		l, ok := col.(array.ListLike)
		if !ok {
			return nil, bad
		}
		return readBoxList(l, row), nil
	case StructOfLists:
		return readStructOfLists(c, col, row, bad)
	case ListOfStructs:
		return readListOfStructs(c, col, row, bad)
	}
	return nil, bad
}

// readStructOfLists reads row of a StructOfLists column: a struct whose box
// list, and optional category and area lists, are its fields. bad is the
// error for a column of another layout.
func readStructOfLists(c BoxColumn, col arrow.Array, row int, bad error) ([]RawBox, error) {
	st, ok := col.(*array.Struct)
	if !ok {
		return nil, bad
	}
	boxes, ok := structField(st, c.BBox).(array.ListLike)
	if !ok {
		return nil, bad
	}
	out := readBoxList(boxes, row)
	eachListed(structField(st, c.Category), row, len(out), func(k int, cats arrow.Array, pos int) {
		readCategory(&out[k], cats, pos)
	})
	eachListed(structField(st, c.Area), row, len(out), func(k int, areas arrow.Array, pos int) {
		out[k].Area = number(areas, pos)
	})
	return out, nil
}

// readListOfStructs reads row of a ListOfStructs column: a list of structs,
// each one box with its optional category and area fields. bad is the error
// for a column of another layout.
func readListOfStructs(c BoxColumn, col arrow.Array, row int, bad error) ([]RawBox, error) {
	l, ok := col.(array.ListLike)
	if !ok {
		return nil, bad
	}
	st, ok := l.ListValues().(*array.Struct)
	if !ok {
		return nil, bad
	}
	boxes, cats, areas := structField(st, c.BBox), structField(st, c.Category), structField(st, c.Area)
	if boxes == nil && c.Fields[0] == "" {
		return nil, bad
	}
	s, e := l.ValueOffsets(row)
	out := make([]RawBox, 0, e-s)
	for k := int(s); k < int(e); k++ {
		if c.Fields[0] != "" {
			out = append(out, readNamedBox(c, st, k))
			continue
		}
		b := RawBox{Err: "null", Area: math.NaN()}
		if st.IsValid(k) {
			b = readBox(boxes, k)
			if cats != nil {
				readCategory(&b, cats, k)
			}
			if areas != nil {
				b.Area = number(areas, k)
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// findStructBoxes fills c's Layout, Category and Area for column f of
// struct storage t: StructOfLists when a field is a list of boxes, else
// OneBox when t itself is a box of named numbers (then c.Fields is set).
// It returns the box field, the format the field names give, and false
// when t holds no boxes.
func findStructBoxes(c *BoxColumn, f arrow.Field, t *arrow.StructType) (boxField arrow.Field, named BoxFormat, ok bool) {
	c.Layout = StructOfLists
	boxField, c.Category, c.Area = structFields(t, func(dt arrow.DataType) bool {
		l, ok := listElem(dt)
		return ok && isBox(l)
	}, func(dt arrow.DataType) bool {
		l, ok := listElem(dt)
		return ok && isCategory(l)
	}, func(dt arrow.DataType) bool {
		l, ok := listElem(dt)
		return ok && isNumber(l)
	})
	if boxField.Type == nil {
		if c.Fields, named, ok = namedBox(t); !ok {
			return arrow.Field{}, UnknownFormat, false
		}
		c.Layout, boxField = OneBox, f
		c.Category, c.Area = structBoxFields(t)
	}
	return boxField, named, true
}

// readBoxList reads the boxes listed in row of a list of boxes.
func readBoxList(l array.ListLike, row int) []RawBox {
	s, e := l.ValueOffsets(row)
	out := make([]RawBox, 0, e-s)
	for k := s; k < e; k++ {
		out = append(out, readBox(l.ListValues(), int(k)))
	}
	return out
}

// eachListed calls fn with the number k, values and position of each of
// the first n elements listed in row of a list array (none when a is not
// a list or the row is null).
func eachListed(a arrow.Array, row, n int, fn func(k int, values arrow.Array, pos int)) {
	l, ok := a.(array.ListLike)
	if !ok || l.IsNull(row) {
		return
	}
	s, e := l.ValueOffsets(row)
	for k := range min(int(e-s), n) {
		fn(k, l.ListValues(), int(s)+k)
	}
}

func structField(st *array.Struct, name string) arrow.Array {
	if name == "" {
		return nil
	}
	if i, ok := st.DataType().(*arrow.StructType).FieldIdx(name); ok {
		return st.Field(i)
	}
	return nil
}

// readBox reads element k of an array of boxes.
func readBox(boxes arrow.Array, k int) RawBox {
	b := RawBox{Area: math.NaN()}
	l, ok := boxes.(array.ListLike)
	if !ok {
		b.Err = "not a list of numbers"
		return b
	}
	if l.IsNull(k) {
		b.Err = "null"
		return b
	}
	s, e := l.ValueOffsets(k)
	if e-s != 4 {
		b.Err = fmt.Sprintf("%d numbers, want 4", e-s)
		return b
	}
	for i := range 4 {
		b.Coords[i] = number(l.ListValues(), int(s)+i)
	}
	return b
}

// number reads element k of a numeric array; NaN for null or another type.
func number(a arrow.Array, k int) float64 {
	if a.IsNull(k) {
		return math.NaN()
	}
	at, ok := tensorext.Float64Reader(a)
	if !ok {
		return math.NaN()
	}
	return at(k)
}

// readCategory reads element k of a category array into b.
func readCategory(b *RawBox, cats arrow.Array, k int) {
	if cats.IsNull(k) {
		return
	}
	switch c := cats.(type) {
	case *array.Dictionary:
		id := c.GetValueIndex(k)
		b.Category, b.HasCategory = int64(id), true
		b.CategoryText = tensorext.ValueStr(c.Dictionary(), id) // float16 exact
	case *array.String, *array.LargeString, *array.StringView:
		b.CategoryText = c.ValueStr(k)
	case array.ListLike: // a list of names: Visual Genome's ["man", "person"]
		s, e := c.ValueOffsets(k)
		var names []string
		for i := s; i < e; i++ {
			if v := c.ListValues(); v.IsValid(int(i)) {
				names = append(names, tensorext.ValueStr(v, int(i)))
			}
		}
		b.CategoryText = strings.Join(names, ", ")
	default:
		if v := number(cats, k); v == v {
			b.Category, b.HasCategory = int64(v), true
		}
	}
}

// GuessBoxFormat guesses the format of boxes whose file does not state it,
// and says why, from the readable boxes whose numbers are all finite, the
// image's size (0 when not known) and the boxes' stored areas:
//  1. Every number within 0..1: normalised. YOLO's CXCYWHN when a box's
//     third number is below its first or its fourth below its second (no
//     corners), else XYXYN when a box taken as centre and size would reach
//     beyond the image, else CXCYWHN (both fit; YOLO is the common one).
//  2. Pixels: XYWH when every box has an area and it equals width × height
//     read as XYWH (within 1% + 0.5) but not as XYXY (cppe-5 stores
//     area = w·h); XYWH when a box's third number is below its first or its
//     fourth below its second (they cannot be corners); XYXY when the image
//     size is known and some box read as XYWH reaches more than 1 pixel
//     beyond it while every box read as XYXY stays within 1 pixel;
//     otherwise XYWH, COCO's layout, which Hugging Face's detection sets
//     use.
//
// With no finite box it returns XYWH.
func GuessBoxFormat(boxes []RawBox, width, height int) (BoxFormat, string) {
	var ok []int
	for i, b := range boxes {
		if b.Err == "" && finite4(b.Coords) {
			ok = append(ok, i)
		}
	}
	if len(ok) == 0 {
		return XYWH, "no readable box: COCO xywh assumed"
	}
	normal := true
	for _, i := range ok {
		for _, v := range boxes[i].Coords {
			if v < 0 || v > 1 {
				normal = false
			}
		}
	}
	// notCorners is the first box whose numbers cannot be two corners.
	notCorners := -1
	for _, i := range ok {
		c := boxes[i].Coords
		if c[2] < c[0] || c[3] < c[1] {
			notCorners = i
			break
		}
	}
	if normal {
		return guessNormalised(boxes, ok, notCorners)
	}
	if i, ok := areaSays(boxes, ok); ok {
		c := boxes[i].Coords
		return XYWH, fmt.Sprintf("the stored areas equal width × height (box %d: %s × %s = %s): COCO xywh", i, num(c[2]), num(c[3]), num(boxes[i].Area))
	}
	if notCorners >= 0 {
		return XYWH, fmt.Sprintf("box %d's %s cannot be corners: COCO xywh", notCorners, notCornersText(boxes[notCorners].Coords))
	}
	if width > 0 && height > 0 {
		over := xywhOverImage(boxes, ok, width, height)
		if over >= 0 {
			c := boxes[over].Coords
			return XYXY, fmt.Sprintf("box %d read as x, y, width, height would end at (%s, %s), beyond the %d×%d image; as corners every box fits: Pascal VOC xyxy", over, num(c[0]+c[2]), num(c[1]+c[3]), width, height)
		}
		if over == -1 {
			return XYWH, fmt.Sprintf("every box fits the %d×%d image either way: COCO xywh (Hugging Face's layout) assumed", width, height)
		}
	}
	return XYWH, "nothing tells xywh from xyxy: COCO xywh (Hugging Face's layout) assumed"
}

// guessNormalised is GuessBoxFormat's rule 1, for the boxes at indices ok
// whose numbers are all within 0..1; notCorners is the first of them whose
// numbers cannot be two corners, or -1.
func guessNormalised(boxes []RawBox, ok []int, notCorners int) (BoxFormat, string) {
	if notCorners >= 0 {
		return CXCYWHN, fmt.Sprintf("every number is within 0..1 and box %d's %s cannot be corners: YOLO centre and size", notCorners, notCornersText(boxes[notCorners].Coords))
	}
	for _, i := range ok {
		c := boxes[i].Coords
		if c[0]-c[2]/2 < -1e-9 || c[0]+c[2]/2 > 1+1e-9 || c[1]-c[3]/2 < -1e-9 || c[1]+c[3]/2 > 1+1e-9 {
			return XYXYN, fmt.Sprintf("every number is within 0..1 and box %d would reach beyond the image as a centre and size: normalised corners", i)
		}
	}
	return CXCYWHN, "every number is within 0..1 and both normalised layouts fit: YOLO centre and size assumed"
}

// xywhOverImage returns the first of the boxes at indices ok that, read as
// x, y, width, height, reaches more than 1 pixel beyond a width × height
// image; -1 when none does, and -2 when some box read as corners reaches
// beyond it too (no evidence either way).
func xywhOverImage(boxes []RawBox, ok []int, width, height int) int {
	W, H := float64(width)+1, float64(height)+1
	over := -1
	for _, i := range ok {
		c := boxes[i].Coords
		if c[2] > W || c[3] > H {
			return -2 // corners reach out too: no evidence
		}
		if over == -1 && (c[0]+c[2] > W || c[1]+c[3] > H) {
			over = i
		}
	}
	return over
}

func notCornersText(c [4]float64) string {
	if c[2] < c[0] {
		return fmt.Sprintf("third number %s < first %s", num(c[2]), num(c[0]))
	}
	return fmt.Sprintf("fourth number %s < second %s", num(c[3]), num(c[1]))
}

// areaSays reports whether every box has an area equal to w·h as xywh and
// not as xyxy, with a box to quote.
func areaSays(boxes []RawBox, ok []int) (int, bool) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 0.01*math.Abs(b)+0.5 }
	differs := -1
	for _, i := range ok {
		c, a := boxes[i].Coords, boxes[i].Area
		if a != a || !near(c[2]*c[3], a) {
			return 0, false
		}
		if differs < 0 && !near((c[2]-c[0])*(c[3]-c[1]), a) {
			differs = i
		}
	}
	return differs, differs >= 0
}

func finite4(c [4]float64) bool {
	for _, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Box is a box placed on an image: its corners in pixels, clipped to the
// image.
type Box struct {
	// Index is the box's index in the row's annotation.
	Index int
	// X0, Y0 (top left) and X1, Y1 (bottom right) are continuous pixel
	// coordinates within [0, width] × [0, height].
	X0, Y0, X1, Y1 float64
	// Category, HasCategory and CategoryText are the RawBox's.
	Category     int64
	HasCategory  bool
	CategoryText string
	// Clipped reports that the box reached beyond the image and was cut.
	Clipped bool
}

// Label returns the text drawn by a box: its index, then its class name
// (ClassName with names, or the stored text), for example "#2 mask"; "#2"
// without a class.
func (b Box) Label(names []string) string {
	s := "#" + strconv.Itoa(b.Index)
	switch {
	case b.HasCategory && (b.CategoryText == "" || int64(len(names)) > b.Category):
		return s + " " + ClassName(names, b.Category)
	case b.CategoryText != "":
		return s + " " + b.CategoryText
	}
	return s
}

// Color returns the box's default colour, BoxColor of its category
// (BoxColor(0) without one).
func (b Box) Color() color.RGBA {
	if b.HasCategory {
		return BoxColor(b.Category)
	}
	return BoxColor(0)
}

// BoxError is why one box is not drawn.
type BoxError struct {
	Index int
	Err   string
}

func (e BoxError) Error() string { return fmt.Sprintf("box %d: %s", e.Index, e.Err) }

// Placed is a row's boxes placed on its image.
type Placed struct {
	// Boxes are the boxes to draw, in index order.
	Boxes []Box
	// Clipped counts boxes cut at the image's edges (they are in Boxes),
	// Outside boxes wholly beyond the image and Invalid boxes that cannot
	// be placed (unreadable, a NaN or infinite number, a negative width or
	// height); neither of the last two is in Boxes.
	Clipped, Outside, Invalid int
	// Errors has one entry per box Outside or Invalid, in index order.
	Errors []BoxError
}

// Place converts boxes of format f to pixel corners on a width×height image
// and clips them to it:
//
//	XYWH    x0 = a, y0 = b, x1 = a + c, y1 = b + d
//	XYXY    x0 = a, y0 = b, x1 = c, y1 = d
//	CXCYWHN x0 = (a − c/2)·W, y0 = (b − d/2)·H, x1 = (a + c/2)·W, y1 = (b + d/2)·H
//	XYXYN   x0 = a·W, y0 = b·H, x1 = c·W, y1 = d·H
//	CXCYWH  as CXCYWHN without the scaling
//
// for numbers (a, b, c, d). A box is Invalid when it cannot be read, has a
// NaN or infinite number, or has x1 < x0 or y1 < y0 (a negative width or
// height); a box of zero width or height is valid and drawn as a line. It
// is Outside when it does not overlap the image: x0 ≥ W, y0 ≥ H, x1 ≤ 0 or
// y1 ≤ 0, except that a box of zero width at x = 0 (or zero height at
// y = 0) lies on the image's first column (row); otherwise its corners
// are clamped to [0, W] × [0, H], and it is Clipped when that moved one.
// It returns an error for a size that is not positive or an UnknownFormat.
func Place(boxes []RawBox, f BoxFormat, width, height int) (Placed, error) {
	if width <= 0 || height <= 0 {
		return Placed{}, fmt.Errorf("overlay: cannot place boxes on a %d×%d image", width, height)
	}
	if f == UnknownFormat {
		return Placed{}, errors.New("overlay: cannot place boxes of an unknown format")
	}
	W, H := float64(width), float64(height)
	var p Placed
	fail := func(i int, msg string, outside bool) {
		if outside {
			p.Outside++
		} else {
			p.Invalid++
		}
		p.Errors = append(p.Errors, BoxError{Index: i, Err: msg})
	}
	for i, rb := range boxes {
		c := rb.Coords
		switch {
		case rb.Err != "":
			fail(i, rb.Err, false)
			continue
		case !finite4(c):
			fail(i, fmt.Sprintf("a coordinate is not finite: [%s %s %s %s]", num(c[0]), num(c[1]), num(c[2]), num(c[3])), false)
			continue
		}
		x0, y0, x1, y1 := corners(c, f, W, H)
		if x1 < x0 || y1 < y0 {
			what, v := "width", x1-x0
			if x1 >= x0 {
				what, v = "height", y1-y0
			}
			fail(i, fmt.Sprintf("negative %s %s (%s [%s %s %s %s])", what, num(v), f, num(c[0]), num(c[1]), num(c[2]), num(c[3])), false)
			continue
		}
		if x0 >= W || y0 >= H || x1 < 0 || y1 < 0 || (x1 == 0 && x0 < 0) || (y1 == 0 && y0 < 0) {
			fail(i, fmt.Sprintf("outside the %d×%d image: x %s..%s, y %s..%s", width, height, num(x0), num(x1), num(y0), num(y1)), true)
			continue
		}
		b := Box{Index: i, Category: rb.Category, HasCategory: rb.HasCategory, CategoryText: rb.CategoryText}
		b.X0, b.Y0 = math.Max(0, x0), math.Max(0, y0)
		b.X1, b.Y1 = math.Min(W, x1), math.Min(H, y1)
		if b.X0 != x0 || b.Y0 != y0 || b.X1 != x1 || b.Y1 != y1 {
			b.Clipped = true
			p.Clipped++
		}
		p.Boxes = append(p.Boxes, b)
	}
	return p, nil
}

// corners converts four numbers of format f to pixel corners.
func corners(c [4]float64, f BoxFormat, W, H float64) (x0, y0, x1, y1 float64) {
	a, b, w, h := c[0], c[1], c[2], c[3]
	switch f {
	case XYWH:
		return a, b, a + w, b + h
	case XYXY:
		return a, b, w, h
	case CXCYWHN:
		return (a - w/2) * W, (b - h/2) * H, (a + w/2) * W, (b + h/2) * H
	case XYXYN:
		return a * W, b * H, w * W, h * H
	}
	return a - w/2, b - h/2, a + w/2, b + h/2 // CXCYWH
}

// PixelRect returns the pixels a box covers, as an image.Rectangle in
// image coordinates (origin 0,0): columns floor(X0) to ceil(X1)−1 and rows
// floor(Y0) to ceil(Y1)−1, at least one of each (a zero-width box covers
// column floor(X0)), within the width×height image. A box from X0 = 10 to
// X1 = 20 covers columns 10…19; from 10.5 to 20.2, columns 10…20.
func (b Box) PixelRect(width, height int) image.Rectangle {
	l, t := int(math.Floor(b.X0)), int(math.Floor(b.Y0))
	r, bo := int(math.Ceil(b.X1)), int(math.Ceil(b.Y1))
	r, bo = max(r, l+1), max(bo, t+1)
	return image.Rect(l, t, r, bo).Intersect(image.Rect(0, 0, width, height))
}

// DrawBox draws a box's edges onto dst in colour c, replacing the pixels
// (all four channels; no blending). The edges are inside the box's
// PixelRect (taken relative to dst.Bounds().Min, on an image of dst's
// size): every pixel of the rectangle less than t pixels from its border,
// so with t = 1 the rectangle's outermost ring and with t = 2 the two
// outermost rings; a rectangle narrower than 2t is filled. t below 1 is 1.
func DrawBox(dst *image.RGBA, b Box, c color.RGBA, t int) {
	t = max(t, 1)
	bd := dst.Bounds()
	r := b.PixelRect(bd.Dx(), bd.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		rowEdge := y < r.Min.Y+t || y >= r.Max.Y-t
		for x := r.Min.X; x < r.Max.X; x++ {
			if rowEdge || x < r.Min.X+t || x >= r.Max.X-t {
				o := dst.PixOffset(bd.Min.X+x, bd.Min.Y+y)
				dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = c.R, c.G, c.B, c.A
			}
		}
	}
}
