package trialstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/c-bata/goptuna"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
)

// A worker opens the study database, creates the study (or loads it when another worker was
// first), runs trials, each beating once as it starts (package session beats every interval),
// and reads the best trial.
func Example() {
	dir, err := os.MkdirTemp("", "studies-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	store, err := trialstore.Open(ctx, "sqlite://"+filepath.Join(dir, "gctune.db"), trialstore.OpenOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	sampler := goptuna.StudyOptionSampler(goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(1)))
	study, err := trialstore.CreateStudy(ctx, store, "demo", trialstore.NewStudy{Version: "example"}, sampler)
	if errors.Is(err, trialstore.ErrStudyExists) {
		study, err = trialstore.LoadStudy(store, "demo", sampler)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	objective := func(tr goptuna.Trial) (float64, error) {
		if err := trialstore.Beat(ctx, store, tr.ID); err != nil {
			return 0, err
		}
		x, err := tr.SuggestFloat("x", -10, 10)
		return x * x, err
	}
	if err := study.Optimize(objective, 20); err != nil {
		fmt.Println(err)
		return
	}
	trials, err := study.GetTrials()
	if err != nil {
		fmt.Println(err)
		return
	}
	best, ok := trialattr.Best(trials)
	fmt.Println(len(trials), ok, best.Value < 10)

	_, err = trialstore.CreateStudy(ctx, store, "demo", trialstore.NewStudy{Version: "example"})
	fmt.Println(err)
	// Output:
	// 20 true true
	// trialstore: study "demo" already exists
}
