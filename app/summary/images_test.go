package summary

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/raster"
)

// TestEncodedImageCells: a cell holding PNG, WebP, JPEG or GIF bytes is an
// image tensor whose shape (height × width × channels, uint8) comes from
// the header and whose thumbnail is the image's size (at most
// raster.MaxPreviewSide a side) in its channels' kind; other bytes show as
// arrow-go's text; a header declaring 10^10 pixels is the cell's error; a
// Hugging Face Image struct's path alone shows as text.
func TestEncodedImageCells(t *testing.T) {
	f := testFile(t, "images_bytes.arrow")
	for row, want := range []struct {
		info   string
		shape  []int
		kind   raster.Kind
		thumbW int
		thumbH int
	}{
		{"PNG 24×16 RGB", []int{16, 24, 3}, raster.RGB, 24, 16},
		{"WebP 75×100 RGB", []int{100, 75, 3}, raster.RGB, 75, 100},
		{"JPEG 150×103 gray", []int{103, 150, 1}, raster.Gray, 150, 103},
		{"GIF 256×128 RGBA", []int{128, 256, 4}, raster.RGBA, 256, 128},
		{"PNG 75×100 RGBA", []int{100, 75, 4}, raster.RGBA, 75, 100},
	} {
		c := At(f, int64(row), 1)
		tc := c.Tensor
		if tc == nil || tc.Image == nil {
			t.Errorf("row %d: %+v, want an encoded image", row, c)
			continue
		}
		if got := tc.Image.Info.String(); got != want.info || !slices.Equal(tc.Shape, want.shape) || !slices.Equal(tc.LogicalShape, want.shape) ||
			tc.ValueType != "uint8" || tc.Len != want.shape[0]*want.shape[1]*want.shape[2] || tc.PreviewKind != want.kind || tc.Preview != nil ||
			tc.Image.PreviewW != want.thumbW || tc.Image.PreviewH != want.thumbH || len(tc.Image.Bytes) == 0 {
			t.Errorf("row %d: %s, shape %v (logical %v) %s of %d, %s preview (drawn %v), thumbnail %d×%d; want %s %v %s %d×%d",
				row, got, tc.Shape, tc.LogicalShape, tc.ValueType, tc.Len, tc.PreviewKind, tc.Preview != nil, tc.Image.PreviewW, tc.Image.PreviewH,
				want.info, want.shape, want.kind, want.thumbW, want.thumbH)
		}
	}
	if c := At(f, 5, 1); c.Tensor != nil || c.Text != base64.StdEncoding.EncodeToString([]byte("not an image, just bytes")) {
		t.Errorf("row 5: %+v, want its bytes as arrow-go's text (base64)", c)
	}
	if c := At(f, 6, 1); !c.Null || c.Text != "(null)" {
		t.Errorf("row 6: %+v, want null", c)
	}
	if c := At(f, 7, 1); c.Tensor != nil || !strings.Contains(c.Err, "100000×100000") {
		t.Errorf("row 7 (a bomb): %+v, want it refused", c)
	}

	hf := testFile(t, "images_hf.arrow")
	if c := At(hf, 0, 0); c.Tensor == nil || c.Tensor.Image == nil || c.Tensor.Image.Info.String() != "PNG 24×16 RGB" {
		t.Errorf("row 0: %+v, want the PNG", c)
	}
	if c := At(hf, 1, 0); c.Tensor != nil || !strings.Contains(c.Text, "images/cat.png") {
		t.Errorf("row 1 (a path only): %+v", c)
	}
	if c := At(hf, 2, 0); !c.Null {
		t.Errorf("row 2: %+v, want null", c)
	}
}
