package tpe_test

import (
	"fmt"
	"math"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/search/tpe"
)

// NewSampler gives goptuna a seeded multivariate TPE: registered as both the sampler and the
// relative sampler, it draws the first DefaultStartupTrials trials uniformly, then proposes
// both parameters jointly. The same seed gives the same trials.
func ExampleNewSampler() {
	s := tpe.NewSampler(tpe.WithSeed(1), tpe.WithMultivariate(true))
	study, err := goptuna.CreateStudy("example", goptuna.StudyOptionSampler(s),
		goptuna.StudyOptionRelativeSampler(s), goptuna.StudyOptionLogger(nil))
	if err != nil {
		fmt.Println(err)
		return
	}
	err = study.Optimize(func(trial goptuna.Trial) (float64, error) {
		x, err := trial.SuggestFloat("x", -5, 5)
		if err != nil {
			return 0, err
		}
		lr, err := trial.SuggestLogFloat("lr", 1e-4, 1)
		d := math.Log10(lr) + 2
		return (x-1)*(x-1) + d*d, err
	}, 60)
	if err != nil {
		fmt.Println(err)
		return
	}
	best, err := study.GetBestValue()
	fmt.Println(best < 0.1, err)
	// Output: true <nil>
}
