package tensorext

import "testing"

func TestFormatShape(t *testing.T) {
	for _, c := range []struct {
		v          []int
		want, join string
	}{
		{nil, "[]", ""},
		{[]int{7}, "[7]", "7"},
		{[]int{2, 3, 4}, "[2,3,4]", "2,3,4"},
		{[]int{-1, 0, 1 << 40}, "[-1,0,1099511627776]", "-1,0,1099511627776"},
	} {
		if got := FormatShape(c.v); got != c.want {
			t.Errorf("FormatShape(%v) = %q, want %q", c.v, got, c.want)
		}
		if got := JoinShape(c.v); got != c.join {
			t.Errorf("JoinShape(%v) = %q, want %q", c.v, got, c.join)
		}
	}
	if got := FormatShape([]int64{3, -9223372036854775808}); got != "[3,-9223372036854775808]" {
		t.Errorf("int64: %q", got)
	}
}
