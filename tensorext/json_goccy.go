//go:build !tinygo && !arrow_json_stdlib

package tensorext

import "github.com/goccy/go-json"

// ValueStr writes JSON with the library arrow-go's own ValueStr uses in the
// same build (arrow-go's internal/json: goccy/go-json unless the build tag
// arrow_json_stdlib or tinygo picks encoding/json), so that its texts and
// arrow-go's agree to the character (the two write 2^-24 as 5.9604645e-08
// and 5.9604645e-8).
var marshalJSON = json.Marshal

type rawJSON = json.RawMessage
