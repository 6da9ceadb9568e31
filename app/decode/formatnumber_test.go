package decode

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/dialect"
)

// TestFormatNumber checks the table's minimum and maximum text: integers
// exactly, float16, float32 and bfloat16 (a tensorext.FloatType naming
// float32) with 6 digits of a float32, float64 with 6 digits of a float64.
func TestFormatNumber(t *testing.T) {
	bf16 := dialect.NewBFloat16Type()
	cases := []struct {
		v    float64
		dt   arrow.DataType
		want string
	}{
		{-7, arrow.PrimitiveTypes.Int32, "-7"},
		{1, arrow.FixedWidthTypes.Boolean, "1"},
		{1.1015625, bf16, "1.10156"},
		{0x1.fep+127, bf16, "3.38953e+38"},
		{0x1p-133, bf16, "9.18355e-41"},
		{float64(float32(0.1)), arrow.PrimitiveTypes.Float32, "0.1"},
		{float64(float32(0.1)), arrow.PrimitiveTypes.Float64, "0.1"},
		{0x1p-24, arrow.FixedWidthTypes.Float16, "5.96046e-08"},
	}
	for _, c := range cases {
		if got := formatNumber(c.v, c.dt); got != c.want {
			t.Errorf("formatNumber(%v, %s) = %q, want %q", c.v, c.dt, got, c.want)
		}
	}
}
