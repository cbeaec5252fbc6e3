package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A study made from a relative path in one folder is exported and resumed from another: the
// study keeps the file's absolute path. With the file gone, the error says where it was looked
// for. (A FiLiP export: a spec's text is stored with the study, so a spec would be found
// anyway.)
func TestStudyFromAnotherFolder(t *testing.T) {
	made, elsewhere := t.TempDir(), t.TempDir()
	db := filepath.Join(t.TempDir(), "p.db")
	csv := filepath.Join(made, "run.csv")
	gctuneOK(t, "sample", "testdata/tiny.yaml", "--rate", "1/10", "-o", csv)
	in := func(dir string, args ...string) (string, int) {
		cmd := gctuneCommand(nil, args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		code := 0
		if err := cmd.Run(); err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		return out.String(), code
	}
	out, code := in(made, "optimize", "run.csv", "--trials", "4", "--storage", db, "--quiet", "--replicas", "0", "--search-replicas", "0")
	require.Equal(t, 0, code, out)
	out, code = in(elsewhere, "export", "run.csv", "--storage", db)
	require.Equal(t, 0, code, "the export read from where the study was made: %s", out)
	require.NoError(t, os.Remove(csv))
	out, code = in(elsewhere, "resume", "run.csv", "--more", "1", "--storage", db)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, out, "gctune: workload \"run.csv\" of the study: the profile is not at "+csv+", where the study was made, nor run.csv from this folder")
}
