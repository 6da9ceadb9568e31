package decode

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/raster"
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

// checkFormula compares the tensor of a cell holding the formula PNG with
// the values the generator encoded.
func checkFormula(t *testing.T, f *File, row int64, col int, want formulaPNG) {
	t.Helper()
	c := f.Cell(row, col)
	if c.Tensor == nil || c.Tensor.Image == nil {
		t.Fatalf("row %d: %+v, want an encoded image", row, c)
	}
	tc := c.Tensor
	if shape := []int{want.Height, want.Width, want.Channels}; !reflect.DeepEqual(tc.Shape, shape) || tc.ValueType != "uint8" ||
		tc.PreviewKind != raster.RGB || tc.Image.Info.String() != "PNG 24×16 RGB" || tc.Image.PreviewW != 24 || tc.Image.PreviewH != 16 {
		t.Errorf("row %d: shape %v %s %s, %s, thumbnail %dx%d", row, tc.Shape, tc.ValueType, tc.PreviewKind, tc.Image.Info, tc.Image.PreviewW, tc.Image.PreviewH)
	}
	tn, err := f.Tensor(row, col)
	if err != nil {
		t.Fatal(err)
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

// TestEncodedImages: binary cells holding PNG, WebP, JPEG and GIF bytes are
// image tensors (shape from the header, values from the decoders); other
// bytes show as text; a header declaring 10^10 pixels is refused before
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
		c := f.Cell(row, col)
		if c.Tensor == nil || c.Tensor.Image == nil || c.Tensor.Image.Info.String() != info {
			t.Errorf("row %d: %+v, want an image %q", row, c, info)
			continue
		}
		tn, err := f.Tensor(row, col)
		if err != nil || !reflect.DeepEqual(tn.Shape, c.Tensor.Shape) {
			t.Errorf("row %d: decoded %v (%v), the header says %v", row, tn.Shape, err, c.Tensor.Shape)
		}
	}
	if c := f.Cell(5, col); c.Tensor != nil || c.Text != base64.StdEncoding.EncodeToString([]byte("not an image, just bytes")) {
		t.Errorf("row 5: %+v, want its bytes as arrow-go's text (base64)", c)
	}
	if c := f.Cell(6, col); !c.Null {
		t.Errorf("row 6: %+v, want null", c)
	}
	if _, err := f.Tensor(6, col); err != tensorext.ErrNullTensor {
		t.Errorf("row 6's tensor: %v", err)
	}
	if c := f.Cell(7, col); !strings.Contains(c.Err, "100000×100000") {
		t.Errorf("row 7 (a bomb): %+v, want it refused", c)
	}

	hf := open(t, filepath.Join("..", "..", "testdata", "images_hf.arrow"))
	if fld := hf.Fields()[0]; !fld.Images {
		t.Fatalf("Hugging Face Image column: %+v", fld)
	}
	checkFormula(t, hf, 0, 0, want)
	if c := hf.Cell(1, 0); c.Tensor != nil || !strings.Contains(c.Text, "images/cat.png") {
		t.Errorf("row 1 (a path only): %+v", c)
	}
	if c := hf.Cell(2, 0); !c.Null {
		t.Errorf("row 2: %+v, want null", c)
	}
}
