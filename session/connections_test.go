package session

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialstore"
)

// TestKeepConnections: the idle connections of a session of 3 workers are kept, 8 of them,
// not closed past database/sql's 2.
func TestKeepConnections(t *testing.T) {
	store, err := trialstore.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	KeepConnections(store, 3)
	sqlDB, err := store.DB().DB()
	require.NoError(t, err)
	conns := make([]interface{ Close() error }, 0, 8)
	for range 8 {
		c, err := sqlDB.Conn(context.Background())
		require.NoError(t, err)
		conns = append(conns, c)
	}
	for _, c := range conns {
		require.NoError(t, c.Close())
	}
	assert.Equal(t, 8, sqlDB.Stats().Idle)
	assert.Zero(t, sqlDB.Stats().MaxIdleClosed)
}
