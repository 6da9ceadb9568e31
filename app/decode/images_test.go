package decode

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/tensorext"
)

// formulaPNG is testdata/images_expected.json: the PNG gen_images.mjs
// encoded from a formula, row 0 of both image files.
type formulaPNG struct {
	Width, Height, Channels int
	Pixels                  []int
}

func loadFormula(t *testing.T) formulaPNG {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "images_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Formula formulaPNG }
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return e.Formula
}

// checkFormula compares the image in a cell holding the formula PNG with
// what the generator encoded: its header (Value.Encoded) and its decoded
// tensor (File.Tensor).
func checkFormula(t *testing.T, f *File, row int64, col int, want formulaPNG) {
	t.Helper()
	v, err := f.Value(row, col)
	if err != nil {
		t.Fatal(err)
	}
	b, info, err := v.Encoded()
	if err != nil || b == nil || info.String() != "PNG 24×16 RGB" || info.Width != want.Width || info.Height != want.Height || info.Channels != want.Channels {
		t.Fatalf("row %d: %d bytes of %s (%v), want the formula PNG", row, len(b), info, err)
	}
	tn, err := f.Tensor(row, col)
	if err != nil {
		t.Fatal(err)
	}
	if shape := []int{want.Height, want.Width, want.Channels}; !reflect.DeepEqual(tn.Shape, shape) || tn.ValueType().String() != "uint8" {
		t.Errorf("row %d: tensor %v %s, want %v uint8", row, tn.Shape, tn.ValueType(), shape)
	}
	k := 0
	tn.Positions(func(pos int) bool {
		if v, _ := tn.Float64(pos); int(v) != want.Pixels[k] {
			t.Fatalf("row %d element %d = %v, want %d", row, k, v, want.Pixels[k])
		}
		k++
		return true
	})
	if k != len(want.Pixels) {
		t.Errorf("row %d: %d elements, want %d", row, k, len(want.Pixels))
	}
}

// encoded is Value.Encoded of the value in column col at row.
func encoded(t *testing.T, f *File, row int64, col int) ([]byte, imagebytes.Info, error) {
	t.Helper()
	v, err := f.Value(row, col)
	if err != nil {
		t.Fatalf("row %d: %v", row, err)
	}
	return v.Encoded()
}

// TestEncodedImages: binary values holding PNG, WebP, JPEG and GIF bytes are
// encoded images (the header's facts, the tensor from the decoders); other
// bytes are not; a header declaring 10^10 pixels is refused before
// decoding; a Hugging Face Image struct column reads its bytes field.
func TestEncodedImages(t *testing.T) {
	want := loadFormula(t)
	f := open(t, filepath.Join("..", "..", "testdata", "images_bytes.arrow"))
	col := 1
	if fld := f.Fields()[col]; !fld.Images || fld.Tensor != nil {
		t.Fatalf("image column: %+v", fld)
	}
	checkFormula(t, f, 0, col, want)
	for row, info := range map[int64]string{1: "WebP 75×100 RGB", 2: "JPEG 150×103 gray", 3: "GIF 256×128 RGBA", 4: "PNG 75×100 RGBA"} {
		b, got, err := encoded(t, f, row, col)
		if err != nil || b == nil || got.String() != info {
			t.Errorf("row %d: %d bytes of %s (%v), want an image %q", row, len(b), got, err, info)
			continue
		}
		tn, err := f.Tensor(row, col)
		if shape := []int{got.Height, got.Width, got.Channels}; err != nil || !reflect.DeepEqual(tn.Shape, shape) {
			t.Errorf("row %d: decoded %v (%v), the header says %v", row, tn.Shape, err, shape)
		}
	}
	if b, _, err := encoded(t, f, 5, col); b != nil || err != nil || valueText(f, 5, col) != base64.StdEncoding.EncodeToString([]byte("not an image, just bytes")) {
		t.Errorf("row 5: %d bytes (%v), text %q; want no image, its bytes as arrow-go's text (base64)", len(b), err, valueText(f, 5, col))
	}
	if b, _, err := encoded(t, f, 6, col); b != nil || err != nil || valueText(f, 6, col) != array.NullValueStr {
		t.Errorf("row 6: %d bytes (%v), text %q; want null", len(b), err, valueText(f, 6, col))
	}
	if _, err := f.Tensor(6, col); err != tensorext.ErrNullTensor {
		t.Errorf("row 6's tensor: %v", err)
	}
	if b, _, err := encoded(t, f, 7, col); b != nil || err == nil || !strings.Contains(err.Error(), "100000×100000") {
		t.Errorf("row 7 (a bomb): %d bytes (%v), want it refused", len(b), err)
	}

	hf := open(t, filepath.Join("..", "..", "testdata", "images_hf.arrow"))
	if fld := hf.Fields()[0]; !fld.Images {
		t.Fatalf("Hugging Face Image column: %+v", fld)
	}
	checkFormula(t, hf, 0, 0, want)
	if b, _, err := encoded(t, hf, 1, 0); b != nil || err != nil || !strings.Contains(valueText(hf, 1, 0), "images/cat.png") {
		t.Errorf("row 1 (a path only): %d bytes (%v), text %q", len(b), err, valueText(hf, 1, 0))
	}
	if b, _, err := encoded(t, hf, 2, 0); b != nil || err != nil || valueText(hf, 2, 0) != array.NullValueStr {
		t.Errorf("row 2: %d bytes (%v), text %q; want null", len(b), err, valueText(hf, 2, 0))
	}
}
