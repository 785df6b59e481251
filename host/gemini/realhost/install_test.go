package realhost

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
)

type entry struct {
	name string
	typ  byte
	body string
	link string
}

func tgz(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		require.NoError(t, tw.WriteHeader(h))
		if e.typ == tar.TypeReg {
			_, err := io.WriteString(tw, e.body)
			require.NoError(t, err)
		}
	}
	require.NoError(t, tw.Close())
	require.NoError(t, gz.Close())
	return b.Bytes()
}

func TestUnpackKeepsToThePackageFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, unpack(tgz(t,
		entry{name: "package/", typ: tar.TypeDir},
		entry{name: "package/package.json", typ: tar.TypeReg, body: `{"version":"0.61.0"}`},
		entry{name: "package/dist/src/policy/policy-engine.js", typ: tar.TypeReg, body: "export {}"},
	), dir))
	data, err := os.ReadFile(filepath.Join(dir, "package", "dist", "src", "policy", "policy-engine.js"))
	require.NoError(t, err)
	assert.Equal(t, "export {}", string(data))

	for name, bad := range map[string][]entry{
		"a path outside package/": {{name: "package/../../evil", typ: tar.TypeReg, body: "x"}},
		"another top folder":      {{name: "other/x", typ: tar.TypeReg, body: "x"}},
		"an absolute path":        {{name: "/etc/x", typ: tar.TypeReg, body: "x"}},
		"a symbolic link":         {{name: "package/link", typ: tar.TypeSymlink, link: "/etc/passwd"}},
		"a hard link":             {{name: "package/hard", typ: tar.TypeLink, link: "package/package.json"}},
		"a file twice":            {{name: "package/a", typ: tar.TypeReg, body: "1"}, {name: "package/a", typ: tar.TypeReg, body: "2"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			assert.Error(t, unpack(tgz(t, bad...), dir))
			_, err := os.Stat("/etc/x")
			assert.True(t, os.IsNotExist(err))
		})
	}
	assert.Error(t, unpack([]byte("not a tarball"), t.TempDir()))
}

func TestTarballsAreTheModelledReleases(t *testing.T) {
	ts, err := Tarballs()
	require.NoError(t, err)
	var want []string
	for _, r := range gemini.Releases() {
		want = append(want, r.Version)
	}
	assert.Equal(t, want, versions(ts), "every modelled release, and only those, can be installed")
	for _, tb := range ts {
		assert.Regexp(t, `^sha512-[A-Za-z0-9+/]{86}==$`, tb.Integrity, tb.Version)
	}
}

func TestInstallRefusesAnUnknownRelease(t *testing.T) {
	err := Install(context.Background(), t.TempDir(), "0.62.0", io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gemini@0.62.0 is not a modelled release; the releases are 0.40.0")
}

func TestListAndRemove(t *testing.T) {
	cache := t.TempDir()
	in, err := List(cache)
	require.NoError(t, err)
	assert.Empty(t, in)
	require.NoError(t, os.MkdirAll(CoreDir(cache, "0.58.0"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(CoreDir(cache, "0.58.0"), "package.json"), []byte("{}"), 0o644))
	in, err = List(cache)
	require.NoError(t, err)
	require.Len(t, in, 1)
	assert.Equal(t, "0.58.0", in[0].Version)
	require.NoError(t, Remove(cache, "0.58.0"))
	assert.Error(t, Remove(cache, "0.58.0"))
}
