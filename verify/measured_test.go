package verify

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/pgtest"
	"github.com/gctune/gctune/trialstore"
)

// TestMeasuredSQLite stores and reads back measured runs in a SQLite file.
func TestMeasuredSQLite(t *testing.T) { testMeasured(t, filepath.Join(t.TempDir(), "m.db")) }

// TestMeasuredPostgres does on a private PostgreSQL server, which enforces the attributes'
// length.
func TestMeasuredPostgres(t *testing.T) { testMeasured(t, pgtest.Start(t)) }

// newStore opens url (created) and creates the study "m" in it.
func newStore(t *testing.T, url string) (*trialstore.Store, int) {
	t.Helper()
	store, err := trialstore.Open(context.Background(), url, trialstore.OpenOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	study, err := trialstore.CreateStudy(context.Background(), store, "m", trialstore.NewStudy{Version: "test"})
	require.NoError(t, err)
	return store, study.ID
}

func testMeasured(t *testing.T, url string) {
	store, id := newStore(t, url)
	runs, err := MeasuredRuns(store, id)
	require.NoError(t, err)
	assert.Empty(t, runs)

	s1 := NewMeasuredSession(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), 42)
	s2 := NewMeasuredSession(time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC), 7)
	assert.Less(t, s1, s2)
	want := []MeasuredRun{
		{Session: s1, Seq: 0, Config: "default", Trial: -1, Round: -1, WallSeconds: 0.3, PredictedSpeedup: 1},
		{Session: s1, Seq: 1, Config: "best", Trial: 4, Round: 0, WallSeconds: 0.1, Stats: json.RawMessage(`{"wallMs":100}`), PredictedSpeedup: 2.5},
		{Session: s2, Seq: 0, Config: "default", Trial: -1, Round: 0, WallSeconds: 1, ExitCode: 3, Error: strings.Repeat("é", 3000)},
	}
	// Stored out of order; read back in session and sequence order.
	for _, i := range []int{2, 1, 0} {
		require.NoError(t, SaveMeasuredRun(store, id, want[i]))
	}
	runs, err = MeasuredRuns(store, id)
	require.NoError(t, err)
	require.Len(t, runs, 3)
	assert.Equal(t, want[0].WallSeconds, runs[0].WallSeconds)
	assert.JSONEq(t, `{"wallMs":100}`, string(runs[1].Stats))
	assert.Equal(t, 3, runs[2].ExitCode)
	assert.False(t, runs[2].OK())
	assert.True(t, runs[1].OK())
	assert.Less(t, len(runs[2].Error), 2000, "a long error is shortened to fit")
	assert.True(t, strings.HasSuffix(runs[2].Error, "…"))

	require.Error(t, SaveMeasuredRun(store, id, MeasuredRun{Session: "a:b"}))
}
