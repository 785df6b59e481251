package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The build-file check (G6) tests the path as resolveToRealPath makes it,
// percent-decoded and a file:// URL made a path, and finds edit tools by
// JavaScript's lowercase, as 0.61.0 does (testdata/paths-desk.json holds
// these on the release).
func TestBuildFileDecodedAndLowercased(t *testing.T) {
	for _, tt := range []struct {
		name, tool, path string
		want             string
	}{
		{"encoded dot", "write_file", "package%2Ejson", AskUser},
		{"encoded slash", "write_file", "a%2Fgo.mod", AskUser},
		{"decoded NUL kept undecoded", "write_file", "package%2Ejson%00", Allow},
		{"file URL query", "write_file", "file:///x/Makefile?y", AskUser},
		{"file URL dot segments", "write_file", "file:///a/%2e%2e/Makefile", AskUser},
		{"file URL decoded twice", "write_file", "file:///a/package%252Ejson", AskUser},
		{"file URL with a host kept", "write_file", "file://host/x/Makefile.bak", Allow},
		{"plain build file", "write_file", "Makefile", AskUser},
		{"dotted capital I is no write", "mcp_srv_WRİTE", "Makefile", Allow},
		{"capital WRITE is write", "mcp_srv_WRITE", "Makefile", AskUser},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mode, args, server := ModeAutoEdit, map[string]any{"file_path": tt.path, "content": "x"}, ""
			if tt.tool != "write_file" {
				mode, args, server = ModeYolo, map[string]any{"path": tt.path}, "srv"
			}
			e, err := NewEngine(Config{Release: Newest(), Mode: mode, Interactive: true, Trusted: true})
			require.NoError(t, err)
			res, err := e.Check(Call{Name: tt.tool, Args: args, HasArgs: true, Server: server})
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Decision)
		})
	}
}
