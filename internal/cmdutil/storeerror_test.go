package cmdutil

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialstore"
)

// TestStoreOpenErrorNotADatabase: a file that is no SQLite database is said to be no gctune
// study database, without SQLite's code, and keeps its chain (damaged: exit code 2).
func TestStoreOpenErrorNotADatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "notes.db")
	require.NoError(t, os.WriteFile(db, []byte("these are notes, not a database, and long enough to have a header\n"), 0o644))
	_, err := trialstore.Open(context.Background(), db, trialstore.OpenOptions{MustExist: true, ReadOnly: true})
	require.Error(t, err)
	worded := StoreOpenError(db, err)
	assert.Equal(t, db+" is not a gctune study database (not a SQLite file at all)", worded.Error())
	assert.ErrorIs(t, worded, trialstore.ErrCorrupt)
	assert.Equal(t, ExitUsage, ExitCode(worded))

	other := errors.New("other")
	assert.Same(t, other, StoreOpenError(db, other))
	assert.NoError(t, StoreOpenError(db, nil))
}
