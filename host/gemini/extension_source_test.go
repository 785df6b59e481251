package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestExtensionSource: the extension's name is a JavaScript replacement
// string in the rule's source.
func TestExtensionSource(t *testing.T) {
	tests := []struct{ name, want string }{
		{"ext", "Extension (ext): policy.toml"},
		{"a$&b", "Extension (aExtension: b): policy.toml"},
		{"a$$b", "Extension (a$b): policy.toml"},
		{"a$'b", "Extension (apolicy.tomlb): policy.toml"},
		{"a$`b", "Extension (ab): policy.toml"},
		{"a$1b", "Extension (a$1b): policy.toml"},
		{"a$<x>b", "Extension (a$<x>b): policy.toml"},
		{"$", "Extension ($): policy.toml"},
		{"a$", "Extension (a$): policy.toml"},
		{"$$$&", "Extension ($Extension: ): policy.toml"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, extensionSource("Extension: policy.toml", tt.name), tt.name)
	}
	assert.Equal(t, "User: x.toml", extensionSource("User: x.toml", "a$&b"), "only a source that starts so")
}
