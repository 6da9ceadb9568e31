package main

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// jpegPictures encodes the JPEG layout's pictures: 3840×2160 gradients with
// rings, a different hue each, at quality 85 (a photo-sized file).
func jpegPictures() ([][]byte, error) {
	out := make([][]byte, jpegDistinct)
	img := image.NewRGBA(image.Rect(0, 0, jpegW, jpegH))
	for k := range out {
		for y := range jpegH {
			for x := range jpegW {
				dx, dy := x-jpegW/2, y-jpegH/2
				ring := uint8((dx*dx + dy*dy) >> 12)
				img.SetRGBA(x, y, color.RGBA{uint8(x/15) + uint8(32*k), uint8(y / 9), ring + uint8(k*17), 255})
			}
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
			return nil, err
		}
		out[k] = buf.Bytes()
	}
	return out, nil
}

// writeJPEG writes the JPEG layout: id (int64) and image (binary) in record
// batches of jpegBatchRows rows.
func writeJPEG(path string, f benchFile) error {
	pics, err := jpegPictures()
	if err != nil {
		return err
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	mem := memory.NewGoAllocator()
	return writeArrowFile(path, schema, func(w *ipc.FileWriter) error {
		for first := 0; first < f.Rows; first += jpegBatchRows {
			n := min(jpegBatchRows, f.Rows-first)
			ids := array.NewInt64Builder(mem)
			imgs := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
			for r := first; r < first+n; r++ {
				ids.Append(int64(r))
				imgs.Append(pics[r%jpegDistinct])
			}
			idArr, imgArr := ids.NewArray(), imgs.NewArray()
			ids.Release()
			imgs.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{idArr, imgArr}, int64(n))
			idArr.Release()
			imgArr.Release()
			err := w.Write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}
