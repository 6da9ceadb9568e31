package overlay

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// CompareWords are the name words of the columns a tensor is most often
// compared with: predictions and their targets, outputs and references,
// reconstructions (matched as MaskWords are).
var CompareWords = []string{"pred*", "target*", "gt", "truth", "ground", "label*", "output*", "out",
	"recon*", "reference", "ref", "expected", "actual", "estimate*", "est", "logits", "y"}

// Candidate is a column offered to compare a tensor with.
type Candidate struct {
	// Col is the candidate's index among the columns given to Candidates.
	Col int
	// Compatible reports the same logical shape (every size known) and the
	// same value type as the tensor compared: Diff can take the two.
	Compatible bool
	// Score ranks compatible candidates (higher first): 2 when the
	// candidate's name is a prediction's or a target's (CompareWords), 1
	// more when the compared tensor's is too.
	Score int
	// Reason says why it is offered, or why it does not fit: `prediction:
	// float32 3×12×16, as target; named like a prediction or target
	// ("prediction")`, `thumb: float32 12×16, target is 3×12×16`.
	Reason string
}

// Candidates lists the columns a tensor of column a can be compared with in
// the same row: every other column described with a shape (tensors, and
// encoded images by their header), the compatible ones first (same logical
// shape with every size known, same value type), ranked by Score, then in
// column order; then the others in column order, with what differs. A
// column whose sizes vary (-1) is compatible only once a row's sizes are
// given. cols are one row's (as for Pairs).
func Candidates(cols []Column, a int) []Candidate {
	if a < 0 || a >= len(cols) {
		return nil
	}
	ac := cols[a]
	aNamed := matchWord(ac.Name, CompareWords) != ""
	var good, other []Candidate
	for i, c := range cols {
		if i == a || c.Shape == nil {
			continue
		}
		cand := Candidate{Col: i}
		what := valueTypeName(c) + " " + TimesShape(c.Shape)
		switch why := mismatch(ac, c); why {
		case "":
			cand.Compatible = true
			reasons := []string{what + ", as " + ac.Name}
			if w := matchWord(c.Name, CompareWords); w != "" {
				cand.Score = 2
				if aNamed {
					cand.Score++
				}
				reasons = append(reasons, "named like a prediction or target ("+strconv.Quote(w)+")")
			}
			cand.Reason = c.Name + ": " + strings.Join(reasons, "; ")
			good = append(good, cand)
		default:
			cand.Reason = c.Name + ": " + what + ", " + why
			other = append(other, cand)
		}
	}
	sort.SliceStable(good, func(i, j int) bool { return good[i].Score > good[j].Score })
	return append(good, other...)
}

// mismatch says how column c differs from column a for a comparison ("" when
// it does not).
func mismatch(a, c Column) string {
	sameShape := slices.Equal(a.Shape, c.Shape) && !slices.Contains(a.Shape, -1)
	at, ct := columnType(a), columnType(c)
	sameType := at != nil && ct != nil && arrow.TypeEqual(at, ct)
	switch {
	case a.Shape == nil:
		return "the shape of " + a.Name + " is not known"
	case slices.Contains(a.Shape, -1) || slices.Contains(c.Shape, -1):
		return "sizes vary from row to row"
	case !sameShape && !sameType:
		return fmt.Sprintf("%s is %s %s", a.Name, valueTypeName(a), TimesShape(a.Shape))
	case !sameShape:
		return a.Name + " is " + TimesShape(a.Shape)
	case !sameType:
		return a.Name + " is " + valueTypeName(a)
	}
	return ""
}

// columnType is the value type of c's tensors: uint8 for encoded images.
func columnType(c Column) arrow.DataType {
	if c.Encoded {
		return arrow.PrimitiveTypes.Uint8
	}
	return c.ValueType
}

func valueTypeName(c Column) string {
	if t := columnType(c); t != nil {
		return t.String()
	}
	return "values"
}

// TimesShape writes a shape with × between the sizes ("3×12×16", "?" for
// a size that varies, "scalar" for none).
func TimesShape(shape []int) string {
	if len(shape) == 0 {
		return "scalar"
	}
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = "?"
		if n >= 0 {
			parts[i] = strconv.Itoa(n)
		}
	}
	return strings.Join(parts, "×")
}
