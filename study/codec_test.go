package study

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialstore"
)

func TestSplitChunks(t *testing.T) {
	s := "aé☃bcd€€€"
	for n := 3; n < 12; n++ {
		chunks := splitChunks(s, n)
		joined := ""
		for _, c := range chunks {
			assert.True(t, len(c) <= n && len(c) > 0, "n=%d: chunk %q", n, c)
			joined += c
		}
		assert.Equal(t, s, joined, "n=%d", n)
	}
}

type record struct {
	Name  string   `json:"name"`
	Notes []string `json:"notes"`
}

// TestCodec stores a record over many chunks and one, under the problem's names and a
// document's, and reads each back; damage reads as damaged alike for both.
func TestCodec(t *testing.T) {
	ctx := context.Background()
	store, err := trialstore.Open(ctx, filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	big := record{Name: strings.Repeat("é", 1500)}
	for i := 0; i < 300; i++ {
		big.Notes = append(big.Notes, fmt.Sprintf("note %d: ∑ over ☃ %d", i, i*i))
	}
	small := record{Name: "small"}
	for _, c := range []docCodec{problemCodec, newDocCodec("gctune:doc")} {
		t.Run(c.what, func(t *testing.T) {
			st, err := trialstore.CreateStudy(ctx, store, "s-"+strings.ReplaceAll(c.what, ":", "-"), trialstore.NewStudy{Version: "test"})
			require.NoError(t, err)
			id := st.ID
			attrsOf := func() map[string]string {
				a, err := store.RawStorage().GetStudySystemAttrs(id)
				require.NoError(t, err)
				return a
			}
			save := func(v record) {
				attrs, err := c.encode(v)
				require.NoError(t, err)
				require.NoError(t, store.ReplaceStudyAttrs(id, c.stale(), attrs))
			}
			var got record
			require.ErrorIs(t, loadRecord(store, id, c, &got), ErrNoDoc)

			save(big)
			attrs := attrsOf()
			n, _ := strconv.Atoi(attrs[c.countKey])
			assert.GreaterOrEqual(t, n, 5, "several chunks")
			for k, v := range attrs {
				assert.LessOrEqual(t, len([]rune(v)), trialstore.MaxAttrChars, k)
			}
			require.NoError(t, loadRecord(store, id, c, &got))
			assert.Equal(t, big, got)

			save(small)
			for k := range attrsOf() {
				chunk := strings.HasPrefix(k, c.key+":") && k != c.countKey && k != c.sumKey
				assert.False(t, chunk, "stale chunk %s", k)
			}
			got = record{}
			require.NoError(t, loadRecord(store, id, c, &got))
			assert.Equal(t, small, got)

			damage := map[string][2]string{
				"garbage chunk": {c.key + ":2", "garbage"},
				"bad count":     {c.countKey, "x"},
				"bad checksum":  {c.sumKey, "00"},
				"bad JSON":      {c.key, "{"},
			}
			for what, attr := range damage {
				save(big)
				require.NoError(t, store.RawStorage().SetStudySystemAttr(id, attr[0], attr[1]))
				err := loadRecord(store, id, c, &got)
				require.ErrorIs(t, err, trialstore.ErrDamagedStudy, what)
				assert.True(t, trialstore.IsDamaged(err), what)
				assert.Contains(t, err.Error(), "the stored "+c.what+" (study attribute "+c.key+") is damaged", what)
			}
			save(big)
			require.NoError(t, store.ReplaceStudyAttrs(id, c.key+":1", nil))
			err = loadRecord(store, id, c, &got)
			require.ErrorIs(t, err, trialstore.ErrDamagedStudy)
			assert.Contains(t, err.Error(), "chunk 1 of")
		})
	}
}

// TestCodecLenient: a problem stored before the count and the checksum were written (one
// chunk, neither beside it) still reads; a document must have both.
func TestCodecLenient(t *testing.T) {
	attrs := map[string]string{problemCodec.key: `{"name":"old"}`}
	var got record
	require.NoError(t, problemCodec.decode(attrs, &got))
	assert.Equal(t, "old", got.Name)
	doc := newDocCodec("gctune:doc")
	require.ErrorIs(t, doc.decode(map[string]string{doc.key: `{"name":"old"}`}, &got), trialstore.ErrDamagedStudy)
}
