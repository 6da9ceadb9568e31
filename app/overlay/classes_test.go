package overlay

import (
	"image/color"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The PASCAL VOC 2012 class colours, as the devkit's colour map gives them
// and VOC's SegmentationClass PNG palettes hold them.
func TestVOC(t *testing.T) {
	for _, c := range []struct {
		id      int64
		r, g, b uint8
	}{
		{0, 0, 0, 0},         // background
		{1, 128, 0, 0},       // aeroplane
		{2, 0, 128, 0},       // bicycle
		{3, 128, 128, 0},     // bird
		{4, 0, 0, 128},       // boat
		{7, 128, 128, 128},   // car
		{8, 64, 0, 0},        // cat
		{15, 192, 128, 128},  // person
		{16, 0, 64, 0},       // potted plant
		{20, 0, 64, 128},     // tv/monitor
		{255, 224, 224, 192}, // void
		{256, 0, 0, 32},
		{1 << 24, 0, 0, 0},     // wraps to 0
		{1<<24 + 1, 128, 0, 0}, // wraps to 1
		{-1, 255, 255, 255},    // low 24 bits all set
	} {
		if got, want := VOC(c.id), (color.RGBA{c.r, c.g, c.b, 255}); got != want {
			t.Errorf("VOC(%d) = %v, want %v", c.id, got, want)
		}
	}
	seen := map[color.RGBA]int64{}
	for id := int64(0); id < 1<<14; id++ {
		c := VOC(id)
		if prev, ok := seen[c]; ok {
			t.Fatalf("VOC(%d) = VOC(%d) = %v", id, prev, c)
		}
		seen[c] = id
	}
	if BoxColor(0) != VOC(1) || BoxColor(4) != VOC(5) {
		t.Error("BoxColor is not VOC(id+1)")
	}
}

func TestNamesAndLabels(t *testing.T) {
	names := []string{"background", "car", `say "hi"`}
	for _, c := range []struct {
		id          int64
		name, label string
	}{
		{0, "background", `0 "background"`},
		{1, "car", `1 "car"`},
		{2, `say "hi"`, `2 "say \"hi\""`},
		{3, "3", "3"},
		{300, "300", "300"},
		{-1, "-1", "-1"},
	} {
		if got := ClassName(names, c.id); got != c.name {
			t.Errorf("ClassName(%d) = %q, want %q", c.id, got, c.name)
		}
		if got := Label(names, c.id); got != c.label {
			t.Errorf("Label(%d) = %q, want %q", c.id, got, c.label)
		}
	}
	if got := Label(nil, 5); got != "5" {
		t.Errorf("Label(nil, 5) = %q", got)
	}
}

// cppe5Names are the categories of the cppe-5 detection set
// (huggingface.co/datasets/rishitdagli/cppe-5).
var cppe5Names = []string{"Coverall", "Face_Shield", "Gloves", "Goggles", "Mask"}

func TestClassNames(t *testing.T) {
	for _, c := range []struct {
		name, json string
		want       map[string][]string
	}{
		{
			// datasets ≥ 4 (features.py @ b7cb10b0): Sequence of a dict
			// becomes a dict of List; defaults (id, length -1) are left out.
			"cppe-5 as datasets 4 writes it",
			`{"info": {"features": {"image_id": {"dtype": "int64", "_type": "Value"}, "image": {"_type": "Image"}, ` +
				`"width": {"dtype": "int32", "_type": "Value"}, "height": {"dtype": "int32", "_type": "Value"}, ` +
				`"objects": {"id": {"feature": {"dtype": "int64", "_type": "Value"}, "_type": "List"}, ` +
				`"area": {"feature": {"dtype": "int64", "_type": "Value"}, "_type": "List"}, ` +
				`"bbox": {"feature": {"feature": {"dtype": "float32", "_type": "Value"}, "length": 4, "_type": "List"}, "_type": "List"}, ` +
				`"category": {"feature": {"names": ["Coverall", "Face_Shield", "Gloves", "Goggles", "Mask"], "_type": "ClassLabel"}, "_type": "List"}}}}, ` +
				`"fingerprint": "2bd2b5e3c0f2c6f1"}`,
			map[string][]string{"objects.category": cppe5Names},
		},
		{
			// datasets 2.x: a Sequence whose feature is a dict, ids written
			// as null.
			"cppe-5 as datasets 2 writes it",
			`{"info": {"features": {"image": {"decode": true, "id": null, "_type": "Image"}, ` +
				`"objects": {"feature": {"bbox": {"feature": {"dtype": "float32", "id": null, "_type": "Value"}, "length": 4, "id": null, "_type": "Sequence"}, ` +
				`"category": {"num_classes": 5, "names": ["Coverall", "Face_Shield", "Gloves", "Goggles", "Mask"], "id": null, "_type": "ClassLabel"}}, "length": -1, "id": null, "_type": "Sequence"}}}}`,
			map[string][]string{"objects.category": cppe5Names},
		},
		{
			// testdata/parquet_hf_images.parquet's features (gen_parquet.mjs).
			"image classification",
			`{"info": {"features": {"image": {"_type": "Image"}, "label": {"names": ["even", "odd"], "_type": "ClassLabel"}}}}`,
			map[string][]string{"label": {"even", "odd"}},
		},
		{
			"list of structs, large list, names by id, a struct field named _type",
			`{"info": {"features": {"objects": [{"cls": {"names": {"1": "dog", "0": "cat", "3": "cow"}, "_type": "ClassLabel"}}], ` +
				`"tags": {"feature": {"names": ["a"], "_type": "ClassLabel"}, "_type": "LargeList"}, ` +
				`"meta": {"_type": {"names": ["x", "y"], "_type": "ClassLabel"}}, "bad": {"names": [1, 2], "_type": "ClassLabel"}}}}`,
			map[string][]string{"objects.cls": {"cat", "dog", "2", "cow"}, "tags": {"a"}, "meta._type": {"x", "y"}},
		},
		{"no class labels", `{"info": {"features": {"x": {"dtype": "float32", "_type": "Value"}}}}`, map[string][]string{}},
	} {
		got, err := ClassNames(c.json)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"", "{", `{"info": {}}`, `{"features": {}}`, `[1]`} {
		if _, err := ClassNames(bad); err == nil {
			t.Errorf("ClassNames(%q) gave no error", bad)
		}
	}
}

func TestNamesFor(t *testing.T) {
	all := map[string][]string{"objects.category": cppe5Names, "label": {"a", "b"}}
	for _, c := range []struct {
		path string
		want []string
	}{
		{"objects.category", cppe5Names},
		{"objects.bbox", cppe5Names},
		{"label", []string{"a", "b"}},
		{"annotation", nil},
		{"other.bbox", nil},
	} {
		if got := NamesFor(all, c.path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("NamesFor(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// SchemaClassNames reads the "huggingface" key of a schema's metadata and
// gives nothing, not an error, when the key is missing or does not parse.
func TestSchemaClassNames(t *testing.T) {
	hf := `{"info": {"features": {"image": {"_type": "Image"}, "label": {"names": ["even", "odd"], "_type": "ClassLabel"}}}}`
	for _, c := range []struct {
		name string
		md   arrow.Metadata
		path string
		want []string
	}{
		{"labelled column", arrow.NewMetadata([]string{"huggingface"}, []string{hf}), "label", []string{"even", "odd"}},
		{"other column", arrow.NewMetadata([]string{"huggingface"}, []string{hf}), "image", nil},
		{"no huggingface key", arrow.NewMetadata([]string{"pandas"}, []string{hf}), "label", nil},
		{"unparsable", arrow.NewMetadata([]string{"huggingface"}, []string{"{"}), "label", nil},
		{"no metadata", arrow.Metadata{}, "label", nil},
	} {
		if got := SchemaClassNames(c.md, c.path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDictionaryNames(t *testing.T) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]string{"road", "sidewalk"}, nil)
	b.AppendNull()
	b.Append("sky")
	dict := b.NewArray()
	defer dict.Release()
	if got, want := DictionaryNames(dict), []string{"road", "sidewalk", "", "sky"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DictionaryNames = %q, want %q", got, want)
	}
}
