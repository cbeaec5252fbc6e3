package source

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile/gcprof"
)

func TestSniffExt(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{gcprof.Magic + "rest", ".gcprof"},
		{tinyCSV, ".csv"},
		{"\ufeff  \nsizeInBytes,a,b\n1,2,3\n", ".csv"},
		{tinySpec, ".yaml"},
		{"name:\n", ".yaml"},
	} {
		got, err := SniffExt([]byte(c.head))
		require.NoError(t, err, "%q", c.head)
		assert.Equal(t, c.want, got, "%q", c.head)
	}
	for _, bad := range []string{"", "hello world", "a,b\n"} {
		_, err := SniffExt([]byte(bad))
		assert.ErrorContains(t, err, "cannot tell its kind from its content", "%q", bad)
	}
}

func TestNeedsSniffing(t *testing.T) {
	dir := writeTemp(t, map[string]string{"recorded": tinyCSV, "tiny.yaml": tinySpec})
	assert.True(t, NeedsSniffing(StdinRef))
	assert.True(t, NeedsSniffing(filepath.Join(dir, "recorded")))
	assert.False(t, NeedsSniffing(filepath.Join(dir, "tiny.yaml")), "its name says")
	assert.False(t, NeedsSniffing(dir), "a folder is no profile")
	assert.False(t, NeedsSniffing("dataframe-500mb"), "a bundled workload is no file")
	assert.Equal(t, []string{"run.csv", "run.json"}, Files("run.csv", Options{}))
	assert.Equal(t, []string{"run.CSV", "m.json"}, Files("run.CSV", Options{FiLiPJSONPath: "m.json"}))
	assert.Equal(t, []string{"tiny.yaml"}, Files("tiny.yaml", Options{}))
}

// TestOpenContextByContent: standard input and an extensionless file open as the same
// content with its extension does; the reference, never the temporary name, is what Info,
// the profile and the errors say.
func TestOpenContextByContent(t *testing.T) {
	dir := writeTemp(t, map[string]string{"tiny.yaml": tinySpec, "spec": tinySpec, "run": tinyCSV, "run.json": tinyJSON})
	want, _, err := Open(filepath.Join(dir, "tiny.yaml"), Options{Seed: 1})
	require.NoError(t, err)

	p, info, err := OpenContext(context.Background(), StdinRef, Options{Seed: 1}, StreamOptions{Stdin: strings.NewReader(tinySpec)})
	require.NoError(t, err)
	assert.Equal(t, KindSpec, info.Kind)
	assert.Equal(t, StdinRef, info.Ref)
	assert.Equal(t, want.Len(), p.Len())

	ref := filepath.Join(dir, "run")
	var checked *Info
	var checkedOpts Options
	check := func(i *Info, o Options) error { checked, checkedOpts = i, o; return nil }
	p, info, err = OpenContext(context.Background(), ref, Options{}, StreamOptions{Check: check})
	require.NoError(t, err)
	assert.Equal(t, KindFiLiP, info.Kind)
	assert.Equal(t, ref, info.Ref)
	assert.Equal(t, ref, info.Path)
	assert.Equal(t, ref, p.Meta.Source)
	assert.Equal(t, 3, p.Len())
	require.NotNil(t, checked)
	assert.Equal(t, ref+".json", checkedOpts.FiLiPJSONPath, "the metadata beside it")

	_, _, err = OpenContext(context.Background(), ref, Options{}, StreamOptions{Check: func(i *Info, _ Options) error {
		return errors.New("refused " + i.Ref)
	}})
	require.Error(t, err)
	assert.Equal(t, "refused "+ref, err.Error(), "the temporary name is never said")

	_, _, err = OpenContext(context.Background(), StdinRef, Options{}, StreamOptions{Stdin: strings.NewReader("what is this")})
	assert.ErrorContains(t, err, "-: cannot tell its kind")
}

// TestOpenContextInterrupted: a stream being copied when ctx is done gives a
// *ReadInterruptedError naming the reference, and leaves no temporary folder behind.
func TestOpenContextInterrupted(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancel(context.Background())
	r := io.MultiReader(strings.NewReader(tinySpec+strings.Repeat("# more than the head\n", 500)), readerFunc(func([]byte) (int, error) {
		cancel()
		return 0, context.Canceled
	}))
	_, _, err := OpenContext(ctx, StdinRef, Options{}, StreamOptions{Stdin: r})
	var ri *ReadInterruptedError
	require.ErrorAs(t, err, &ri)
	assert.Equal(t, StdinRef, ri.Ref)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left)
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }
