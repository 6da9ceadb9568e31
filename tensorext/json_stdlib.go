//go:build tinygo || arrow_json_stdlib

package tensorext

import "encoding/json"

// ValueStr writes JSON with the library arrow-go's own ValueStr uses in the
// same build: encoding/json under the build tag arrow_json_stdlib or tinygo
// (json_goccy.go has the other case).
var marshalJSON = json.Marshal

type rawJSON = json.RawMessage
