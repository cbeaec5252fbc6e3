package verify

import (
	"bytes"
	"fmt"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/heapsim"
)

// BestName names the study's recommendation among the configurations verify runs.
const BestName = "best"

// Configs is what gctune verify runs: the defaults of the study's VM (vm, set explicitly by
// export.DefaultsScript), then best, the study's answer as export writes it (its st script and
// launch flag), and, when trial is not nil, that trial as it is ("trial-N"). Each carries the
// speedup its export predicts, with the interval when the study states one.
func Configs(vm heapsim.Params, best, trial *export.Config) ([]Config, error) {
	configs := []Config{{Name: DefaultName, Trial: -1, EdenFlag: export.LaunchFlagOf(vm),
		Script: export.DefaultsScript(vm), PredictedSpeedup: 1}}
	add := func(name string, c *export.Config) error {
		var script bytes.Buffer
		if err := export.WriteST(&script, c); err != nil {
			return err
		}
		configs = append(configs, Config{Name: name, Trial: c.Trial, EdenFlag: export.LaunchFlagOf(c.VM),
			Script: script.String(), PredictedSpeedup: c.Predicted.Speedup,
			PredictedInterval: c.Predicted.SpeedupInterval}) // nil when unknown (recommend.KnownIntervals)
		return nil
	}
	if err := add(BestName, best); err != nil {
		return nil, err
	}
	if trial != nil {
		if err := add(fmt.Sprintf("trial-%d", trial.Trial), trial); err != nil {
			return nil, err
		}
	}
	return configs, nil
}
