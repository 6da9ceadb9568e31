package inspect

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

func TestColumnStatsBuilder(t *testing.T) {
	typ, err := tensorext.NewVariableShapeTensorType(arrow.PrimitiveTypes.Float64, 2, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]int{1, 2}, []float64{1, 2})
	b.AppendNull()
	_ = b.AppendTensor([]int{2, 2}, []float64{3, 4, math.NaN(), math.Inf(1)})
	_ = b.AppendTensor([]int{1, 2}, []float64{5, 6})
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()
	c := NewColumnStatsBuilder(5)
	each := func(add func(tensorext.Tensor)) {
		for i := range 5 {
			tt, err := arr.Tensor(i)
			switch {
			case i == 4:
				c.AddBad()
			case errors.Is(err, tensorext.ErrNullTensor):
				c.AddNull()
			case err != nil:
				t.Fatal(err)
			default:
				add(tt)
			}
		}
	}
	each(c.Add)
	if !c.StartHistogram() {
		t.Fatal("no second pass")
	}
	each(func(tt tensorext.Tensor) { c.AddToHistogram(tt) })
	st := c.Stats()
	// Finite values 1..6: mean 3.5, population std sqrt(35/12).
	if st.Rows != 5 || st.NullRows != 1 || st.BadRows != 1 || st.Count != 8 || st.Finite != 6 || st.NaN != 1 || st.PosInf != 1 {
		t.Errorf("counts %+v", st)
	}
	if st.Min != 1 || st.Max != 6 || math.Abs(st.Mean-3.5) > 1e-12 || math.Abs(st.Std-math.Sqrt(35.0/12)) > 1e-12 {
		t.Errorf("min %v max %v mean %v std %v", st.Min, st.Max, st.Mean, st.Std)
	}
	// numpy.histogram([1..6], bins=5, range=(1, 6)) = [1 1 1 1 2].
	if !reflect.DeepEqual(st.Hist, []int{1, 1, 1, 1, 2}) {
		t.Errorf("histogram %v", st.Hist)
	}
	want := []ShapeCount{{Shape: []int{1, 2}, Rows: 2}, {Shape: []int{2, 2}, Rows: 1}}
	if !reflect.DeepEqual(st.Shapes, want) || st.OtherShapes != 0 {
		t.Errorf("shapes %+v other %d", st.Shapes, st.OtherShapes)
	}
}
