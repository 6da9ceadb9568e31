package dialect

import "github.com/apache/arrow-go/v18/arrow"

// Arrow's field metadata keys for extension types (Arrow columnar format,
// "Extension Types").
const (
	ExtensionNameKey     = "ARROW:extension:name"
	ExtensionMetadataKey = "ARROW:extension:metadata"
)

// NewInput returns the Input for field f of a schema with custom metadata
// schemaMeta. Extension and Metadata come from f's type when it is an
// extension type registered with arrow-go (ExtensionName, Serialize), else
// from f's ARROW:extension:name and ARROW:extension:metadata field metadata,
// which is where arrow-go leaves them for unregistered names (with the
// storage type as f.Type).
func NewInput(f arrow.Field, schemaMeta arrow.Metadata) Input {
	in := Input{Field: f, Schema: schemaMeta}
	if e, ok := f.Type.(arrow.ExtensionType); ok {
		in.Extension = e.ExtensionName()
		in.Metadata = safeSerialize(e)
		return in
	}
	if k := f.Metadata.FindKey(ExtensionNameKey); k >= 0 {
		in.Extension = f.Metadata.Values()[k]
	}
	if k := f.Metadata.FindKey(ExtensionMetadataKey); k >= 0 {
		in.Metadata = f.Metadata.Values()[k]
	}
	return in
}

func safeSerialize(e arrow.ExtensionType) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return e.Serialize()
}
