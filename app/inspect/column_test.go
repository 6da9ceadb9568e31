package inspect

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

func TestComputeColumnStats(t *testing.T) {
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
	read := func(i int) (tensorext.Tensor, bool, error) {
		if i == 4 {
			return tensorext.Tensor{}, false, errors.New("broken")
		}
		tt, err := arr.Tensor(i)
		if errors.Is(err, tensorext.ErrNullTensor) {
			return tt, false, nil
		}
		return tt, err == nil, err
	}
	var calls, last, lastTotal int
	c, err := ComputeColumnStats(context.Background(), 5, read, 5, func(done, total int) {
		if done < last || total != 10 {
			t.Errorf("progress %d of %d after %d: want a rising count of 10", done, total, last)
		}
		calls, last, lastTotal = calls+1, done, total
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 11 || last != 10 || lastTotal != 10 {
		t.Errorf("progress called %d times, last %d of %d; want 11 calls ending at 10 of 10", calls, last, lastTotal)
	}
	// Finite values 1..6: mean 3.5, population std sqrt(35/12).
	if c.Rows != 5 || c.NullRows != 1 || c.BadRows != 1 || c.Count != 8 || c.Finite != 6 || c.NaN != 1 || c.PosInf != 1 {
		t.Errorf("counts %+v", c)
	}
	if c.Min != 1 || c.Max != 6 || math.Abs(c.Mean-3.5) > 1e-12 || math.Abs(c.Std-math.Sqrt(35.0/12)) > 1e-12 {
		t.Errorf("min %v max %v mean %v std %v", c.Min, c.Max, c.Mean, c.Std)
	}
	// numpy.histogram([1..6], bins=5, range=(1, 6)) = [1 1 1 1 2].
	if !reflect.DeepEqual(c.Hist, []int{1, 1, 1, 1, 2}) {
		t.Errorf("histogram %v", c.Hist)
	}
	want := []ShapeCount{{Shape: []int{1, 2}, Rows: 2}, {Shape: []int{2, 2}, Rows: 1}}
	if !reflect.DeepEqual(c.Shapes, want) || c.OtherShapes != 0 {
		t.Errorf("shapes %+v other %d", c.Shapes, c.OtherShapes)
	}
}

// Cancelling stops the computation between rows with the context's error.
func TestComputeColumnStatsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	read := 0
	_, err := ComputeColumnStats(ctx, 100, func(i int) (tensorext.Tensor, bool, error) {
		read++
		if i == 9 {
			cancel()
		}
		return tensorext.Tensor{}, false, nil
	}, 8, nil)
	if !errors.Is(err, context.Canceled) || read != 10 {
		t.Errorf("cancelled at row 9: err %v after %d rows, want context.Canceled after 10", err, read)
	}
}
