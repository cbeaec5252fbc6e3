//go:build unix

package cmdutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/gctune/gctune/internal/outfile"
)

// outputCmd is a command named name that declares --output as a file it writes and --dir as a
// directory, given out and dir.
func outputCmd(t *testing.T, name, out, dir string) *cobra.Command {
	t.Helper()
	c := &cobra.Command{Use: name, Annotations: Declare("", []string{"output"}, []string{"dir"})}
	c.Flags().String("output", "", "")
	c.Flags().String("dir", "", "")
	require.NoError(t, c.Flags().Set("output", out))
	require.NoError(t, c.Flags().Set("dir", dir))
	return c
}

// TestCheckOutputs: a writable output and directory pass; an unwritable one is an
// *outfile.Error behind its flag; a file written beside an output is checked with it, and a
// FIFO among them is refused naming the group.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	assert.NoError(t, CheckOutputs(outputCmd(t, "report", filepath.Join(dir, "r.html"), filepath.Join(dir, "figs")), nil))

	err := CheckOutputs(outputCmd(t, "report", filepath.Join(dir, "missing", "r.html"), ""), nil)
	var oe *outfile.Error
	require.True(t, errors.As(err, &oe), "%v", err)
	assert.Regexp(t, `^--output: `, err.Error())

	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	err = CheckOutputs(outputCmd(t, "report", "", file), nil)
	assert.Regexp(t, `^--dir: .*not a directory`, err)

	csv := filepath.Join(dir, "x.csv")
	meta := filepath.Join(dir, "x.json")
	beside := func(p string) []string { return []string{meta} }
	assert.NoError(t, CheckOutputs(outputCmd(t, "sample", csv, ""), beside))
	require.NoError(t, unix.Mkfifo(meta, 0o644))
	err = CheckOutputs(outputCmd(t, "sample", csv, ""), beside)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sample writes regular files only, "+csv+" and "+meta)
	assert.NoError(t, CheckOutputs(outputCmd(t, "simulate", meta, ""), nil), "a FIFO alone is written in place")
}

// TestCheckOutputsNotInputs: an output that is an input, by another name, or one written
// beside it, or the study database, is refused behind its flag.
func TestCheckOutputsNotInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	require.NoError(t, os.WriteFile(in, nil, 0o644))
	link := filepath.Join(dir, "link.csv")
	require.NoError(t, os.Symlink(in, link))
	assert.NoError(t, CheckOutputsNotInputs(outputCmd(t, "x", filepath.Join(dir, "out"), ""), []string{in}, "", nil))
	err := CheckOutputsNotInputs(outputCmd(t, "x", link, ""), []string{in}, "", nil)
	var oe *outfile.Error
	require.True(t, errors.As(err, &oe), "%v", err)
	assert.Regexp(t, `^--output: `, err.Error())
	err = CheckOutputsNotInputs(outputCmd(t, "x", filepath.Join(dir, "out"), ""), []string{in}, "", func(string) []string { return []string{in} })
	assert.Error(t, err, "the file written beside the output is an input")

	db := filepath.Join(dir, "s.db")
	require.NoError(t, os.WriteFile(db, nil, 0o644))
	assert.Error(t, CheckOutputsNotInputs(outputCmd(t, "x", db+"-wal", ""), nil, db, nil))
}
