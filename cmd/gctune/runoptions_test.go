package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tiny is the two-class spec the command tests generate in milliseconds.
const tiny = "testdata/tiny.yaml"

// The commands' run functions take an options struct and a Config: a test calls them without
// the command line (no flags, no viper), as here study create, resume and optimize.
func TestRunFunctionsWithoutTheCLI(t *testing.T) {
	cfg := defaultConfig()
	cfg.Storage = filepath.Join(t.TempDir(), "s.db")
	cfg.Search.Trials, cfg.Search.Workers = 3, 1
	ctx := t.Context()
	var out, errOut bytes.Buffer

	require.NoError(t, runStudyCreate(ctx, &out, &errOut, cfg, studyCreateOptions{Study: "s", Refs: []string{tiny}, Quiet: true}))
	assert.Empty(t, out.String(), "quiet")

	err := runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "s", More: -1})
	assert.EqualError(t, err, "--trials and --more must not be negative")
	assert.Equal(t, exitUsage, exitCode(err))
	err = runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "ghost"})
	assert.Equal(t, exitUsage, exitCode(err), "%v", err)

	require.NoError(t, runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "s", JSON: true, Quiet: true}))
	var doc sessionDoc
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	assert.Equal(t, "s", doc.Study)
	assert.Equal(t, 3, doc.Target)
	assert.Equal(t, 3, doc.Finished)
	require.NotNil(t, doc.Recommendation)

	out.Reset()
	require.NoError(t, runOptimize(ctx, &out, &errOut, cfg, optimizeOptions{Refs: []string{tiny}, JSON: true, Quiet: true}))
	doc = sessionDoc{}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	assert.Equal(t, tiny, doc.Study, "named after its workload")
	assert.Equal(t, 3, doc.Finished)
}
