package overlay

import (
	"encoding/json"
	"fmt"
	"image/color"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Palette gives the colour of each class id. Colours are opaque.
type Palette func(id int64) color.RGBA

// VOC is the default class palette: the label colour map of the PASCAL VOC
// development kit (VOCdevkit, VOCcode/VOClabelcolormap.m; Everingham et
// al., "The PASCAL Visual Object Classes Challenge 2012"), the colours
// segmentation masks published in VOC's format are stored with. The bits
// of the id are dealt out to the channels, three at a time, from each
// channel's most significant bit down: bit 3k of the id sets bit 7−k of red,
// bit 3k+1 of green, bit 3k+2 of blue, for k = 0…7. So 0 is black
// (background), 1 (128,0,0), 2 (0,128,0), 3 (128,128,0), 15 (192,128,128)
// ("person" in VOC) and 255 (224,224,192) (VOC's "void" boundary). Every id
// below 2^24 has its own colour; larger ids and negative ids use their low
// 24 bits (two's complement), so ids 2^24 apart share a colour.
//
// It was chosen over a short categorical palette (Tableau 10, say) because
// it never wraps for the class counts of real datasets (ADE20K's 150,
// COCO-Stuff's 182) and shows VOC-format masks in the colours their users
// know; neighbouring ids differ in their lowest bits, which move the
// brightest bit of a channel, so they are easy to tell apart.
func VOC(id int64) color.RGBA {
	var r, g, b uint8
	v := uint64(id) & (1<<24 - 1)
	for k := 7; k >= 0; k-- {
		r |= uint8(v&1) << k
		g |= uint8(v>>1&1) << k
		b |= uint8(v>>2&1) << k
		v >>= 3
	}
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}

// BoxColor is the default colour of a detection box of category id:
// VOC(id+1). Boxes are shifted by one because category 0 is a real class in
// COCO-style detection datasets (cppe-5's "Coverall"), unlike a
// segmentation mask's background, and VOC(0) is black; a box without a
// category takes BoxColor(0), VOC's dark red.
func BoxColor(id int64) color.RGBA { return VOC(id + 1) }

// ClassName returns the name of class id from names (names[id]), or the id
// in decimal when id is not an index of names (negative or past its end), so
// that ids the file does not name are shown as numbers.
func ClassName(names []string, id int64) string {
	if id >= 0 && id < int64(len(names)) {
		return names[id]
	}
	return strconv.FormatInt(id, 10)
}

// Label returns the text the readout and the legend show for class id: the
// id and its quoted name, `3 "car"`, or the id alone ("300") when names does
// not name it.
func Label(names []string, id int64) string {
	if id >= 0 && id < int64(len(names)) {
		return strconv.FormatInt(id, 10) + " " + strconv.Quote(names[id])
	}
	return strconv.FormatInt(id, 10)
}

// ClassNames reads the class names of every ClassLabel feature in the
// Hugging Face datasets features stored in an Arrow schema's "huggingface"
// metadata (the value of that key). Hugging Face datasets writes it as
// {"info": {"features": F}} (datasets' Features.arrow_schema), where F maps
// each column name to its feature serialised by Features.to_dict: a
// ClassLabel as {"names": [...], "_type": "ClassLabel"}; a list as
// {"feature": F', "_type": "List"}, "LargeList" or, before datasets 4, a
// "Sequence" (with "length"); a struct as an object of sub-features without
// "_type"; a list of structs also as the one-element JSON list [F'] (see
// src/datasets/features/features.py, generate_from_dict).
//
// The result maps a feature's path to its names: the column name, then the
// struct field names, joined by "." (lists add nothing), for example
// "label" or, for COCO-style detection sets, "objects.category". A names
// object with decimal keys ({"0": "cat", "1": "dog"}, the YAML form of dataset
// cards) is also read. It returns an error for text that is not JSON or has
// no "info.features" object, and skips ClassLabels whose names are not
// strings.
func ClassNames(huggingface string) (map[string][]string, error) {
	var doc struct {
		Info struct {
			Features map[string]json.RawMessage `json:"features"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(huggingface), &doc); err != nil {
		return nil, fmt.Errorf("overlay: huggingface metadata: %w", err)
	}
	if doc.Info.Features == nil {
		return nil, fmt.Errorf("overlay: huggingface metadata has no info.features")
	}
	out := map[string][]string{}
	for name, f := range doc.Info.Features {
		collectNames(name, f, out, 0)
	}
	return out, nil
}

// maxFeatureDepth bounds the recursion over nested features.
const maxFeatureDepth = 64

func collectNames(path string, raw json.RawMessage, out map[string][]string, depth int) {
	if depth > maxFeatureDepth {
		return
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		for _, f := range list {
			collectNames(path, f, out, depth+1)
		}
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return
	}
	var typ string
	if t, ok := obj["_type"]; !ok || json.Unmarshal(t, &typ) != nil {
		// a struct: every key (even one named "_type" whose value is an
		// object) is a sub-feature
		for k, f := range obj {
			collectNames(path+"."+k, f, out, depth+1)
		}
		return
	}
	switch typ {
	case "ClassLabel":
		if names, ok := parseNames(obj["names"]); ok {
			out[path] = names
		}
	case "Sequence", "List", "LargeList":
		if f, ok := obj["feature"]; ok {
			collectNames(path, f, out, depth+1)
		}
	}
}

// parseNames reads a ClassLabel's names: a JSON list of strings, or an
// object from decimal ids to strings.
func parseNames(raw json.RawMessage) ([]string, bool) {
	var names []string
	if json.Unmarshal(raw, &names) == nil {
		return names, names != nil
	}
	var byID map[string]string
	if json.Unmarshal(raw, &byID) != nil || len(byID) == 0 {
		return nil, false
	}
	n := 0
	for k := range byID {
		id, err := strconv.Atoi(k)
		if err != nil || id < 0 || id > 1<<20 {
			return nil, false
		}
		n = max(n, id+1)
	}
	names = make([]string, n)
	for k, v := range byID {
		id, _ := strconv.Atoi(k)
		names[id] = v
	}
	for i, s := range names {
		if s == "" {
			names[i] = strconv.Itoa(i)
		}
	}
	return names, true
}

// DictionaryNames returns the values of a dictionary-encoded column's
// dictionary as class names, the name of index i being its i-th value as
// text (arrow-go's ValueStr, float16 exact: tensorext.ValueStr; a null
// value gives ""). For a column of type
// dictionary<indices, values>, pass (*array.Dictionary).Dictionary().
func DictionaryNames(dict arrow.Array) []string {
	names := make([]string, dict.Len())
	for i := range names {
		if dict.IsValid(i) {
			names[i] = tensorext.ValueStr(dict, i)
		}
	}
	return names
}

// NamesFor returns the class names of the column at path (as ClassNames
// keys it) from ClassNames' result: the path's own, else, for a struct
// field, those of a sibling field with a category name (category,
// category_id, categories, label, labels, label_id, class, class_id, cls),
// so that "objects.bbox" finds "objects.category" as detection sets name
// it. nil when none is found.
func NamesFor(all map[string][]string, path string) []string {
	if n, ok := all[path]; ok {
		return n
	}
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return nil
	}
	prefix := path[:i+1]
	for _, k := range categoryNames {
		if n, ok := all[prefix+k]; ok {
			return n
		}
	}
	return nil
}

// ClassCount is one class present in a mask and its number of pixels.
type ClassCount struct {
	ID     int64
	Pixels int
}

// LegendItem is one class of a legend.
type LegendItem struct {
	// ID is the class id; Name its name (ClassName: the id in decimal when
	// unnamed) and Label the text to show (Label: `3 "car"` or "300").
	ID          int64
	Name, Label string
	// Color is the class's colour in the style's palette.
	Color color.RGBA
	// Pixels is the number of mask pixels of the class.
	Pixels int
	// Hidden reports that the style does not draw the class (class 0, the
	// background, and void by default; classes the user hid by clicking
	// them).
	Hidden bool
	// Void reports the void id of a mask whose 255 is void (HasVoid); its
	// Name is then "void" and its Label "255 (void)".
	Void bool
}

// Legend returns one item per class of counts (as CountClasses gives them),
// in the order of counts, with names (nil when the file names none) and the
// style's colours and hidden classes, for a mask whose 255 is void (void;
// HasVoid) or not.
func (s Style) Legend(counts []ClassCount, names []string, void bool) []LegendItem {
	pal := s.palette()
	hidden := s.For(void).Hidden
	items := make([]LegendItem, len(counts))
	for i, c := range counts {
		it := LegendItem{ID: c.ID, Name: ClassName(names, c.ID), Label: MaskLabel(names, void, c.ID),
			Color: pal(c.ID), Pixels: c.Pixels, Hidden: hidden[c.ID], Void: void && c.ID == VoidID}
		if it.Void {
			it.Name = "void"
		}
		items[i] = it
	}
	return items
}

// sortCounts turns a map of pixel counts into ClassCounts by ascending id.
func sortCounts(m map[int64]int) []ClassCount {
	out := make([]ClassCount, 0, len(m))
	for id, n := range m {
		out = append(out, ClassCount{ID: id, Pixels: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// SchemaClassNames returns the class names of the column at path (NamesFor)
// from a schema's "huggingface" metadata, nil when the schema has none or
// it does not parse.
func SchemaClassNames(md arrow.Metadata, path string) []string {
	i := md.FindKey("huggingface")
	if i < 0 {
		return nil
	}
	all, err := ClassNames(md.Values()[i])
	if err != nil {
		return nil
	}
	return NamesFor(all, path)
}
