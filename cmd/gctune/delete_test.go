package main

import (
	"path/filepath"
	"testing"

	"github.com/glebarez/sqlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// TestDeleteRunningStudyRefused: `studies delete` of a study with running trials is refused
// (its optimizer would die on a foreign key), unless --force (issue 11.6).
func TestDeleteRunningStudyRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	_, errOut, code := gctune(t, "optimize", "testdata/tiny.yaml", "--trials", "2", "--workers", "1", "--storage", db, "--study", "t", "-q")
	require.Equal(t, 0, code, errOut)
	// A trial left RUNNING, as by a worker that is still at it.
	g, err := gorm.Open(sqlite.Open(db), &gorm.Config{})
	require.NoError(t, err)
	require.NoError(t, g.Exec("UPDATE trials SET state = 'RUNNING' WHERE number = 1").Error)
	sqlDB, _ := g.DB()
	require.NoError(t, sqlDB.Close())

	_, errOut, code = gctune(t, "studies", "delete", "t", "--storage", db)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `study "t" has 1 running trial(s)`)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, 0, code, "the study is still there")

	_, errOut, code = gctune(t, "studies", "delete", "t", "--force", "--storage", db)
	require.Equal(t, 0, code, errOut)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, exitUsage, code, "deleted")
}
