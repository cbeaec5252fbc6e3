package study

import (
	"errors"

	"github.com/gctune/gctune/heapsim"
)

// ErrCostDiffers is matched by CheckCost's error.
var ErrCostDiffers = errors.New("study: cost model differs")

// CheckCost refuses a cost model (from file) other than the one study name was created with:
// its trials' times would not compare with the study's.
func (p *Problem) CheckCost(c heapsim.Cost, file, name string) error {
	if c != p.Cost {
		return inputErrorf(ErrCostDiffers, "cost %s differs from the cost model study %q was created with: its trials' times would not compare (drop --cost to use the study's, or create a new study with it)", file, name)
	}
	return nil
}
