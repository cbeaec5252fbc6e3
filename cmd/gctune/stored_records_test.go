package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// damageStoredRecommendation rewrites the recommendation stored with study name in db through
// the store (its checksum right), with edit applied.
func damageStoredRecommendation(t *testing.T, db, name string, edit func(*study.StoredRecommendation)) {
	t.Helper()
	store, err := trialstore.Open(context.Background(), db, trialstore.OpenOptions{MustExist: true})
	require.NoError(t, err)
	defer store.Close()
	id, err := store.Storage().GetStudyIDFromName(name)
	require.NoError(t, err)
	var stored study.StoredRecommendation
	require.NoError(t, study.LoadDoc(store, id, study.RecommendationDoc, &stored))
	edit(&stored)
	require.NoError(t, study.SaveDoc(store, id, study.RecommendationDoc, stored))
}

// TestStoredRecordsValidatedOnRead: a stored recommendation holding a value gctune never
// writes (an eden of 1e300 bytes or of -1, a negative ratio) is never exported, shown or
// explained: every command that reads it exits 2 in one line naming the record and how to go
// on; resume makes it again. A measured run that is not gctune's JSON exits 2 the same way
// (issue 35: export printed --eden 8796093022208MiB, studies show 8388608 TiB, the st export
// --edenSize=1m, explain and report exited 1).
func TestStoredRecordsValidatedOnRead(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "s", 3)
	for _, c := range []struct {
		name string
		edit func(*study.StoredRecommendation)
		want string
	}{
		{"eden 1e300", func(s *study.StoredRecommendation) { s.Recommendation.Point.NewSpaceBytes = 1e300 }, "new space (eden) size = 1e+300 is not in"},
		{"eden -1", func(s *study.StoredRecommendation) { s.Recommendation.Point.NewSpaceBytes = -1 }, "new space (eden) size = -1 is not in"},
		{"ratio -1", func(s *study.StoredRecommendation) { s.Recommendation.Point.Ratio = -1 }, "full GC ratio = -1 is not in"},
		{"eden 2^63", func(s *study.StoredRecommendation) { s.Recommendation.Chosen.Point.NewSpaceBytes = 1 << 63 }, "new space (eden) size = 9.223372036854776e+18 is not in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			damageStoredRecommendation(t, db, "s", c.edit)
			for _, args := range [][]string{
				{"export", "s", "--format", "flags"},
				{"export", "s", "--format", "st"},
				{"studies", "show", "s"},
				{"explain", "s"},
				{"report", "s", "-o", filepath.Join(dir, "r.html")},
			} {
				out, errOut, code := gctune(t, append(args, "--storage", db)...)
				assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
				assert.Contains(t, errOut, `study "s": the stored recommendation (study attribute gctune:recommendation) is damaged: `, args)
				assert.Contains(t, errOut, c.want, args)
				assert.Contains(t, errOut, "'gctune resume s' makes it again", args)
				assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
				assert.Empty(t, out, args)
				assert.NoFileExists(t, filepath.Join(dir, "r.html"))
			}
			// resume makes it again, and stores it
			gctuneOK(t, "resume", "s", "--more", "1", "--storage", db, "--workers", "1")
			gctuneOK(t, "export", "s", "--format", "flags", "--storage", db)
		})
	}
	t.Run("measured run", func(t *testing.T) {
		execSQL(t, db, `INSERT INTO study_system_attributes (study_id, key, value) SELECT study_id, 'gctune:measured:20260101T000000.000000000Z-1:000000', '{"session": 3' FROM studies WHERE study_name = 's'`)
		for _, args := range [][]string{
			{"calibrate", "--from-study", "s"},
			{"report", "s", "-o", filepath.Join(dir, "r.html")},
		} {
			_, errOut, code := gctune(t, append(args, "--storage", db)...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
			assert.Contains(t, errOut, "the stored measured run 20260101T000000.000000000Z-1:000000 (study attribute gctune:measured:20260101T000000.000000000Z-1:000000) is damaged: not the JSON gctune writes; the trials are not", args)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
		}
	})
}

// TestStoredStringsPrintEscaped: the strings of a stored recommendation (labels, reasons) are
// printed with their control characters escaped, never raw (issue 35: ESC sequences in stored
// labels were printed raw by export --format st and explain).
func TestStoredStringsPrintEscaped(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "s", 3)
	const evil = "\x1b]0;owned\x07\x1b[2J"
	damageStoredRecommendation(t, db, "s", func(s *study.StoredRecommendation) {
		r := s.Recommendation
		r.KeepDefaults = false
		r.Kept = append(r.Kept, recommend.Step{Param: tunable.ParamNewSpace, Label: "eden", Value: r.Point.NewSpaceBytes, Default: 16 << 20})
		r.PutBack = append(r.PutBack, recommend.Step{Param: tunable.ParamRatio, Label: "ratio", Value: 0.5, Default: r.Point.Ratio})
		for i := range r.Workloads {
			r.Workloads[i].Name += evil
		}
		for i := range r.PutBack {
			r.PutBack[i].Label += evil
			r.PutBack[i].Why += evil
		}
		for i := range r.Kept {
			r.Kept[i].Label += evil
			r.Kept[i].Why += evil
		}
		r.AtDefault = append(r.AtDefault, evil)
		require.NotEmpty(t, append(r.PutBack, r.Kept...), "a change to label")
	})
	for _, args := range [][]string{
		{"export", "s", "--format", "st"},
		{"export", "s", "--format", "yaml"},
		{"explain", "s"},
		{"studies", "show", "s"},
	} {
		out, errOut := gctuneOK(t, append(args, "--storage", db)...)
		assert.NotContains(t, out+errOut, "\x1b", args)
		assert.NotContains(t, out+errOut, "\x07", args)
	}
	out, _ := gctuneOK(t, "export", "s", "--format", "st", "--storage", db)
	assert.Contains(t, out, `\x1b]0;owned\a`, "escaped, still visible")
}

// TestStoredProblemValidatedOnRead: a stored problem holding a value gctune never writes (a
// target of 2e9 trials, a negative cost coefficient) is refused by every command that loads
// it, exit 2, one line naming the record (issue 35).
func TestStoredProblemValidatedOnRead(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*study.Problem)
		want string
	}{
		{"trials", func(p *study.Problem) { p.Trials = 2_000_000_000 }, "target of 2000000000 trials is not in [1, 100000]"},
		{"cost", func(p *study.Problem) { p.Cost.ScavengeFixedSeconds = -1 }, "cost model: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "s.db")
			optimizeTiny(t, db, "s", 3)
			store, err := trialstore.Open(context.Background(), db, trialstore.OpenOptions{MustExist: true})
			require.NoError(t, err)
			id, sp, err := study.Load(store, "s")
			require.NoError(t, err)
			c.edit(sp)
			require.NoError(t, study.SaveProblem(store, id, sp))
			require.NoError(t, store.Close())
			for _, args := range [][]string{{"studies", "show", "s"}, {"export", "s"}, {"resume", "s"}, {"explain", "s"}} {
				_, errOut, code := gctune(t, append(args, "--storage", db)...)
				assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
				assert.Contains(t, errOut, `the stored problem (study attribute gctune:problem) is damaged: `+c.want, args)
				assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			}
		})
	}
}
