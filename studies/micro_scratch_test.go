package studies

import (
	"path/filepath"
	"testing"

	"github.com/c-bata/goptuna"
)

func BenchmarkReadScratch(b *testing.B) {
	path := filepath.Join(b.TempDir(), "p.db")
	store := openT(b, path, OpenOptions{})
	st := newStudy(b, store, "p", 1)
	if err := st.Optimize(objective5, 1000); err != nil {
		b.Fatal(err)
	}
	id, _ := store.Storage().CreateNewTrial(st.ID)
	store.Storage().SetTrialParam(id, "a", 1, goptunaUniform())
	b.Run("study", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := readStudyTrials(store.DB(), st.ID, id, []int{id}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := readTrials(store.DB(), "trial_id = ?", []any{id}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rawattrs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := store.RawStorage().GetTrialSystemAttrs(id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := store.Storage().GetAllTrials(st.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func goptunaUniform() interface{} { return goptuna.UniformDistribution{Low: -10, High: 10} }
