package overlay

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Boxes as structs of four named numbers, such as Visual Genome's objects
// on the Hugging Face Hub (huggingface/datasets
// datasets/visual_genome/visual_genome.py @ d7dfbc83: objects = a list of
// {object_id, x, y, w, h, names: [string], synsets: [string]}; regions =
// a list of {region_id, image_id, phrase, x, y, width, height}): the names
// of the fields say which number is which, and so the format.

// namedBoxes are the quadruples of struct field names read as a box, with
// the format their order gives, first match first (names compared in lower
// case). Left, top, width, height is COCO's xywh; two corners Pascal VOC's
// xyxy; a centre and a size cxcywh.
var namedBoxes = []struct {
	f     BoxFormat
	names [4]string
}{
	{XYWH, [4]string{"x", "y", "w", "h"}},
	{XYWH, [4]string{"x", "y", "width", "height"}},
	{XYWH, [4]string{"left", "top", "width", "height"}},
	{XYWH, [4]string{"xmin", "ymin", "width", "height"}},
	{XYWH, [4]string{"x_min", "y_min", "width", "height"}},
	{XYXY, [4]string{"xmin", "ymin", "xmax", "ymax"}},
	{XYXY, [4]string{"x_min", "y_min", "x_max", "y_max"}},
	{XYXY, [4]string{"x1", "y1", "x2", "y2"}},
	{XYXY, [4]string{"x0", "y0", "x1", "y1"}},
	{XYXY, [4]string{"left", "top", "right", "bottom"}},
	{CXCYWH, [4]string{"cx", "cy", "w", "h"}},
	{CXCYWH, [4]string{"cx", "cy", "width", "height"}},
	{CXCYWH, [4]string{"x_center", "y_center", "width", "height"}},
	{CXCYWH, [4]string{"center_x", "center_y", "width", "height"}},
	{CXCYWH, [4]string{"x_centre", "y_centre", "width", "height"}},
}

// namedBox finds four number fields of a struct that make a box
// (namedBoxes), and returns their names as the struct spells them, in the
// format's order, and the format.
func namedBox(t *arrow.StructType) (fields [4]string, f BoxFormat, ok bool) {
	numbers := map[string]string{} // lower case → as spelt
	for _, fl := range t.Fields() {
		if isNumber(fl.Type) {
			k := strings.ToLower(fl.Name)
			if _, dup := numbers[k]; !dup {
				numbers[k] = fl.Name
			}
		}
	}
	for _, nb := range namedBoxes {
		ok = true
		for i, n := range nb.names {
			fields[i], ok = numbers[n]
			if !ok {
				break
			}
		}
		if ok {
			return fields, nb.f, true
		}
	}
	return [4]string{}, UnknownFormat, false
}

// structBoxFields finds, in a struct whose fields are one box (namedBox),
// its category and area fields: a category field of integers, strings or
// dictionary values, or a list of strings such as Visual Genome's names;
// an "area" of numbers.
func structBoxFields(t *arrow.StructType) (category, area string) {
	_, category, area = structFields(t, func(arrow.DataType) bool { return false }, func(dt arrow.DataType) bool {
		if l, ok := listElem(dt); ok {
			return isText(l)
		}
		return isCategory(dt)
	}, isNumber)
	return category, area
}

func isText(dt arrow.DataType) bool {
	switch storage(dt).ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	return false
}

// readNamedBox reads element k of a struct array whose fields are one box
// (c.Fields), with its category and area.
func readNamedBox(c BoxColumn, st *array.Struct, k int) RawBox {
	b := RawBox{Area: math.NaN()}
	if st.IsNull(k) {
		b.Err = "null"
		return b
	}
	for i, name := range c.Fields {
		a := structField(st, name)
		if a == nil {
			b.Err = fmt.Sprintf("no field %s", name)
			return b
		}
		b.Coords[i] = number(a, k)
	}
	if cats := structField(st, c.Category); cats != nil {
		readCategory(&b, cats, k)
	}
	if areas := structField(st, c.Area); areas != nil {
		b.Area = number(areas, k)
	}
	return b
}

// StatedFormat returns the format the file states for boxes read from this
// column (FormatWhy says where), or UnknownFormat. Field names state the
// layout but not the unit: boxes whose fields name two corners or a centre
// (xmin, ymin, xmax, ymax; cx, cy, w, h) are taken as normalised (XYXYN,
// CXCYWHN) when every number of every readable box is within 0..1, as
// YouTube-BoundingBoxes' xmin…ymax are; names of a corner and a size
// (x, y, w, h) always mean pixels (no normalised xywh is drawn).
func (c BoxColumn) StatedFormat(boxes []RawBox) (BoxFormat, string) {
	if !c.FieldsFormat {
		return c.Format, c.FormatWhy
	}
	twin := map[BoxFormat]BoxFormat{XYXY: XYXYN, CXCYWH: CXCYWHN}[c.Format]
	if twin == UnknownFormat {
		return c.Format, c.FormatWhy
	}
	n := 0
	for _, b := range boxes {
		if b.Err != "" || !finite4(b.Coords) {
			continue
		}
		for _, v := range b.Coords {
			if v < 0 || v > 1 {
				return c.Format, c.FormatWhy
			}
		}
		n++
	}
	if n == 0 {
		return c.Format, c.FormatWhy
	}
	return twin, c.FormatWhy + ", normalised as every number is within 0..1"
}
