package overlay

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/picture"
)

// Column describes one column of a file, or its value in one row, for the
// pairing rule. The UI fills it from decode.FieldInfo (Images, Tensor) and,
// where sizes vary, from the row's values (an encoded image's header, a
// variable-shape tensor's shape).
type Column struct {
	// Name is the column's name.
	Name string
	// Image reports a column shown as pictures: encoded images, or tensors
	// the table previews as pictures (picture.Find's Preview).
	Image bool
	// Encoded reports values that are encoded images (PNG, JPEG, …), which
	// decode to uint8 height×width×channels (imagebytes.Decode).
	Encoded bool
	// Shape is the logical shape: for Encoded, [height, width, channels]
	// from the image's header; -1 for a dimension that varies from row to
	// row or is not known yet; nil when nothing is known (an encoded image
	// whose header was not read).
	Shape []int
	// DimNames names the logical dimensions, or nil.
	DimNames []string
	// ValueType is the element type (ignored for Encoded: uint8).
	ValueType arrow.DataType
}

// Pair is a mask column that can be drawn over an image column.
type Pair struct {
	// Mask and Image are indices into the columns given to Pairs.
	Mask, Image int
	// Kind is how the mask's values are read.
	Kind MaskKind
	// Height and Width are the common size, -1 when it is known only per
	// row (then Blend checks it when drawing).
	Height, Width int
	// Score ranks the masks of one image (higher is better): 4 when the
	// mask's name is a mask's (MaskWords), 2 when both sizes are known and
	// equal, 1 for class ids or booleans (not probabilities), 1 when the
	// image's name is an image's (ImageWords).
	Score int
	// Suggested marks the pair to draw by default: the best-ranked mask of
	// its image whose name is a mask's.
	Suggested bool
	// Reason says why, for the UI: `annotation: 512×683 uint8 class ids,
	// same size as image; named like a mask ("annotation")`.
	Reason string
}

// MaskWords are the name words that mark a mask column: a word of the name
// (split at anything but letters and digits, and at lower-to-upper case
// changes) that equals one of these or, for the ones ending in "*", starts
// with it. Compared in lower case.
var MaskWords = []string{"mask*", "label*", "annotation*", "annot", "segmentation*", "seg*",
	"semantic*", "pred*", "target*", "gt*", "truth", "classes", "class"}

// ImageWords are the name words that mark an image column.
var ImageWords = []string{"image*", "img*", "photo*", "picture*", "pixel", "pixels", "rgb", "frame*", "input*"}

// nameWords splits a column name into lower-case words: at every rune that
// is not a letter or digit, and where a lower-case letter is followed by an
// upper-case one ("gtMask" → gt, mask).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

// matchWord returns the first word of name that matches one of want (see
// MaskWords), or "".
func matchWord(name string, want []string) string {
	for _, w := range nameWords(name) {
		for _, p := range want {
			if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(w, pre) || w == p {
				return w
			}
		}
	}
	return ""
}

// imageSize returns the height and width of an image column's picture (-1
// each when unknown); ok is false for a column that is not an image.
func imageSize(c Column) (h, w int, ok bool) {
	if !c.Image {
		return 0, 0, false
	}
	if c.Encoded {
		if len(c.Shape) == 3 {
			return c.Shape[0], c.Shape[1], true
		}
		return -1, -1, true
	}
	l, ok := picture.Find(c.Shape, c.DimNames, c.ValueType)
	if !ok {
		return 0, 0, false
	}
	return c.Shape[l.H], c.Shape[l.W], true
}

// maskInfo returns a mask column's size (-1 when unknown), kind and value
// type's name, or why it is no mask.
func maskInfo(c Column) (h, w int, kind MaskKind, typ string, err error) {
	if c.Encoded {
		switch {
		case len(c.Shape) != 3:
			return -1, -1, ClassIDs, "encoded image", nil
		case c.Shape[2] == 1:
			return c.Shape[0], c.Shape[1], ClassIDs, "uint8", nil
		}
		return 0, 0, NotMask, "", fmt.Errorf("%s: an image with %d channels holds colours, not class ids", c.Name, c.Shape[2])
	}
	kind = KindOf(c.ValueType)
	if kind == NotMask {
		return 0, 0, NotMask, "", fmt.Errorf("%s: %v values are no mask; need integer class ids, booleans or floating point probabilities", c.Name, c.ValueType)
	}
	hd, wd, err := MaskAxes(c.Shape, c.DimNames)
	if err != nil {
		return 0, 0, NotMask, "", fmt.Errorf("%s: %w", c.Name, err)
	}
	return c.Shape[hd], c.Shape[wd], kind, c.ValueType.String(), nil
}

// Match checks whether column mask can be drawn over column image, as the
// "overlay on…" choice of the UI asks, and returns the pair (with indices
// 0) or why not: the image has no picture, the mask's value type or shape
// is no mask (MaskAxes), or the sizes differ ("mask 256×256, image
// 512×512"). A size known on one side only, or on neither, is accepted:
// Blend checks it when drawing.
func Match(mask, image Column) (Pair, error) {
	ih, iw, ok := imageSize(image)
	if !ok {
		return Pair{}, fmt.Errorf("%s is no image", image.Name)
	}
	mh, mw, kind, typ, err := maskInfo(mask)
	if err != nil {
		return Pair{}, err
	}
	known := mh >= 0 && mw >= 0 && ih >= 0 && iw >= 0
	if known && (mh != ih || mw != iw) {
		return Pair{}, fmt.Errorf("%s is %d×%d but %s is %d×%d (height × width)", mask.Name, mh, mw, image.Name, ih, iw)
	}
	p := Pair{Kind: kind, Height: -1, Width: -1}
	var why []string
	desc := typ + " " + kind.String()
	if known {
		p.Height, p.Width = mh, mw
		p.Score += 2
		desc = strconv.Itoa(mh) + "×" + strconv.Itoa(mw) + " " + desc
		why = append(why, "same size as "+image.Name)
	} else {
		why = append(why, "size known per row, checked when drawn")
	}
	if kind != Probabilities {
		p.Score++
	}
	if w := matchWord(mask.Name, MaskWords); w != "" {
		p.Score += 4
		why = append(why, "named like a mask ("+strconv.Quote(w)+")")
	}
	if matchWord(image.Name, ImageWords) != "" {
		p.Score++
	}
	p.Reason = fmt.Sprintf("%s: %s, %s", mask.Name, desc, strings.Join(why, "; "))
	return p, nil
}

// Pairs finds the masks that can be drawn over each image column: every
// (mask, image) combination Match accepts, except that
//   - a column is not its own mask, and a column named like an image
//     (ImageWords) is no mask, nor is a column named like a mask an image;
//   - without a mask-like name (MaskWords), a float column (it may be depth
//     or any other measure) and a column whose size is not known are not
//     proposed.
//
// Pairs are ordered by image column, then by Score (best first), then, on a
// tie, by mask column order. The first pair of each image is Suggested when
// its mask is named like one. Columns' sizes may be one row's: call it again
// for another row when sizes vary.
func Pairs(cols []Column) []Pair {
	var out []Pair
	for j, im := range cols {
		if _, _, ok := imageSize(im); !ok || matchWord(im.Name, MaskWords) != "" {
			continue
		}
		for i, m := range cols {
			if i == j || (m.Image && matchWord(m.Name, ImageWords) != "") {
				continue
			}
			p, err := Match(m, im)
			if err != nil {
				continue
			}
			named := matchWord(m.Name, MaskWords) != ""
			if !named && (p.Kind == Probabilities || p.Height < 0) {
				continue
			}
			p.Mask, p.Image = i, j
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Image != out[b].Image {
			return out[a].Image < out[b].Image
		}
		return out[a].Score > out[b].Score
	})
	for k := range out {
		if k == 0 || out[k-1].Image != out[k].Image {
			out[k].Suggested = matchWord(cols[out[k].Mask].Name, MaskWords) != ""
		}
	}
	return out
}
