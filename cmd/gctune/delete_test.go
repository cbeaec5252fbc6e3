package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeleteRunningStudyRefused: `studies delete` of a study with running trials is refused
// (its optimizer would die on a foreign key), unless --force (issue 11.6).
func TestDeleteRunningStudyRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "t", 2, "-q")
	// A trial left RUNNING, as by a worker that is still at it.
	execSQL(t, db, "UPDATE trials SET state = 'RUNNING' WHERE number = 1")

	_, errOut, code := gctune(t, "studies", "delete", "t", "--storage", db)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `study "t" has 1 running trial(s)`)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, 0, code, "the study is still there")

	_, errOut, code = gctune(t, "studies", "delete", "t", "--force", "--storage", db)
	require.Equal(t, 0, code, errOut)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, exitUsage, code, "deleted")
}
