package raster

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/dialect"
	"github.com/tensorview/tensorview/tensorext"
)

// TestPreviewBFloat16 draws a bfloat16 [2, 2, 3] RGB tensor and its float32
// and float16 twins (the same values): layouts, ranges and pixels are equal.
func TestPreviewBFloat16(t *testing.T) {
	mem := memory.DefaultAllocator
	// bfloat16 bits of 0, 0.0625, ..., 0.6875 (k/16: exact) and the float32 twin.
	fb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 2})
	defer fb.Release()
	f32 := array.NewFloat32Builder(mem)
	defer f32.Release()
	f16 := array.NewFloat16Builder(mem)
	defer f16.Release()
	for k := 0; k < 12; k++ {
		v := float32(k) / 16
		f32.Append(v)
		f16.Append(float16.New(v)) // k/16 is exact in float16 too
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
		fb.Append(b[2:4]) // the upper 16 bits, little-endian
	}
	st := fb.NewArray()
	defer st.Release()
	bf := array.NewExtensionArrayWithStorage(dialect.NewBFloat16Type(), st)
	defer bf.Release()
	fa := f32.NewArray()
	defer fa.Release()

	shape, strides := []int{2, 2, 3}, []int{6, 3, 1}
	tb := tensorext.Tensor{Values: bf, Shape: shape, Strides: strides}
	tf := tensorext.Tensor{Values: fa, Shape: shape, Strides: strides}
	lb, ok := FindPicture(shape, nil, bf.DataType())
	if lf, _ := FindPicture(shape, nil, fa.DataType()); !ok || lb != lf || lb.Kind != RGB {
		t.Fatalf("layout %+v %v, float32 %+v", lb, ok, lf)
	}
	lo, hi, ok := Range(tb)
	if !ok || lo != 0 || hi != 11.0/16 {
		t.Errorf("Range = %v, %v, %v", lo, hi, ok)
	}
	ha := f16.NewArray()
	defer ha.Release()
	th := tensorext.Tensor{Values: ha, Shape: shape, Strides: strides}
	if lh, _ := FindPicture(shape, nil, ha.DataType()); lh != lb {
		t.Errorf("float16 layout %+v", lh)
	}
	pb, pf, ph := Preview(tb, lb), Preview(tf, lb), Preview(th, lb)
	if pb == nil || !bytes.Equal(pb.Pix, pf.Pix) || !bytes.Equal(ph.Pix, pf.Pix) {
		t.Errorf("pixels %v, float32 %v, float16 %v", pb, pf.Pix, ph.Pix)
	}
}
