package trialstore

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSetTrialUserAttrsUpserts(t *testing.T) {
	store := openT(t, filepath.Join(t.TempDir(), "b.db"), OpenOptions{})
	study := newStudy(t, store, "b", 1)
	id, err := study.Storage.CreateNewTrial(study.ID)
	require.NoError(t, err)
	b, ok := study.Storage.(interface {
		SetTrialUserAttrs(int, map[string]string) error
	})
	require.True(t, ok, "the store's storage batches attributes")
	require.NoError(t, study.Storage.SetTrialUserAttr(id, "a", "old"))
	require.NoError(t, b.SetTrialUserAttrs(id, map[string]string{"a": "1", "b": "2", "c": "3"}))
	require.NoError(t, b.SetTrialUserAttrs(id, map[string]string{"c": "33"}))
	tr, err := study.Storage.GetTrial(id)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "1", "b": "2", "c": "33"}, tr.UserAttrs)
}
