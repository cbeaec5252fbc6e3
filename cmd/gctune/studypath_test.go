package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A study made from a relative path in one folder is resumed, exported and explained from
// another: the study keeps the file's absolute path. With the file gone, the error says where
// it was looked for.
func TestStudyFromAnotherFolder(t *testing.T) {
	made, elsewhere := t.TempDir(), t.TempDir()
	spec, err := os.ReadFile("testdata/tiny.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(made, "run.yaml"), spec, 0o644))
	db := filepath.Join(t.TempDir(), "p.db")
	in := func(dir string, args ...string) (string, int) {
		cmd := gctuneCommand(nil, args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		return out.String(), code
	}
	out, code := in(made, "optimize", "run.yaml", "--trials", "6", "--storage", db, "--quiet", "--replicas", "0", "--search-replicas", "0")
	require.Equal(t, 0, code, out)
	for _, args := range [][]string{{"export", "run.yaml"}, {"explain", "run.yaml"}, {"resume", "run.yaml", "--more", "2", "--quiet"}} {
		out, code := in(elsewhere, append(args, "--storage", db)...)
		assert.Equal(t, 0, code, "%v from another folder: %s", args, out)
	}
	// A spec's text is stored with the study; a FiLiP export is not: with it gone, the error
	// says where it was looked for.
	out, code = in(made, "sample", "run.yaml", "--rate", "1/10", "-o", "run.csv")
	require.Equal(t, 0, code, out)
	out, code = in(made, "optimize", "run.csv", "--trials", "4", "--storage", db, "--quiet", "--replicas", "0", "--search-replicas", "0")
	require.Equal(t, 0, code, out)
	out, code = in(elsewhere, "export", "run.csv", "--storage", db)
	require.Equal(t, 0, code, "the export read from where the study was made: %s", out)
	csv := filepath.Join(made, "run.csv")
	require.NoError(t, os.Remove(csv))
	out, code = in(elsewhere, "resume", "run.csv", "--more", "1", "--storage", db)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, out, "gctune: workload \"run.csv\" of the study: the profile is not at "+csv+", where the study was made, nor run.csv from this folder")
}
