package overlay

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestCandidates(t *testing.T) {
	f64 := arrow.PrimitiveTypes.Float64
	for _, c := range []struct {
		name string
		cols []Column
		a    int
		want []Candidate
	}{
		{
			name: "a prediction and its target first, then by column order, then the others",
			cols: []Column{
				{Name: "id"}, // no shape: not offered
				tensorCol("target", f32, false, 3, 12, 16),
				tensorCol("depth", f32, false, 3, 12, 16),
				tensorCol("prediction", f32, false, 3, 12, 16),
				tensorCol("baseline", f64, false, 3, 12, 16),
				tensorCol("thumb", f32, false, 12, 16),
				tensorCol("logits", f64, false, 10),
				tensorCol("crop", f32, false, -1, -1),
			},
			a: 1,
			want: []Candidate{
				{Col: 3, Compatible: true, Score: 3, Reason: `prediction: float32 3×12×16, as target; named like a prediction or target ("prediction")`},
				{Col: 2, Compatible: true, Reason: "depth: float32 3×12×16, as target"},
				{Col: 4, Reason: "baseline: float64 3×12×16, target is float32"},
				{Col: 5, Reason: "thumb: float32 12×16, target is 3×12×16"},
				{Col: 6, Reason: "logits: float64 10, target is float32 3×12×16"},
				{Col: 7, Reason: "crop: float32 ?×?, sizes vary from row to row"},
			},
		},
		{
			name: "an unnamed tensor: named candidates score 2",
			cols: []Column{tensorCol("a", f32, false, 2, 2), tensorCol("b", f32, false, 2, 2), tensorCol("y_true", f32, false, 2, 2)},
			a:    0,
			want: []Candidate{
				{Col: 2, Compatible: true, Score: 2, Reason: `y_true: float32 2×2, as a; named like a prediction or target ("y")`},
				{Col: 1, Compatible: true, Reason: "b: float32 2×2, as a"},
			},
		},
		{
			name: "encoded images compare as uint8 height×width×channels",
			cols: []Column{encoded("image", 12, 16, 3), encoded("reconstruction", 12, 16, 3), tensorCol("recon_t", u8, true, 12, 16, 3), encoded("small", 6, 8, 3), encoded("unread")},
			a:    0,
			want: []Candidate{
				{Col: 1, Compatible: true, Score: 2, Reason: `reconstruction: uint8 12×16×3, as image; named like a prediction or target ("reconstruction")`},
				{Col: 2, Compatible: true, Score: 2, Reason: `recon_t: uint8 12×16×3, as image; named like a prediction or target ("recon")`},
				{Col: 3, Reason: "small: uint8 6×8×3, image is 12×16×3"},
			},
		},
		{
			name: "the compared tensor's sizes vary in this row: nothing is compatible",
			cols: []Column{tensorCol("crop", f32, false, -1, 4), tensorCol("pred", f32, false, -1, 4)},
			a:    0,
			want: []Candidate{{Col: 1, Reason: "pred: float32 ?×4, sizes vary from row to row"}},
		},
		{name: "a column out of range", cols: []Column{tensorCol("a", f32, false, 2)}, a: 3},
		{name: "nothing else", cols: []Column{tensorCol("a", f32, false, 2)}, a: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Candidates(c.cols, c.a); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Candidates =\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
}

func TestTimesShape(t *testing.T) {
	for _, c := range []struct {
		shape []int
		want  string
	}{{nil, "scalar"}, {[]int{7}, "7"}, {[]int{3, 12, 16}, "3×12×16"}, {[]int{-1, 0, 3}, "?×0×3"}} {
		if got := TimesShape(c.shape); got != c.want {
			t.Errorf("TimesShape(%v) = %q, want %q", c.shape, got, c.want)
		}
	}
}
